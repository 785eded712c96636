import { describe, expect, it } from 'vitest';
import { check, defineSchema, format, parse, validate } from '../../src/index';
import { accepted, expectDiagnostic, rejected, type DiagnosticRow } from './support';

// reference §9: sorting, paging and request parameters, checked against a schema.

const schema = defineSchema({
  fields: {
    totalAmount: { type: 'number', sortable: true },
    issueDate: { type: 'date', sortable: true },
    vendorName: { type: 'string', sortable: true },
    memo: 'string',
    customerRef: { type: 'ref', sortable: true },
    vendorRef: { type: 'ref' },
    lines: { type: 'array', of: { amount: 'number', description: 'string' } },
    docNumber: { type: 'string', sortable: true, removed: 'Filter and sort on invoiceNumber.' },
  },
  params: { businessName: { type: 'string', required: true }, startDate: 'date', minTotal: 'number' },
  paging: { defaultLimit: 50, maxLimit: 200 },
});

const SORTABLE = /^Sortable fields: totalAmount, issueDate, vendorName, customerRef\.id\.$/;
const base = 'businessName=Acme';

/** A row on the value of orderBy: the spanned text is found in the value. */
function sortRow(value: string, spanned: string, hint: RegExp, from = 0): DiagnosticRow {
  const start = value.indexOf(spanned, from);
  return { query: `${base}&orderBy=${encodeURIComponent(value)}`, schema, param: 'orderBy', in: 'value', span: [start, start + spanned.length], spanned, hint };
}

describe('the checked sort', () => {
  it('is the sort keys in order, with each field path, type and direction', () => {
    const filter = accepted(`${base}&orderBy=-issueDate,totalAmount,customerRef.id`, schema);
    expect(filter.sort).toEqual([
      { key: 'issueDate', path: ['issueDate'], direction: 'desc', type: 'date' },
      { key: 'totalAmount', path: ['totalAmount'], direction: 'asc', type: 'number' },
      { key: 'customerRef.id', path: ['customerRef', 'id'], direction: 'asc', type: 'id' },
    ]);
    expect(filter.params).toEqual({ businessName: 'Acme', orderBy: '-issueDate,totalAmount,customerRef.id' });
  });

  it('is empty when the query does not sort', () => {
    expect(accepted(base, schema).sort).toEqual([]);
  });

  it('is written back by format, and reads back the same', () => {
    const filter = accepted(`totalAmount=gte:5&orderBy=-vendorName,issueDate&${base}&limit=20`, schema);
    const text = format(filter);
    expect(text).toBe('orderBy=-vendorName,issueDate&businessName=Acme&limit=20&totalAmount=gte:5');
    expect(accepted(text, schema)).toEqual(filter);
  });

  it('comes out of validate as out of check, whatever the parse named the sort parameter', () => {
    const query = `${base}&orderBy=-totalAmount`;
    const viaCheck = accepted(query, schema);
    const ast = parse(query, { sortParam: 'sort' });
    expect(ast.ok && validate(ast.value, schema)).toEqual({ ok: true, value: viaCheck });
    const other = defineSchema({ fields: { a: { type: 'number', sortable: true } }, sortParam: 'sort' });
    expect(check('sort=-a', other)).toMatchObject({ ok: true, value: { sort: [{ key: 'a', direction: 'desc' }], params: { sort: '-a' } } });
    const parsed = parse('orderBy=-a');
    expect(parsed.ok && validate(parsed.value, other)).toMatchObject({ ok: false, errors: [{ code: 'UNKNOWN_FIELD', param: 'orderBy', hint: 'This resource sorts with sort=….' }] });
  });

  it('refuses a second sort parameter in validate as check does, whatever the parse named the sort parameter', () => {
    const query = `${base}&orderBy=totalAmount&orderBy=-issueDate`;
    const viaCheck = check(query, schema);
    expect(viaCheck).toMatchObject({ ok: false, errors: [{ code: 'INVALID_SORT', param: 'orderBy', message: 'Parameter "orderBy" is given more than once.' }] });
    const ast = parse(query, { sortParam: 'sort' });
    expect(ast.ok && validate(ast.value, schema)).toEqual(viaCheck);
  });

  it('reads a sort parameter that the parse took for a filter under the caller\'s limits, as check does', () => {
    const query = `${base}&orderBy=totalAmount,-issueDate,vendorName`;
    const limits = { maxClauses: 2, maxDiagnostics: 1 };
    const viaCheck = check(query, schema, { limits });
    expect(viaCheck).toMatchObject({ ok: false, errors: [{ code: 'LIMIT_EXCEEDED', param: 'orderBy', message: 'Parameter "orderBy" has more than 2 sort keys.' }] });
    // One clause to parse (its commas are text there): within parse's limits, past the sort's.
    const ast = parse(query, { sortParam: 'sort', limits });
    expect(ast.ok && validate(ast.value, schema, { limits })).toEqual(viaCheck);
    expect(ast.ok && validate(ast.value, schema)).toMatchObject({ ok: true });
  });

  it('leaves alone a request parameter named orderBy, in a schema that sorts with another', () => {
    const own = defineSchema({ fields: { a: { type: 'number', sortable: true } }, params: { orderBy: 'number' }, sortParam: 'sort' });
    const value = { type: 'Filter', conditions: [], params: { orderBy: '5', sort: 'a' }, sort: [{ key: 'a', path: ['a'], direction: 'asc', type: 'number' }] };
    expect(check('orderBy=5&sort=a', own)).toEqual({ ok: true, value });
    // parse knowing the parameter passes it through; not knowing it, it reads a sort, which validate gives back.
    const known = parse('orderBy=5&sort=a', { params: [...own.params], sortParam: 'sort' });
    expect(known.ok && known.value.params).toEqual({ orderBy: '5', sort: 'a' });
    expect(known.ok && validate(known.value, own)).toEqual({ ok: true, value });
    expect(parse('orderBy=-x y', { params: ['orderBy'] })).toMatchObject({ ok: true, value: { params: { orderBy: '-x y' } } });
    // Only the default gives way: a sort parameter named by the caller, or by the schema, sorts.
    expect(parse('orderBy=-x', { params: ['orderBy'], sortParam: 'orderBy' })).toMatchObject({ ok: true, value: { sort: { key: 'orderBy' } } });
    expect(check(`${base}&orderBy=-totalAmount`, schema, { params: ['orderBy'] })).toMatchObject({ ok: true, value: { sort: [{ key: 'totalAmount', direction: 'desc' }] } });
    const unaware = parse('orderBy=a&sort=a');
    expect(unaware.ok && validate(unaware.value, own)).toMatchObject({ ok: false, errors: [{ code: 'INVALID_NUMBER', param: 'orderBy' }] });
  });
});

describe('UNKNOWN_FIELD in a sort', () => {
  it.each<DiagnosticRow>([
    sortRow('-totalAmout', 'totalAmout', /^Did you mean totalAmount\?$/),
    sortRow('issueDate,vendorname', 'vendorname', /^Did you mean vendorName\?$/),
    sortRow('nothing', 'nothing', SORTABLE),
    sortRow('customerRef.name', 'customerRef.name', /^Did you mean customerRef\.id\?$/),
  ])('$query', (row) => {
    expect(expectDiagnostic('UNKNOWN_FIELD', row).message).toMatch(/sorts by ".*", which is not a field of this resource\.$/);
  });
});

// Found by test/diagnostics/bounds.test.ts: after a key that parses, an empty last key
// (or one of junk, then a comma) made Chevrotain's recovery insert a name, whose node was
// taken for the first key's and checked against the schema with a span of -1.
describe('a sort whose parse recovered a key it made up', () => {
  it.each([
    ['vendorName,,', [['INVALID_SORT', 11, 11], ['INVALID_SORT', 12, 12]]],
    ['nothing,,', [['INVALID_SORT', 8, 8], ['INVALID_SORT', 9, 9], ['UNKNOWN_FIELD', 0, 7]]],
    ['-nothing,b c,', [['INVALID_SORT', 10, 11], ['INVALID_SORT', 13, 13], ['UNKNOWN_FIELD', 1, 8]]],
    ['nothing,000,', [['INVALID_SORT', 8, 11], ['INVALID_SORT', 12, 12], ['UNKNOWN_FIELD', 0, 7]]],
  ] as const)('%s: each key once, every span in the value', (value, expected) => {
    const result = check(`${base}&orderBy=${encodeURIComponent(value)}`, schema);
    expect(result.ok).toBe(false);
    const found = result.ok ? [] : result.errors.map((d) => [d.code, d.span?.start, d.span?.end]);
    expect(found).toEqual(expected);
  });
});

describe('NOT_SORTABLE', () => {
  it.each<DiagnosticRow>([
    sortRow('memo', 'memo', SORTABLE),
    sortRow('-vendorRef.id', 'vendorRef.id', SORTABLE),
    sortRow('lines.amount', 'lines.amount', /^A field of the list "lines" has many values for one item, so nothing sorts by it\. Sortable fields: /),
    sortRow('lines', 'lines', /^A list has many values for one item/),
    sortRow('customerRef', 'customerRef', /^Sort by its id: customerRef\.id\.$/),
    sortRow('vendorRef', 'vendorRef', /^An object sorts only by its id, and this one does not sort\. Sortable fields: /),
  ])('$query', (row) => {
    expect(expectDiagnostic('NOT_SORTABLE', row).message).toMatch(/which this resource cannot sort by\.$/);
  });

  it('says so when nothing sorts', () => {
    const plain = defineSchema({ fields: { a: 'number' } });
    expectDiagnostic('NOT_SORTABLE', { query: 'orderBy=a', schema: plain, param: 'orderBy', in: 'value', span: [0, 1], spanned: 'a', hint: /^This resource cannot be sorted\.$/ });
  });
});

describe('FIELD_REMOVED in a sort', () => {
  it('gives the removed field\'s own hint', () => {
    expectDiagnostic('FIELD_REMOVED', sortRow('docNumber', 'docNumber', /^Filter and sort on invoiceNumber\.$/));
  });
});

describe('INVALID_SORT', () => {
  it.each<DiagnosticRow>([
    { ...sortRow('', '', /^Give the fields to sort by, joined by ",": orderBy=-issueDate,totalAmount sorts by issueDate descending, then by totalAmount; no sign sorts ascending\.$/) },
    sortRow('totalAmount,', '', /^Join sort keys with one ",", with none at the start or the end\.$/, 12),
    sortRow('--totalAmount', '--totalAmount', /^One "-" sorts descending \(orderBy=-totalAmount\); no sign sorts ascending\.$/),
    { ...sortRow(' totalAmount', ' totalAmount', /^A "\+" sent unencoded arrives as a space, and no sign is needed: orderBy=totalAmount sorts ascending/), query: `${base}&orderBy=+totalAmount` },
    sortRow('totalAmount desc', 'totalAmount desc', /^The direction is a sign, not a word: write orderBy=-totalAmount/),
    sortRow('issueDate:ASC', 'issueDate:ASC', /^The direction is a sign, not a word: write orderBy=issueDate /),
    sortRow('total-amount', '-', /^Only a leading "-" means descending\./),
    sortRow('issueDate,-totalAmount,issueDate', 'issueDate', /^Name each field once: the first key decides the order/, 1),
  ])('$query', (row) => {
    expectDiagnostic('INVALID_SORT', row);
  });

  it('holds the well-formed keys of a sort with a bad key against the schema too: every problem at once', () => {
    const errors = rejected(`${base}&orderBy=+totalAmount,memo,issueDat,-constructor`, schema);
    expect(errors.map((d) => [d.code, d.text?.slice(d.span!.start, d.span!.end)])).toEqual([
      ['INVALID_SORT', ' totalAmount'],
      ['INVALID_PATH', 'constructor'],
      ['NOT_SORTABLE', 'memo'],
      ['UNKNOWN_FIELD', 'issueDat'],
    ]);
  });

  // The examples name the schema's own fields: a long one is cut as any name in a hint is
  // (reference §12), in the example and in what it says the example means.
  it('cuts a long sortable path in its example at 64 characters', () => {
    const long = defineSchema({ fields: { [`d${'a'.repeat(199)}`]: { type: 'date', sortable: true }, [`n${'b'.repeat(99)}`]: { type: 'number', sortable: true } } });
    for (const query of ['orderBy=', 'orderBy=x&orderBy=y']) {
      const hint = rejected(query, long).find((d) => d.code === 'INVALID_SORT')!.hint!;
      expect(hint).toContain(`by d${'a'.repeat(63)}… descending, then by n${'b'.repeat(63)}…`);
      expect(hint).not.toMatch(/[ab]{65}/);
    }
  });

  it('refuses a second sort parameter', () => {
    expect(rejected(`${base}&orderBy=issueDate&orderBy=totalAmount`, schema).map((d) => [d.code, d.param, d.text])).toEqual([
      ['INVALID_SORT', 'orderBy', 'totalAmount'],
    ]);
  });
});

describe('paging', () => {
  it('applies the defaults, and keeps limit and offset as sent with the params', () => {
    expect(accepted(base, schema).page).toEqual({ limit: 50, offset: 0 });
    const filter = accepted(`${base}&limit=200&offset=40`, schema);
    expect(filter.page).toEqual({ limit: 200, offset: 40 });
    expect(filter.params).toEqual({ businessName: 'Acme', limit: '200', offset: '40' });
  });

  it('is absent from the filter of a schema without paging', () => {
    const plain = defineSchema({ fields: {}, params: ['limit'] });
    expect(accepted('limit=abc', plain)).toEqual({ type: 'Filter', conditions: [], params: { limit: 'abc' }, sort: [] });
  });

  const limitRow = (value: string, hint: RegExp): DiagnosticRow => ({
    query: `${base}&limit=${value}`,
    schema,
    param: 'limit',
    in: 'value',
    span: [0, decodeURIComponent(value.replaceAll('+', ' ')).length],
    spanned: decodeURIComponent(value.replaceAll('+', ' ')),
    hint,
  });
  const PAGE = /^A page holds at most 200 items \(50 when limit is not sent\); ask for the next page with offset\.$/;

  it.each<DiagnosticRow>([
    limitRow('0', PAGE),
    limitRow('201', PAGE),
    limitRow('-1', PAGE),
    limitRow('10.5', PAGE),
    limitRow('1e2', PAGE),
    limitRow('010', PAGE),
    limitRow('', PAGE),
    limitRow('ten', PAGE),
    limitRow('+10', /^A "\+" sent unencoded arrives as a space, and the number needs none: limit=10\. A page holds/),
    limitRow('99999999999999999999', PAGE),
    {
      query: `${base}&offset=-5`,
      schema,
      param: 'offset',
      in: 'value',
      span: [0, 2],
      spanned: '-5',
      hint: /^offset counts the matching items to skip: 0 for the first page, then add limit for each next one\.$/,
    },
    { query: `${base}&offset=9007199254740992`, schema, param: 'offset', in: 'value', span: [0, 16], spanned: '9007199254740992', hint: /^offset counts/ },
  ])('INVALID_PAGING: $query', (row) => {
    expect(expectDiagnostic('INVALID_PAGING', row).message).toMatch(/^Parameter "(limit|offset)" must be a whole number (from 1 to 200|0 or more|from 0 to 9007199254740991), not ".*"\.$/);
  });

  it('says how large an offset may be when it is a whole number past 2^53 - 1, not only "0 or more"', () => {
    expect(rejected(`${base}&offset=9007199254740992`, schema).map((d) => d.message)).toEqual([
      'Parameter "offset" must be a whole number from 0 to 9007199254740991, not "9007199254740992".',
    ]);
    expect(rejected(`${base}&offset=-1`, schema).map((d) => d.message)).toEqual(['Parameter "offset" must be a whole number 0 or more, not "-1".']);
  });

  it('refuses a repeated limit or offset', () => {
    expect(rejected(`${base}&limit=10&limit=20&offset=1&offset=1`, schema).map((d) => [d.code, d.param, d.message])).toEqual([
      ['INVALID_PAGING', 'limit', 'Parameter "limit" is given 2 times; it takes one value.'],
      ['INVALID_PAGING', 'offset', 'Parameter "offset" is given 2 times; it takes one value.'],
    ]);
  });
});

describe('request parameters', () => {
  it('passes typed values through as sent, once checked', () => {
    expect(accepted(`${base}&startDate=2023-01-09&minTotal=1.50`, schema).params).toEqual({ businessName: 'Acme', startDate: '2023-01-09', minTotal: '1.50' });
  });

  it('takes a string as plain text: no operators, no wildcards, no escapes', () => {
    expect(accepted('businessName=gte:%25%5C%22', schema).params).toEqual({ businessName: 'gte:%\\"' });
  });

  it('MISSING_PARAMETER: a required parameter that is not sent', () => {
    const [d, ...rest] = rejected('totalAmount=5', schema);
    expect(rest).toEqual([]);
    expect(d).toEqual({
      code: 'MISSING_PARAMETER',
      message: 'Parameter "businessName" is required by this resource.',
      param: 'businessName',
      in: 'key',
      text: 'businessName',
      hint: 'Send businessName=… with the request.',
    });
    const dated = defineSchema({ fields: {}, params: { startDate: { type: 'date', required: true } } });
    expect(rejected('', dated)[0]?.hint).toBe('Send startDate=2023-01-01 (a date) with the request.');
  });

  it('comes after every other problem of the query (reference §6)', () => {
    expect(rejected('totalAmount=x&limit=0', schema).map((d) => d.code)).toEqual(['INVALID_NUMBER', 'INVALID_PAGING', 'MISSING_PARAMETER']);
    expect(rejected('limit=0&startDate=2023-13-01&totalAmount=x', schema).map((d) => d.code)).toEqual(['INVALID_NUMBER', 'INVALID_DATE', 'INVALID_PAGING', 'MISSING_PARAMETER']);
  });

  const paramRow = (param: string, value: string, hint: RegExp): DiagnosticRow => ({
    query: `${base}&${param}=${encodeURIComponent(value)}`,
    schema,
    param,
    in: 'value',
    span: [0, value.length],
    spanned: value,
    hint,
  });

  it.each<[string, DiagnosticRow]>([
    ['INVALID_DATE', paramRow('startDate', '2023-13-01', /^Use a real calendar date/)],
    ['INVALID_DATE', paramRow('startDate', '2023-01-09T10:00:00', /^End the date-time with Z \(UTC\) or an offset/)],
    ['INVALID_DATE', paramRow('startDate', 'gte:2023-01-01', /^startDate is a request parameter: it takes a plain value, with no operator \(startDate=2023-01-01\)\.$/)],
    ['INVALID_NUMBER', paramRow('minTotal', 'gt:5', /^minTotal is a request parameter: it takes a plain value, with no operator \(minTotal=5\)\.$/)],
    ['INVALID_NUMBER', paramRow('minTotal', '5%', /^Write a number such as 100/)],
    ['INVALID_NUMBER', paramRow('minTotal', '1|2', /no OR/)],
    ['INVALID_NUMBER', paramRow('minTotal', '1,000', /^Write a number without thousands separators: 1000\.$/)],
  ])('%s', (code, row) => {
    expectDiagnostic(code as 'INVALID_DATE', row);
  });

  it('refuses a repeated typed parameter, and keeps repeats of the list form', () => {
    expect(rejected('businessName=a&businessName=b', schema).map((d) => [d.code, d.message])).toEqual([
      ['INVALID_PARAMETER', 'Parameter "businessName" is given 2 times; it takes one value.'],
    ]);
    const listed = defineSchema({ fields: {}, params: ['tag'] });
    expect(accepted('tag=a&tag=b', listed).params).toEqual({ tag: ['a', 'b'] });
  });
});

describe('hints that list what a large schema offers', () => {
  // 1,000 fields, each name 80 characters: listing them all put 80 KB in every hint.
  const names = Array.from({ length: 1000 }, (_, i) => `f${String(i).padStart(3, '0')}_${'x'.repeat(75)}`);
  const large = defineSchema({ fields: { ...Object.fromEntries(names.map((n) => [n, { type: 'number', sortable: true }])), memo: 'string' } });
  const shown = (more: number): string => `${names.slice(0, 32).map((n) => `${n.slice(0, 64)}…`).join(', ')} and ${more} more`;

  it('NOT_SORTABLE and UNKNOWN_FIELD in orderBy list 32 of the sortable fields, each cut at 64 characters, and count the rest', () => {
    const errors = rejected('orderBy=zzz,memo', large);
    expect(errors.map((d) => [d.code, d.hint])).toEqual([
      ['UNKNOWN_FIELD', `Sortable fields: ${shown(968)}.`],
      ['NOT_SORTABLE', expect.stringContaining(`Sortable fields: ${shown(968)}.`)],
    ]);
  });

  it('UNKNOWN_FIELD of a filter lists 32 of the filterable fields, and counts the rest', () => {
    const [error] = rejected('zzz=1', large);
    // memo is filterable too: 1,001 fields.
    expect(error?.hint).toBe(`Filterable fields: ${shown(969)}.`);
  });
});
