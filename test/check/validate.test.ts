import { describe, expect, it } from 'vitest';
import { check, defineSchema, parse, validate, type FilterAst } from '../../src/index';
import { accepted, rejected, specInvoices } from './support';

function parsed(query: string): FilterAst {
  const result = parse(query);
  if (!result.ok) expect.fail(JSON.stringify(result.errors));
  return result.value;
}

const day = (iso: string) => ({ start: Date.parse(`${iso}T00:00:00Z`), end: Date.parse(`${iso}T00:00:00Z`) + 86_400_000, unit: 'day' });

describe('validate: converted operands', () => {
  it('numbers become numbers, each clause a test of one condition', () => {
    expect(accepted('totalAmount=gte:100;lte:200.5').conditions).toEqual([
      {
        type: 'number',
        key: 'totalAmount',
        field: 'totalAmount',
        path: ['totalAmount'],
        tests: [
          { op: 'gte', value: 100 },
          { op: 'lte', value: 200.5 },
        ],
      },
    ]);
  });

  it('dates become UTC intervals: a day, or one millisecond', () => {
    const start = Date.parse('2023-01-09T09:00:00Z');
    expect(accepted('issueDate=gt:2023-01-09;lt:2023-01-09T10:00:00%2B01:00').conditions[0]).toEqual({
      type: 'date',
      key: 'issueDate',
      field: 'issueDate',
      path: ['issueDate'],
      tests: [
        { op: 'gt', value: day('2023-01-09') },
        { op: 'lt', value: { start, end: start + 1, unit: 'instant' } },
      ],
    });
  });

  it.each([
    ['vendorName=acme', { op: 'eq', value: 'acme' }],
    ['vendorName=%25acme%25', { op: 'like', segments: ['', 'acme', ''] }],
    ['vendorName=acme%25', { op: 'like', segments: ['acme', ''] }],
    ['vendorName=%25acme', { op: 'like', segments: ['', 'acme'] }],
    ['vendorName=a\\%25b', { op: 'eq', value: 'a%b' }],
    ['vendorName=""', { op: 'eq', value: '' }],
    ['vendorName="gte:"', { op: 'eq', value: 'gte:' }],
    ['vendorName=gte', { op: 'eq', value: 'gte' }],
    ['vendorName=A%26B\\%3BC', { op: 'eq', value: 'A&B;C' }],
  ])('text: %s', (query, test) => {
    expect(accepted(query).conditions[0]).toEqual({ type: 'string', key: 'vendorName', field: 'vendorName', path: ['vendorName'], tests: [test] });
  });

  it('a ";" sent as %3B still separates clauses: decoding comes first (reference §2)', () => {
    expect(accepted('vendorName=A%26B%3BC').conditions[0]!.tests).toEqual([
      { op: 'eq', value: 'A&B' },
      { op: 'eq', value: 'C' },
    ]);
  });

  it('a ref id is text: a number-looking id stays the text sent', () => {
    expect(accepted('customerRef.id=042').conditions).toEqual([
      { type: 'id', key: 'customerRef.id', field: 'customerRef.id', path: ['customerRef', 'id'], tests: [{ op: 'eq', value: '042' }] },
    ]);
    expect(accepted('customerRef.id=4%252').conditions[0]!.tests).toEqual([{ op: 'like', segments: ['4', '2'] }]);
  });

  it('a child field names its array, and the path within each element', () => {
    expect(accepted('lines.description=Consulting%20fee&lines.amount=gte:10;lte:20').conditions).toEqual([
      {
        type: 'string',
        key: 'lines.description',
        field: 'lines.description',
        array: 'lines',
        path: ['description'],
        tests: [{ op: 'eq', value: 'Consulting fee' }],
      },
      {
        type: 'number',
        key: 'lines.amount',
        field: 'lines.amount',
        array: 'lines',
        path: ['amount'],
        tests: [
          { op: 'gte', value: 10 },
          { op: 'lte', value: 20 },
        ],
      },
    ]);
  });

  it('keeps every occurrence of a repeated parameter, in order', () => {
    const filter = accepted('totalAmount=gte:1&vendorName=a&totalAmount=lte:5');
    expect(filter.conditions.map((c) => [c.key, c.tests])).toEqual([
      ['totalAmount', [{ op: 'gte', value: 1 }]],
      ['vendorName', [{ op: 'eq', value: 'a' }]],
      ['totalAmount', [{ op: 'lte', value: 5 }]],
    ]);
  });

  it('a query without filters is valid and has no conditions', () => {
    for (const query of ['', '?', '&&', 'businessName=Acme']) expect(accepted(query).conditions).toEqual([]);
  });
});

describe('pass-through params', () => {
  it('are passed through untouched and are not filters', () => {
    const filter = accepted('businessName=A%26B%3B%25&reportFrequency=month&serviceName=gt:&totalAmount=5');
    expect(filter.params).toEqual({ businessName: 'A&B;%', reportFrequency: 'month', serviceName: 'gt:' });
    expect(filter.conditions.map((c) => c.key)).toEqual(['totalAmount']);
  });

  it('a repeated key is an array', () => {
    expect(accepted('businessName=Acme&serviceName=qb&businessName=Beta&businessName=').params).toEqual({
      businessName: ['Acme', 'Beta', ''],
      serviceName: 'qb',
    });
  });

  it('check takes more of them in its options', () => {
    expect(check('page=2&totalAmount=1', specInvoices, { params: ['page'] })).toMatchObject({ ok: true, value: { params: { page: '2' } } });
    expect(rejected('page=2').map((e) => e.code)).toEqual(['UNKNOWN_FIELD']);
  });
});

describe('validate on an AST parsed without knowing the params', () => {
  it('gives a pass-through key its value as sent back, escapes and all', () => {
    const result = validate(parsed('businessName=a\\%25b&totalAmount=5&businessName=gte:c'), specInvoices);
    expect(result).toMatchObject({ ok: true, value: { params: { businessName: ['a\\%b', 'gte:c'] } } });
    expect(result.ok && result.value.conditions.map((c) => c.key)).toEqual(['totalAmount']);
  });

  it('takes more pass-through keys in its options, as check does', () => {
    expect(validate(parsed('page=2&page=3'), specInvoices, { params: ['page'] })).toEqual({
      ok: true,
      value: { type: 'Filter', conditions: [], params: { page: ['2', '3'] }, sort: [] },
    });
    expect(validate(parsed('page=2'), specInvoices)).toMatchObject({ ok: false, errors: [{ code: 'UNKNOWN_FIELD', param: 'page' }] });
  });

  it('reads only own properties of the params: a key named like an Object method is just a key', () => {
    const schema = defineSchema({ fields: { a: 'number' }, params: ['toString', 'valueOf', 'hasOwnProperty'] });
    expect(validate(parsed('toString=1&toString=2&valueOf=3&hasOwnProperty=4'), schema)).toEqual({
      ok: true,
      value: { type: 'Filter', conditions: [], params: { toString: ['1', '2'], valueOf: '3', hasOwnProperty: '4' }, sort: [] },
    });
  });

  it('merges them with the params the parser already knew', () => {
    const ast = parse('serviceName=qb&businessName=a&businessName=b', { params: ['businessName'] });
    expect(ast.ok && validate(ast.value, specInvoices)).toMatchObject({
      ok: true,
      value: { params: { businessName: ['a', 'b'], serviceName: 'qb' } },
    });
  });

  it('does not change the AST it is given', () => {
    const ast = parsed('businessName=a&totalAmount=1');
    const copy = structuredClone(ast);
    validate(ast, specInvoices);
    expect(ast).toEqual(copy);
  });
});

describe('check reports every problem of a query at once (reference §6)', () => {
  it('syntax problems of some parameters and validation problems of others, in query order', () => {
    const errors = rejected('totalAmount=1;;2&vendorName=gt:a&issueDate="2023&totalAmout=5&memo=x');
    expect(errors.map((e) => [e.code, e.param])).toEqual([
      ['EMPTY_CLAUSE', 'totalAmount'],
      ['OPERATOR_NOT_SUPPORTED', 'vendorName'],
      ['UNTERMINATED_QUOTE', 'issueDate'],
      ['UNKNOWN_FIELD', 'totalAmout'],
      ['FIELD_REMOVED', 'memo'],
    ]);
  });

  it('a parameter with a syntax problem gets no validation problem of its value: it has no meaning to check', () => {
    expect(rejected('totalAmount=x;;2').map((e) => e.code)).toEqual(['EMPTY_CLAUSE']);
  });

  // Issue 14, item 13: nosuchfield=%acme% used to report only MALFORMED_ENCODING.
  it.each([
    ['a syntax problem', 'totalAmout=1;;2', ['UNKNOWN_FIELD', 'EMPTY_CLAUSE']],
    ['an encoding problem', 'nosuchfield=%acme%', ['UNKNOWN_FIELD', 'MALFORMED_ENCODING']],
    ['a limit of its value', `totalAmout=${'1;'.repeat(20)}1`, ['UNKNOWN_FIELD', 'LIMIT_EXCEEDED']],
    ['a bare list', 'lines=%acme%', ['INVALID_PATH', 'MALFORMED_ENCODING']],
    ['a removed field', 'memo="open', ['FIELD_REMOVED', 'UNTERMINATED_QUOTE']],
    ['a key that is not a path', 'a-b=%zz', ['INVALID_PATH', 'MALFORMED_ENCODING']],
    ['a reserved name', '__proto__=1;;2', ['INVALID_PATH', 'EMPTY_CLAUSE']],
  ])('the key of a parameter with %s is checked all the same, and first', (_, query, codes) => {
    expect(rejected(query).map((e) => e.code)).toEqual(codes);
  });

  it('the key of a pass-through parameter with a problem is not taken for an unknown field', () => {
    expect(rejected('businessName=%acme%').map((e) => e.code)).toEqual(['MALFORMED_ENCODING']);
    // Nor is one that check's options add.
    const result = check('page=%acme%', specInvoices, { params: ['page'] });
    expect(!result.ok && result.errors.map((e) => [e.code, e.param])).toEqual([['MALFORMED_ENCODING', 'page']]);
  });

  it('encoding problems and record values that are not text come in query order too', () => {
    expect(rejected('vendorName=gt:a&memo=%acme%&totalAmount=x').map((e) => [e.code, e.param])).toEqual([
      ['OPERATOR_NOT_SUPPORTED', 'vendorName'],
      ['FIELD_REMOVED', 'memo'],
      ['MALFORMED_ENCODING', 'memo'],
      ['INVALID_NUMBER', 'totalAmount'],
    ]);
    expect(rejected({ totalAmount: 'x', lines: { description: 'a' } } as never).map((e) => e.code)).toEqual([
      'INVALID_NUMBER',
      'INVALID_PATH',
      'INVALID_PARAMETER',
    ]);
  });

  it('past a limit on the whole query nothing else is done (reference §7)', () => {
    const result = check(`vendorName=gt:a&${'x=1&'.repeat(70)}`, specInvoices);
    expect(result.ok === false && result.errors.map((e) => e.code)).toEqual(['LIMIT_EXCEEDED']);
  });

  it('past a limit on one parameter, that parameter is not validated, but the others are', () => {
    const result = check(`vendorName=gt:a&totalAmount=${'1;'.repeat(20)}1`, specInvoices);
    expect(result.ok === false && result.errors.map((e) => [e.code, e.param])).toEqual([
      ['OPERATOR_NOT_SUPPORTED', 'vendorName'],
      ['LIMIT_EXCEEDED', 'totalAmount'],
    ]);
  });
});
