import { describe, expect, it } from 'vitest';
import { explain, explainOrder } from '../../src/cli/explain';
import { check, defineSchema, type Schema } from '../../src/index';

const schema = defineSchema({
  fields: {
    amount: 'number',
    name: 'string',
    at: 'date',
    customerRef: { type: 'ref' },
    lines: { type: 'array', of: { amount: 'number', description: 'string' } },
    entries: { type: 'array', of: { x: 'number' } },
    addresses: { type: 'array', of: { x: 'number' } },
    cases: { type: 'array', of: { x: 'number' } },
    data: { type: 'array', of: { x: 'number' } },
  },
  params: ['limit'],
});

function sentences(query: string, against: Schema = schema): string[] {
  const result = check(query, against);
  if (!result.ok) throw new Error(`test query ${query} is invalid: ${JSON.stringify(result.errors)}`);
  return explain(result.value);
}

describe('explain', () => {
  it.each([
    ['amount=100', 'amount is 100'],
    ['amount=gt:100', 'amount is greater than 100'],
    ['amount=gte:100', 'amount is at least 100'],
    ['amount=lt:100', 'amount is less than 100'],
    ['amount=lte:100', 'amount is at most 100'],
    ['amount=gte:100;lte:200', 'amount is at least 100 and at most 200'],
    ['amount=gt:-1;lt:1e3', 'amount is greater than -1 and less than 1000'],
    ['amount=-2.5e3', 'amount is -2500'],
  ])('numbers: %s', (query, sentence) => {
    expect(sentences(query)).toEqual([sentence]);
  });

  it.each([
    ['name=Acme', 'name is "Acme"'],
    ['name=%22%22', 'name is ""'],
    ['name=%25acme%25', 'name contains "acme"'],
    ['name=acme%25', 'name starts with "acme"'],
    ['name=%25acme', 'name ends with "acme"'],
    ['name=%25%25acme%25', 'name contains "acme"'],
    ['name=%25', 'name is any text'],
    ['name=a%25b', 'name matches "a" + any text + "b"'],
    ['name=%25a%25%25b', 'name matches any text + "a" + any text + "b"'],
    ['name=100%5C%25', 'name is "100%"'],
    ['name=%25100%5C%25%25', 'name contains "100%"'],
    ['name=%25acme%25;%25sons%25', 'name contains "acme" and contains "sons"'],
    ['name=%22gte:%22', 'name is "gte:"'],
    ['name=a%0Ab', 'name is "a\\nb"'],
    // What JSON.stringify leaves raw: DEL, a C1 CSI, a bidi override, a line separator.
    ['name=a%7F%C2%9B31m%E2%80%AEb%E2%80%A8', 'name is "a\\u007f\\u009b31m\\u202eb\\u2028"'],
    ['name=%25%C2%9B%25%E2%80%AE%25', 'name matches any text + "\\u009b" + any text + "\\u202e" + any text'],
    ['customerRef.id=42', 'customerRef.id is "42"'],
    ['customerRef.id=4%25', 'customerRef.id starts with "4"'],
  ])('text and ids: %s', (query, sentence) => {
    expect(sentences(query)).toEqual([sentence]);
  });

  it.each([
    ['at=2023-01-09', 'at is on 2023-01-09 (UTC)'],
    ['at=gt:2023-01-09', 'at is after 2023-01-09 (UTC)'],
    ['at=gte:2023-01-09', 'at is on or after 2023-01-09 (UTC)'],
    ['at=lt:2023-01-09', 'at is before 2023-01-09 (UTC)'],
    ['at=lte:2023-01-09', 'at is on or before 2023-01-09 (UTC)'],
    ['at=gte:2023-01-01;lt:2023-02-01', 'at is on or after 2023-01-01 and before 2023-02-01 (UTC)'],
    // An instant is shown in UTC, whatever offset it was written with.
    ['at=2023-01-09T10:00:00%2B01:00', 'at is at 2023-01-09T09:00:00.000Z'],
    ['at=gt:2023-01-09T10:00Z', 'at is after 2023-01-09T10:00:00.000Z'],
    ['at=gte:2023-01-09T10:00Z', 'at is at or after 2023-01-09T10:00:00.000Z'],
    ['at=lt:2023-01-09T10:00:00.1234Z', 'at is before 2023-01-09T10:00:00.123Z'],
    ['at=lte:2023-01-09T10:00Z', 'at is at or before 2023-01-09T10:00:00.000Z'],
    ['at=gte:2023-01-09;lt:2023-01-09T12:00Z', 'at is on or after 2023-01-09 and before 2023-01-09T12:00:00.000Z (UTC)'],
  ])('dates: %s', (query, sentence) => {
    expect(sentences(query)).toEqual([sentence]);
  });

  it('says that the clauses of one child-array parameter hold for the same element', () => {
    expect(sentences('lines.amount=gte:10;lte:20')).toEqual(['in some line, amount is at least 10 and at most 20']);
  });

  it('gives separate child-array parameters separate sentences: they may hold for different elements', () => {
    expect(sentences('lines.amount=gt:10&lines.description=Consulting%20fee')).toEqual([
      'in some line, amount is greater than 10',
      'in some line, description is "Consulting fee"',
    ]);
  });

  it.each([
    ['entries.x=1', 'in some entry, x is 1'],
    ['addresses.x=1', 'in some address, x is 1'],
    ['cases.x=1', 'in some element of cases, x is 1'],
    ['data.x=1', 'in some element of data, x is 1'],
  ])('names an element of an array by its singular where that is plain: %s', (query, sentence) => {
    expect(sentences(query)).toEqual([sentence]);
  });

  it('has one sentence per filter parameter, in query order, and none for pass-through parameters', () => {
    expect(sentences('limit=5&name=x&amount=1')).toEqual(['name is "x"', 'amount is 1']);
    expect(sentences('limit=5')).toEqual([]);
    expect(sentences('')).toEqual([]);
  });
});

describe('explainOrder', () => {
  const sorted = defineSchema({
    fields: {
      amount: { type: 'number', sortable: true },
      at: { type: 'date', sortable: true },
      name: { type: 'string', sortable: true },
      customerRef: { type: 'ref', sortable: true },
    },
    paging: {},
  });
  const order = (query: string): string[] => {
    const result = check(query, sorted);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    return explainOrder(result.value);
  };

  it('says each key with its direction in words, missing values last, and the page', () => {
    expect(order('orderBy=-at,amount&limit=50&offset=100')).toEqual([
      'Sorted by at, newest first, then by amount, smallest first; items without a value come last.',
      'Page: 50 items from offset 100 (matches 101 to 150).',
    ]);
    expect(order('orderBy=-amount,at,name,-customerRef.id&limit=1')).toEqual([
      'Sorted by amount, largest first, then by at, oldest first, then by name, in code point order, then by customerRef.id, in reverse code point order; items without a value come last.',
      'Page: 1 item from offset 0 (matches 1 to 1).',
    ]);
  });

  it('counts the matches of the last page there can be exactly', () => {
    // 9007199254740991 + 500 is no double: it came out as …1492.
    expect(order('limit=200&offset=9007199254740991')).toEqual(['Page: 200 items from offset 9007199254740991 (matches 9007199254740992 to 9007199254741191).']);
  });

  it('says nothing for a filter that neither sorts nor pages', () => {
    const result = check('amount=1', schema);
    expect(result.ok && explainOrder(result.value)).toEqual([]);
  });
});

describe('a cursor page', () => {
  it('says the page comes after the cursor, not from an offset', async () => {
    const { nextCursor } = await import('../../src/index');
    const paged = defineSchema({ fields: { id: { type: 'string', sortable: true } }, paging: { defaultLimit: 2, cursor: { key: 'id' } } });
    const first = check('', paged);
    if (!first.ok) throw new Error('invalid');
    const next = check(`after=${nextCursor(first.value, { id: 'b' })}`, paged);
    if (!next.ok) throw new Error('invalid');
    expect(explainOrder(next.value)).toEqual(['Sorted by id, in code point order; items without a value come last.', 'Page: 2 items after the cursor, in this order.']);
  });
});
