import { afterEach, describe, expect, it } from 'vitest';
import { check, compile, defineSchema, type CompileOptions } from '../../src/index';

/** One schema with a field of every kind, so each rule of SPEC §5 reads as one table. */
const schema = defineSchema({
  fields: {
    amount: 'number',
    name: 'string',
    day: 'date',
    customerRef: { type: 'ref' },
    lines: { type: 'array', of: { amount: 'number', description: 'string', itemRef: { type: 'ref' } } },
  },
});

function predicate(query: string, options?: CompileOptions): (item: unknown) => boolean {
  const result = check(query, schema);
  if (!result.ok) throw new Error(`${query}: ${JSON.stringify(result.errors)}`);
  return compile(result.value, options);
}

/** Rows of [what, item, matches?]: each asserted against one query. */
type Row = [string, unknown, boolean];

function table(query: string, rows: Row[], options?: CompileOptions): void {
  const matches = predicate(query, options);
  it.each(rows)(`${query}: %s`, (_what, item, expected) => {
    expect(matches(item)).toBe(expected);
  });
}

describe('missing, null and mistyped values never match', () => {
  table('amount=lte:100', [
    ['a number in range', { amount: 5 }, true],
    ['the field missing', {}, false],
    ['null', { amount: null }, false],
    ['a boolean', { amount: true }, false],
    ['an object', { amount: { value: 5 } }, false],
    ['an array', { amount: [5] }, false],
  ]);
});

describe('numbers: from numbers, or strings in the number syntax of SPEC §4', () => {
  table('amount=200', [
    ['the number', { amount: 200 }, true],
    ['"200.00"', { amount: '200.00' }, true],
    ['"2e2"', { amount: '2e2' }, true],
    ['" 200" (a space)', { amount: ' 200' }, false],
    ['"0200" (leading zero)', { amount: '0200' }, false],
    ['"+200"', { amount: '+200' }, false],
    ['"200." ', { amount: '200.' }, false],
    ['199.99', { amount: 199.99 }, false],
  ]);
  table('amount=gt:0', [
    ['Infinity', { amount: Infinity }, false],
    ['"Infinity"', { amount: 'Infinity' }, false],
    ['NaN', { amount: NaN }, false],
    ['"1e400", not finite', { amount: '1e400' }, false],
    ['".5"', { amount: '.5' }, false],
    ['"0.5"', { amount: '0.5' }, true],
    ['5e-324', { amount: 5e-324 }, true],
  ]);
  table('amount=gte:10;lt:20', [
    ['at the closed end', { amount: 10 }, true],
    ['inside', { amount: 19.999 }, true],
    ['at the open end', { amount: 20 }, false],
    ['below', { amount: 9.99 }, false],
  ]);
  table('amount=0', [
    ['-0 equals 0', { amount: -0 }, true],
    ['"-0" too', { amount: '-0' }, true],
  ]);
});

describe('strings: exact and case-sensitive unless caseInsensitive', () => {
  table('name=Acme', [
    ['the same text', { name: 'Acme' }, true],
    ['another case', { name: 'ACME' }, false],
    ['with a trailing space', { name: 'Acme ' }, false],
    ['a number is not a string', { name: 5 }, false],
  ]);
  table(
    'name=Acme',
    [
      ['another case', { name: 'aCmE' }, true],
      ['another text', { name: 'Acne' }, false],
    ],
    { caseInsensitive: true },
  );
  table('name=%25ac%25', [
    ['contains', { name: 'Bac & co' }, true],
    ['only in another case', { name: 'BAC' }, false],
  ]);
  table('name=%25AC%25', [['contains, folded', { name: 'bac' }, true]], { caseInsensitive: true });
  table('name=%22%22', [
    ['the empty string', { name: '' }, true],
    ['any other', { name: ' ' }, false],
  ]);
  table('name=50\\%25', [
    ['a literal percent sign', { name: '50%' }, true],
    ['not a wildcard', { name: '500' }, false],
  ]);
});

describe('dates: a date-only literal is its whole UTC day, for every operator', () => {
  const before = '2023-01-08T23:59:59.999Z';
  const start = '2023-01-09T00:00:00.000Z';
  const last = '2023-01-09T23:59:59.999Z';
  const next = '2023-01-10T00:00:00.000Z';
  const rows = (eq: boolean[]): Row[] =>
    [before, start, last, next].map((t, i): Row => [t, { day: t }, eq[i]!]);
  describe('=', () => table('day=2023-01-09', rows([false, true, true, false])));
  describe('gt: starts the next day', () => table('day=gt:2023-01-09', rows([false, false, false, true])));
  describe('gte: at the day start', () => table('day=gte:2023-01-09', rows([false, true, true, true])));
  describe('lt: before the day', () => table('day=lt:2023-01-09', rows([true, false, false, false])));
  describe('lte: before the next day', () => table('day=lte:2023-01-09', rows([true, true, true, false])));
});

describe('dates: what data holds', () => {
  table('day=2023-01-09', [
    ['a Date', { day: new Date('2023-01-09T12:00:00Z') }, true],
    ['an invalid Date', { day: new Date(NaN) }, false],
    ['a date-only string, the instant its day starts', { day: '2023-01-09' }, true],
    ['an offset that lands on the day', { day: '2023-01-09T01:00:00+01:00' }, true],
    ['an offset that lands the day before', { day: '2023-01-09T00:30:00+01:00' }, false],
    ['nine fraction digits, truncated', { day: '2023-01-09T23:59:59.999999999Z' }, true],
    ['a date-time without an offset, read as UTC (the API returns them so)', { day: '2023-01-09T10:00' }, true],
    ['a date-time without an offset at the next day', { day: '2023-01-10T00:00:00' }, false],
    ['a date-time without an offset at the end of the day', { day: '2023-01-09T23:59:59.999' }, true],
    ['a date that does not exist', { day: '2023-02-30' }, false],
    ['epoch milliseconds, a number', { day: 1673222400000 }, false],
  ]);
  table('day=2023-01-09T10:00:00%2B01:00', [
    ['the same instant in UTC', { day: '2023-01-09T09:00:00Z' }, true],
    ['one millisecond later', { day: '2023-01-09T09:00:00.001Z' }, false],
  ]);
});

describe('ref ids compare as text', () => {
  table('customerRef.id=42', [
    ['the number 42', { customerRef: { id: 42 } }, true],
    ['the string "42"', { customerRef: { id: '42' } }, true],
    ['42.0 is the number 42', { customerRef: { id: 42.0 } }, true],
    ['"042"', { customerRef: { id: '042' } }, false],
    ['no id', { customerRef: {} }, false],
    ['a ref that is not an object', { customerRef: 42 }, false],
  ]);
  table('customerRef.id=4%25', [
    ['42', { customerRef: { id: 42 } }, true],
    ['42.5, not a safe integer, never an id', { customerRef: { id: 42.5 } }, false],
    ['2^53, beyond safe integers', { customerRef: { id: 2 ** 53 + 4 } }, false],
  ]);
});

describe('child arrays: one parameter, one element; separate parameters, separate elements', () => {
  const item = { lines: [{ amount: 5, description: 'Consulting fee' }, { amount: 15, description: 'Travel' }] };
  table('lines.amount=gte:10;lte:20', [
    ['an element in range', item, true],
    ['no single element in range', { lines: [{ amount: 5 }, { amount: 25 }] }, false],
    ['an empty array', { lines: [] }, false],
    ['no array', {}, false],
    ['an object instead of an array', { lines: { amount: 15 } }, false],
    ['a hole, then a match', { lines: [, { amount: 15 }] }, true], // eslint-disable-line no-sparse-arrays
  ]);
  table('lines.amount=gte:10&lines.description=%25fee', [
    ['two elements, one for each parameter', item, true],
  ]);
  table('lines.itemRef.id=7', [['a ref inside an element', { lines: [{ itemRef: { id: 7 } }] }, true]]);
});

describe('filters with no conditions, and contradictions', () => {
  it('matches everything with no conditions', () => {
    const all = predicate('');
    for (const item of [{}, null, 5, { amount: 1 }]) expect(all(item)).toBe(true);
  });
  table('amount=gt:5;lt:5', [['nothing', { amount: 5 }, false]]);
  table('amount=gte:5;lte:5', [['exactly 5', { amount: 5 }, true]]);
  table('name=a;b', [['two different equalities: nothing', { name: 'a' }, false]]);
  table('day=gt:2023-01-09;lt:2023-01-10', [['the empty gap between two days', { day: '2023-01-10T00:00:00Z' }, false]]);
});

describe('only own properties, at every step', () => {
  afterEach(() => {
    delete (Object.prototype as Record<string, unknown>).amount;
    delete (Array.prototype as unknown as Record<number, unknown>)[0];
  });

  it('ignores inherited values, on the item and inside refs', () => {
    expect(predicate('amount=5')(Object.create({ amount: 5 }))).toBe(false);
    expect(predicate('customerRef.id=1')({ customerRef: Object.create({ id: 1 }) })).toBe(false);
  });

  it('ignores a polluted Object.prototype', () => {
    const matches = predicate('amount=5');
    (Object.prototype as Record<string, unknown>).amount = 5;
    expect(matches({})).toBe(false);
  });

  it('ignores a polluted Array.prototype behind a hole', () => {
    const matches = predicate('lines.amount=5');
    (Array.prototype as unknown as Record<number, unknown>)[0] = { amount: 5 };
    expect(matches({ lines: new Array(1) })).toBe(false);
  });

  it('reads an own "__proto__" key as an ordinary property, never as the prototype', () => {
    const item = JSON.parse('{"__proto__": {"amount": 5}}') as unknown;
    expect(predicate('amount=5')(item)).toBe(false);
  });
});
