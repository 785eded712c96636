import { describe, expect, it } from 'vitest';
import { bills, check, compile, defineSchema, deposits, invoices, parse, query, vendors, type QueryInput } from '../../src/index';
import { accepted, expectDiagnostic, rejected, type DiagnosticRow } from './support';

// One table per diagnostic code the validator produces (reference §4, §6). Path problems
// point into the key, value problems into the value; each row names the exact span.

const OR_HINT = /no OR.*own request/;

/** Lines whose elements hold a ref, which no resource of the catalog has. */
const lineRefs = defineSchema({ fields: { lines: { type: 'array', of: { description: 'string', itemRef: { type: 'ref' } } } } });

/** Rows for the value of one parameter: the span covers the whole value unless given. */
const valueRow =
  (param: string) =>
  (query: string, spanned: string, hint: RegExp, span?: [number, number]): DiagnosticRow => ({
    query,
    param,
    in: 'value',
    span: span ?? [0, spanned.length],
    spanned,
    hint,
  });

describe('UNKNOWN_FIELD', () => {
  it.each<DiagnosticRow>([
    { query: 'totalAmout=5', param: 'totalAmout', in: 'key', span: [0, 10], spanned: 'totalAmout', hint: /^Did you mean totalAmount\?$/ },
    { query: 'TotalAmount=5', param: 'TotalAmount', in: 'key', span: [0, 11], spanned: 'TotalAmount', hint: /^Did you mean totalAmount\?$/ },
    { query: 'vendorNmae=acme', param: 'vendorNmae', in: 'key', span: [0, 10], spanned: 'vendorNmae', hint: /^Did you mean vendorName\?$/ },
    { query: 'issueDat=2023-01-09', param: 'issueDat', in: 'key', span: [0, 8], spanned: 'issueDat', hint: /^Did you mean issueDate\?$/ },
    {
      query: 'lines.descripton=x',
      param: 'lines.descripton',
      in: 'key',
      span: [6, 16],
      spanned: 'descripton',
      hint: /^Did you mean lines\.description\?$/,
    },
    // Nothing close: the hint lists what can be filtered, removed fields left out.
    {
      query: 'foo=1',
      param: 'foo',
      in: 'key',
      span: [0, 3],
      spanned: 'foo',
      hint: /^Filterable fields: totalAmount, issueDate, vendorName, customerRef\.id, lines\.description, lines\.amount\.$/,
    },
    {
      query: 'lines.nope=1',
      param: 'lines.nope',
      in: 'key',
      span: [6, 10],
      spanned: 'nope',
      hint: /^Filterable fields of lines: lines\.description, lines\.amount\.$/,
    },
    { query: 'totalAmount.x=1', param: 'totalAmount.x', in: 'key', span: [12, 13], spanned: 'x', hint: /totalAmount itself/ },
    { query: 'customerRef.id.x=1', param: 'customerRef.id.x', in: 'key', span: [15, 16], spanned: 'x', hint: /customerRef\.id itself/ },
    { query: 'lines.amount.x.y=1', param: 'lines.amount.x.y', in: 'key', span: [13, 16], spanned: 'x.y', hint: /lines\.amount itself/ },
    // Pass-through params are suggested too, but are not listed as filterable.
    { query: 'businesName=Acme', param: 'businesName', in: 'key', span: [0, 11], spanned: 'businesName', hint: /^Did you mean businessName\?$/ },
    { query: 'limt=10', schema: invoices, param: 'limt', in: 'key', span: [0, 4], spanned: 'limt', hint: /^Did you mean limit\?$/ },
    { query: 'or=(vendorName=a,vendorName=b)', param: 'or', in: 'key', span: [0, 2], spanned: 'or', hint: OR_HINT },
    // A removed field is not suggested: "meme" is one edit from the removed "memo".
    { query: 'meme=x', param: 'meme', in: 'key', span: [0, 4], spanned: 'meme', hint: /^Filterable fields: (?!.*memo)/ },
    {
      query: 'foo=1',
      schema: defineSchema({ fields: {} }),
      param: 'foo',
      in: 'key',
      span: [0, 3],
      spanned: 'foo',
      hint: /^This resource has no filterable fields\.$/,
    },
  ])('$query', (row) => {
    expectDiagnostic('UNKNOWN_FIELD', row);
  });
});

describe('SUBPROPERTY_NOT_FILTERABLE', () => {
  it.each<DiagnosticRow>([
    { query: 'customerRef.name=Acme', param: 'customerRef.name', in: 'key', span: [12, 16], spanned: 'name', hint: /customerRef\.id/ },
    {
      query: 'customerRef.name.first=A',
      param: 'customerRef.name.first',
      in: 'key',
      span: [12, 22],
      spanned: 'name.first',
      hint: /customerRef\.id/,
    },
    { query: 'customerRef.Id=42', param: 'customerRef.Id', in: 'key', span: [12, 14], spanned: 'Id', hint: /customerRef\.id/ },
    {
      query: 'lines.itemRef.name=x',
      schema: lineRefs,
      param: 'lines.itemRef.name',
      in: 'key',
      span: [14, 18],
      spanned: 'name',
      hint: /lines\.itemRef\.id/,
    },
  ])('$query', (row) => {
    expectDiagnostic('SUBPROPERTY_NOT_FILTERABLE', row);
  });
});

describe('INVALID_PATH (a ref or a child array named as a whole)', () => {
  it.each<DiagnosticRow>([
    { query: 'customerRef=42', param: 'customerRef', in: 'key', span: [0, 11], spanned: 'customerRef', hint: /customerRef\.id/ },
    { query: 'lines=x', param: 'lines', in: 'key', span: [0, 5], spanned: 'lines', hint: /lines\.description/ },
    {
      query: 'lines.itemRef=1',
      schema: lineRefs,
      param: 'lines.itemRef',
      in: 'key',
      span: [0, 13],
      spanned: 'lines.itemRef',
      hint: /lines\.itemRef\.id/,
    },
    // The example must be filterable: not the removed lines.memo.
    {
      query: 'lines=x',
      schema: defineSchema({
        fields: { lines: { type: 'array', of: { memo: { type: 'string', removed: 'Use memo.' }, amount: 'number' } } },
      }),
      param: 'lines',
      in: 'key',
      span: [0, 5],
      spanned: 'lines',
      hint: /lines\.amount/,
    },
  ])('$query', (row) => {
    expectDiagnostic('INVALID_PATH', row);
  });
});

describe('OPERATOR_NOT_SUPPORTED (a comparison on text or an id)', () => {
  it.each<DiagnosticRow>([
    { query: 'vendorName=gt:acme', param: 'vendorName', in: 'value', span: [0, 3], spanned: 'gt:', hint: /equality.*%25/ },
    { query: 'vendorName=lte:%25acme', param: 'vendorName', in: 'value', span: [0, 4], spanned: 'lte:', hint: /equality/ },
    { query: 'customerRef.id=gte:42', param: 'customerRef.id', in: 'value', span: [0, 4], spanned: 'gte:', hint: /equality/ },
    { query: 'lines.description=lt:x', param: 'lines.description', in: 'value', span: [0, 3], spanned: 'lt:', hint: /equality/ },
    { query: 'vendorName=acme;gt:b', param: 'vendorName', in: 'value', span: [5, 8], spanned: 'gt:', hint: /equality/ },
  ])('$query', (row) => {
    expectDiagnostic('OPERATOR_NOT_SUPPORTED', row);
  });

  it('reports each comparison of a parameter', () => {
    const errors = rejected('vendorName=gt:a;lt:b');
    expect(errors.map((e) => [e.code, e.span])).toEqual([
      ['OPERATOR_NOT_SUPPORTED', { start: 0, end: 3 }],
      ['OPERATOR_NOT_SUPPORTED', { start: 5, end: 8 }],
    ]);
  });
});

describe('WILDCARD_NOT_SUPPORTED (on a number or a date)', () => {
  it.each<DiagnosticRow>([
    { query: 'totalAmount=%25100', param: 'totalAmount', in: 'value', span: [0, 4], spanned: '%100', hint: /gte:/ },
    { query: 'totalAmount=gte:1;lte:%255', param: 'totalAmount', in: 'value', span: [10, 12], spanned: '%5', hint: /gte:/ },
    { query: 'totalAmount="1%25"', param: 'totalAmount', in: 'value', span: [0, 4], spanned: '"1%"', hint: /gte:/ },
    { query: 'lines.amount=1%25', param: 'lines.amount', in: 'value', span: [0, 2], spanned: '1%', hint: /gte:/ },
    { query: 'issueDate=2023-01%25', param: 'issueDate', in: 'value', span: [0, 8], spanned: '2023-01%', hint: /gte:/ },
    { query: 'issueDate=gt:%25', param: 'issueDate', in: 'value', span: [3, 4], spanned: '%', hint: /gte:/ },
  ])('$query', (row) => {
    expectDiagnostic('WILDCARD_NOT_SUPPORTED', row);
  });

  it('a literal percent sign is no wildcard, but still not a number', () => {
    expect(rejected('totalAmount=5\\%25').map((e) => e.code)).toEqual(['INVALID_NUMBER']);
  });
});

describe('INVALID_NUMBER', () => {
  const row = valueRow('totalAmount');
  const SYNTAX = /no spaces.*no leading zeros or "\+"/;
  it.each<DiagnosticRow>([
    row('totalAmount=1e400', '1e400', /range of a double/),
    row('totalAmount=-1e400', '-1e400', /range of a double/),
    row('totalAmount=9007199254740993', '9007199254740993', /2\^53/),
    row('totalAmount=-9007199254740993', '-9007199254740993', /2\^53/),
    row('totalAmount=12345678901234567890', '12345678901234567890', /2\^53/),
    row('totalAmount=GTE:5', 'GTE:5', /lower case.*gte:5/),
    row('totalAmount=Lt:5', 'Lt:5', /lower case.*lt:5/),
    row('totalAmount=eq:5', 'eq:5', /not an operator/),
    row('totalAmount=1|2', '1|2', OR_HINT),
    row('totalAmount=1,2', '1,2', OR_HINT),
    row('totalAmount=gte:1,2', '1,2', OR_HINT, [4, 7]),
    // Thousands separators are not OR (issue 14, item 13).
    row('totalAmount=gte:1,000', '1,000', /^Write a number without thousands separators: 1000\.$/, [4, 9]),
    row('totalAmount=-12,345,678.5', '-12,345,678.5', /separators: -12345678\.5\.$/),
    row('totalAmount=05', '05', SYNTAX),
    row('totalAmount=%2B5', '+5', SYNTAX),
    row('totalAmount=.5', '.5', SYNTAX),
    row('totalAmount=5.', '5.', SYNTAX),
    row('totalAmount=1%20000', '1 000', SYNTAX),
    row('totalAmount=5%20', '5 ', SYNTAX),
    row('totalAmount=abc', 'abc', SYNTAX),
    row('totalAmount=""', '""', SYNTAX),
    // A "+" sent unencoded arrives as a space: say so.
    row('totalAmount=+5', ' 5', /space.*write 5\.$/),
    row('totalAmount=%205', ' 5', /space.*write 5\.$/),
    row('totalAmount=1e+5', '1e 5', /space.*write 1e5\.$/),
    row('totalAmount=gte:abc;lte:5', 'abc', SYNTAX, [4, 7]),
    row('totalAmount=gte:1;lte:x', 'x', SYNTAX, [10, 11]),
  ])('$query', (r) => {
    expectDiagnostic('INVALID_NUMBER', r);
  });

  it('on a child field too', () => {
    expectDiagnostic('INVALID_NUMBER', {
      query: 'lines.amount=ten',
      param: 'lines.amount',
      in: 'value',
      span: [0, 3],
      spanned: 'ten',
      hint: SYNTAX,
    });
  });

  it.each([
    ['9007199254740992', 2 ** 53],
    ['-9007199254740992', -(2 ** 53)],
    ['1.5e300', 1.5e300],
    ['1e16', 1e16],
    ['-0', 0],
    ['200.00', 200],
    ['2E-3', 0.002],
  ])('accepts %s', (text, value) => {
    const filter = accepted(`totalAmount=${text}`);
    expect(filter.conditions[0]).toMatchObject({ type: 'number', tests: [{ op: 'eq', value }] });
  });
});

describe('INVALID_DATE', () => {
  const row = valueRow('issueDate');
  const SYNTAX = /YYYY-MM-DD/;
  const CALENDAR = /real calendar date/;
  it.each<DiagnosticRow>([
    row('issueDate=2023-02-29', '2023-02-29', CALENDAR),
    row('issueDate=1900-02-29', '1900-02-29', CALENDAR),
    row('issueDate=2023-04-31', '2023-04-31', CALENDAR),
    row('issueDate=2023-01-09T24:00Z', '2023-01-09T24:00Z', CALENDAR),
    row('issueDate=2023-01-09T23:59:60Z', '2023-01-09T23:59:60Z', CALENDAR),
    row('issueDate=2023-01-09T00:00%2B24:00', '2023-01-09T00:00+24:00', /^An offset is at most ±23:59/),
    row('issueDate=2023-01-09T10:00:00', '2023-01-09T10:00:00', /Z.*offset/),
    // The plus sign of an offset sent unencoded: a space arrives, and the hint says so.
    row('issueDate=2023-01-09T10:00:00+01:00', '2023-01-09T10:00:00 01:00', /"\+".*%2B/),
    row('issueDate=2023-01-09T10:00:00.1234567890Z', '2023-01-09T10:00:00.1234567890Z', /1 to 9 digits/),
    row('issueDate=10000-01-01', '10000-01-01', SYNTAX),
    row('issueDate=09%2F01%2F2023', '09/01/2023', SYNTAX),
    row('issueDate=0000-01-01T00:00:00%2B01:00', '0000-01-01T00:00:00+01:00', /0000-01-01/),
    row('issueDate=GTE:2023-01-01', 'GTE:2023-01-01', /lower case.*gte:2023-01-01/),
    row('issueDate=2023-01-01|2023-01-02', '2023-01-01|2023-01-02', OR_HINT),
    row('issueDate=gt:2023-01-01;lt:2023-13-01', '2023-13-01', CALENDAR, [17, 27]),
  ])('$query', (r) => {
    expectDiagnostic('INVALID_DATE', r);
  });

  // Issue 23, item 10: the hints show the user's own value, fixed, and say what a fraction may hold.
  it.each<[string, string]>([
    // An offset without its colon: the value as it should be sent, "+" encoded.
    ['issueDate=2023-01-09T10:00:00%2B0100', 'Write the offset with a colon: 2023-01-09T10:00:00%2B01:00.'],
    ['issueDate=2023-01-09T10:00:00-0530', 'Write the offset with a colon: 2023-01-09T10:00:00-05:30.'],
    // A "+" sent unencoded: the user's own value, not a fixed example.
    ['issueDate=2023-03-15T18:45:00+05:30', 'A "+" in a query string means a space: send the offset\'s plus sign encoded as %2B (2023-03-15T18:45:00%2B05:30), or use Z.'],
    ['issueDate=2023-03-15T18:45+0530', 'A "+" in a query string means a space: send the offset\'s plus sign encoded as %2B (2023-03-15T18:45%2B05:30), or use Z.'],
    ['issueDate=2023-01-09T10:00:00.1234567890Z', 'A fraction of a second has 1 to 9 digits (.5, .123, .123456789), compared to the millisecond: digits past the third are dropped.'],
    ['issueDate=2023-01-09T10:00:00.Z', 'A fraction of a second has 1 to 9 digits (.5, .123, .123456789), compared to the millisecond: digits past the third are dropped.'],
    ['issueDate=2023-01-09X', 'Write a date as YYYY-MM-DD, or a date-time as YYYY-MM-DDThh:mm, YYYY-MM-DDThh:mm:ss or YYYY-MM-DDThh:mm:ss.fffffffff (1 to 9 fraction digits) with Z or an offset such as +01:00.'],
  ])('%s: the hint fits the value', (query, hint) => {
    const [error] = rejected(query);
    expect(error).toMatchObject({ code: 'INVALID_DATE', hint });
  });

  it('accepts 1 to 9 fraction digits, as the hint says', () => {
    for (const fraction of ['.1', '.12', '.123', '.1234567', '.123456789']) expect(accepted(`issueDate=2023-01-09T10:00:00${fraction}Z`).conditions).toHaveLength(1);
  });

  /** Epoch ms by `Date`, independent of the scanner. */
  const at = (iso: string): number => new Date(iso).getTime();

  it.each([
    ['2000-02-29', at('2000-02-29T00:00:00Z'), at('2000-03-01T00:00:00Z'), 'day'],
    ['2024-02-29', at('2024-02-29T00:00:00Z'), at('2024-03-01T00:00:00Z'), 'day'],
    ['0000-01-01', at('0000-01-01T00:00:00Z'), at('0000-01-02T00:00:00Z'), 'day'],
    ['2023-01-09T10:00:00%2B01:00', at('2023-01-09T09:00:00Z'), at('2023-01-09T09:00:00.001Z'), 'instant'],
    ['2023-01-09T23:59:59Z', at('2023-01-09T23:59:59Z'), at('2023-01-09T23:59:59.001Z'), 'instant'],
    ['2023-01-09T00:00Z', at('2023-01-09T00:00:00Z'), at('2023-01-09T00:00:00.001Z'), 'instant'],
    ['2023-01-09T10:00:00.123456789Z', at('2023-01-09T10:00:00.123Z'), at('2023-01-09T10:00:00.124Z'), 'instant'],
    ['2023-01-09T10:00:00.9Z', at('2023-01-09T10:00:00.900Z'), at('2023-01-09T10:00:00.901Z'), 'instant'],
    ['9999-12-31T23:59:59.999Z', at('9999-12-31T23:59:59.999Z'), at('9999-12-31T23:59:59.999Z') + 1, 'instant'],
  ])('accepts %s', (text, start, end, unit) => {
    const filter = accepted(`issueDate=${text}`);
    expect(filter.conditions[0]).toMatchObject({ type: 'date', tests: [{ op: 'eq', value: { start, end, unit } }] });
  });
});

describe('FIELD_REMOVED', () => {
  it('lines.memo on deposits: the memo lives on the deposit since 2023-01-09', () => {
    expectDiagnostic('FIELD_REMOVED', {
      query: 'lines.memo=rent',
      schema: deposits,
      param: 'lines.memo',
      in: 'key',
      span: [0, 10],
      spanned: 'lines.memo',
      hint: /2023-01-09.*memo=/,
    });
    // …where it can be filtered instead.
    expect(accepted('memo=rent', deposits).conditions).toHaveLength(1);
  });

  const removedEverywhere = defineSchema({
    fields: {
      memo: { type: 'string', removed: 'Filter on note.' },
      note: 'string',
      vendorRef: { type: 'ref', removed: 'Filter on vendorId.' },
      vendorId: 'string',
      lines: { type: 'array', of: { amount: 'number' }, removed: 'Filter on items.amount.' },
      items: { type: 'array', of: { amount: 'number' } },
    },
  });

  it.each<DiagnosticRow>([
    { query: 'memo=x', schema: removedEverywhere, param: 'memo', in: 'key', span: [0, 4], spanned: 'memo', hint: /^Filter on note\.$/ },
    { query: 'memo=x', param: 'memo', in: 'key', span: [0, 4], spanned: 'memo', hint: /^filter on … instead$/ },
    // Whatever lies under a removed field is removed with it.
    { query: 'memo.x=1', schema: removedEverywhere, param: 'memo.x', in: 'key', span: [0, 6], spanned: 'memo.x', hint: /note/ },
    {
      query: 'vendorRef.id=1',
      schema: removedEverywhere,
      param: 'vendorRef.id',
      in: 'key',
      span: [0, 12],
      spanned: 'vendorRef.id',
      hint: /vendorId/,
    },
    {
      query: 'vendorRef.name=1',
      schema: removedEverywhere,
      param: 'vendorRef.name',
      in: 'key',
      span: [0, 14],
      spanned: 'vendorRef.name',
      hint: /vendorId/,
    },
    {
      query: 'lines.amount=1',
      schema: removedEverywhere,
      param: 'lines.amount',
      in: 'key',
      span: [0, 12],
      spanned: 'lines.amount',
      hint: /items\.amount/,
    },
    { query: 'lines=1', schema: removedEverywhere, param: 'lines', in: 'key', span: [0, 5], spanned: 'lines', hint: /items\.amount/ },
  ])('$query', (row) => {
    expectDiagnostic('FIELD_REMOVED', row);
  });
});

describe('every problem at once', () => {
  it('reports the problems of every parameter and every clause, in query order', () => {
    const errors = rejected('totalAmout=1&vendorName=gt:a&totalAmount=x;gte:y&issueDate=%25&lines.memo=a&customerRef=1', deposits);
    expect(errors.map((e) => [e.code, e.param])).toEqual([
      ['UNKNOWN_FIELD', 'totalAmout'],
      ['UNKNOWN_FIELD', 'vendorName'],
      ['INVALID_NUMBER', 'totalAmount'],
      ['INVALID_NUMBER', 'totalAmount'],
      ['UNKNOWN_FIELD', 'issueDate'],
      ['FIELD_REMOVED', 'lines.memo'],
      ['UNKNOWN_FIELD', 'customerRef'],
    ]);
  });

  it('reports a repeated parameter once per occurrence', () => {
    const errors = rejected('totalAmount=x&totalAmount=5&totalAmount=y');
    expect(errors.map((e) => [e.code, e.text])).toEqual([
      ['INVALID_NUMBER', 'x'],
      ['INVALID_NUMBER', 'y'],
    ]);
  });
});

// Issue 14, item 13: messages show what was typed, hints say what the sender can do.
describe('messages and hints', () => {
  it('show an invalid escape as it was typed', () => {
    expect(rejected('vendorName=a%5Cb', vendors)[0]!.message).toBe('Parameter "vendorName" has the escape "\\b", which is not one.');
  });

  it.each([
    ['memo=100%', bills, 'memo=100%25'],
    ['vendorName=%acme%', vendors, 'vendorName=%25acme%25'],
    ['vendorName=%25ok%C3%28x%', vendors, 'vendorName=%25ok%25C3%28x%25'],
    ['%zz=1', vendors, '%25zz'],
  ])('MALFORMED_ENCODING of %s: the hint shows that parameter with its "%" sent as %25', (query, schema, fixed) => {
    const [d] = rejected(query, schema).filter((e) => e.code === 'MALFORMED_ENCODING');
    expect(d!.hint).toBe(`A "%" that is meant as the wildcard, or as a percent sign, is sent encoded as "%25": ${fixed}.`);
  });

  it.each<[unknown, string]>([
    [undefined, 'undefined'],
    [null, 'null'],
    [42, 'the number 42'],
    [new Map(), 'a Map'],
  ])('say what a query that is not one is: %s', (input, what) => {
    const result = check(input as QueryInput, vendors);
    expect(result.ok === false && result.errors[0]!.message).toBe(
      `The query must be a string, URL, URLSearchParams or plain object of strings, not ${what}.`,
    );
  });

  // What the package itself makes, passed where the query belongs: one diagnostic that
  // says what it is, not an UNKNOWN_FIELD for each of its properties.
  it.each<[string, () => unknown, string, RegExp]>([
    ['a Result of parse', () => parse('vendorName=acme'), 'a Result', /validate\(result\.value, schema\)/],
    ['a Result of check', () => check('vendorName=acme', vendors), 'a Result', /pass the query itself/],
    ['a syntax tree', () => (parse('vendorName=acme') as { value: unknown }).value, 'a syntax tree', /^validate\(ast, schema\)/],
    ['a Filter', () => (check('vendorName=acme', vendors) as { value: unknown }).value, 'a Filter', /format\(filter\)/],
    ['a query builder', () => query(vendors).where('vendorName', 'eq', 'acme'), 'a query builder', /builder\.toString\(\)/],
  ])('check of %s: one INVALID_PARAMETER that names it', (_name, make, what, hint) => {
    const result = check(make() as QueryInput, vendors);
    expect(result.ok).toBe(false);
    expect(result.ok === false && result.errors).toEqual([
      expect.objectContaining({ code: 'INVALID_PARAMETER', message: `The query must be a string, URL, URLSearchParams or plain object of strings, not ${what}.`, hint: expect.stringMatching(hint) }),
    ]);
  });

  // A framework's record of a query that uses these names is still a query: every value
  // of a record is a string or a list of strings, which none of those objects can hold
  // where they are told apart (a Filter's and a tree's "params" is an object).
  it.each<[string, Record<string, string | string[]>]>([
    ['type=Query&filters=a&filters=b', { type: 'Query', filters: ['a', 'b'] }],
    ['type=Filter&conditions=a&conditions=b', { type: 'Filter', conditions: ['a', 'b'] }],
    ['type=Query&filters=a&params=b', { type: 'Query', filters: ['a'], params: 'b' }],
    ['ok=true&toFilter=x', { ok: 'true', toFilter: 'x' }],
  ])('check of the record of %s: read as the query it is', (query, record) => {
    const names = defineSchema({ fields: { type: { type: 'string' }, filters: { type: 'string' }, conditions: { type: 'string' }, ok: { type: 'string' }, toFilter: { type: 'string' } } });
    expect(check(record, names, { params: ['params'] })).toEqual(check(query, names, { params: ['params'] }));
    expect(check(query, names, { params: ['params'] }).ok).toBe(true);
  });

  // A client cannot raise a server's limit: the hint says what it can send instead.
  it.each([
    ['the query length', `vendorName=${'a'.repeat(9000)}`],
    ['the parameters', 'a=1&'.repeat(65)],
    ['the path depth', 'lines.a.b.c.d=1'],
    ['the clauses', `totalAmount=${'1;'.repeat(16)}1`],
    ['the operand length', `vendorName=${'a'.repeat(1025)}`],
    ['the wildcards', `vendorName=${'%25a'.repeat(17)}`],
  ])('LIMIT_EXCEEDED past %s: a hint for the client, not for the server', (_, query) => {
    const result = parse(query);
    const d = result.ok ? undefined : result.errors.find((e) => e.code === 'LIMIT_EXCEEDED');
    expect(d?.hint).toMatch(/^Send |^Filter on /);
    expect(d?.hint).not.toMatch(/raise|max[A-Z]|limit/);
  });

  // "|" and "," are no operators (reference §3): on text they are characters of it.
  it.each([
    ['status=open|paid', 'open|paid'],
    ['invoiceNumber=a,b', 'a,b'],
    ['customerRef.id=1,2', '1,2'],
  ])('%s is one equality with the text %s, not an OR', (query, text) => {
    const filter = accepted(`businessName=Acme&${query}`, invoices);
    expect(filter.conditions.map((c) => c.tests)).toEqual([[{ op: 'eq', value: text }]]);
  });

  // The clauses hint offers a repeated parameter, which keeps the meaning outside a list
  // only: on a list, each parameter holds for any element, not the same one.
  it('LIMIT_EXCEEDED past the clauses: the repeated parameter it offers is only for fields outside a list', () => {
    const result = parse(`lines.amount=${'gt:1;'.repeat(16)}gt:1`);
    const hint = result.ok ? undefined : result.errors[0]!.hint;
    expect(hint).toMatch(/on a field outside a list, the rest can go in a repeated parameter .*but not on a field of a list/);
    const item = { totalAmount: 15, lines: [{ amount: 5 }, { amount: 30 }] };
    const matches = (q: string): boolean => {
      const checked = check(q, invoices);
      return checked.ok && compile(checked.value)(item);
    };
    expect(matches('totalAmount=gte:10;lte:20')).toBe(matches('totalAmount=gte:10&totalAmount=lte:20'));
    expect(matches('lines.amount=gte:10;lte:20')).toBe(false);
    expect(matches('lines.amount=gte:10&lines.amount=lte:20')).toBe(true);
  });
});
