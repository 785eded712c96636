import { afterEach, describe, expect, it } from 'vitest';
import { check, compile, defineSchema, type CompileOptions } from '../../src/index';

/** One schema with a field of every kind, so each rule of reference §5 reads as one table. */
const schema = defineSchema({
  fields: {
    amount: 'number',
    name: 'string',
    day: 'date',
    customerRef: { type: 'ref' },
    lines: { type: 'array', of: { amount: 'number', description: 'string', itemRef: { type: 'ref' } } },
  },
});

/** Both evaluators, which must mean the same (reference §13): every table runs against each. */
const EVALUATORS = [
  ['generated', { codegen: true }],
  ['closures', { codegen: false }],
] as const;

function predicate(query: string, options?: CompileOptions): (item: unknown) => boolean {
  const result = check(query, schema);
  if (!result.ok) throw new Error(`${query}: ${JSON.stringify(result.errors)}`);
  return compile(result.value, options);
}

/** Rows of [what, item, matches?]: each asserted against one query, by each evaluator. */
type Row = [string, unknown, boolean];

function table(query: string, rows: Row[], options?: CompileOptions): void {
  for (const [name, evaluator] of EVALUATORS) {
    const matches = predicate(query, { ...options, ...evaluator });
    it.each(rows)(`${query} (${name}): %s`, (_what, item, expected) => {
      expect(matches(item)).toBe(expected);
    });
  }
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

describe('numbers: from numbers, or strings in the number syntax of reference §4', () => {
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
  it.each(EVALUATORS)('matches everything with no conditions (%s)', (_name, evaluator) => {
    const all = predicate('', evaluator);
    for (const item of [{}, null, 5, { amount: 1 }]) expect(all(item)).toBe(true);
  });
  table('amount=gt:5;lt:5', [['nothing', { amount: 5 }, false]]);
  table('amount=gte:5;lte:5', [['exactly 5', { amount: 5 }, true]]);
  table('amount=gt:0;lt:5e-324', [['no double between', { amount: 0 }, false], ['nor at the top', { amount: 5e-324 }, false]]);
  table('amount=gt:-5e-324;lt:5e-324', [['zero, the only double between', { amount: 0 }, true], ['-0 too', { amount: -0 }, true]]);
  table('amount=gt:1.7976931348623157e308', [['nothing above the largest double', { amount: Infinity }, false]]);
  table('name=a;b', [['two different equalities: nothing', { name: 'a' }, false]]);
  table('name=a;a', [['the same equality twice', { name: 'a' }, true]]);
  table('day=gt:2023-01-09;lt:2023-01-10', [['the empty gap between two days', { day: '2023-01-10T00:00:00Z' }, false]]);
});

describe.each(EVALUATORS)('only own properties, at every step (%s)', (_name, evaluator) => {
  afterEach(() => {
    delete (Object.prototype as Record<string, unknown>).amount;
    delete (Array.prototype as unknown as Record<number, unknown>)[0];
  });

  it('ignores inherited values, on the item and inside refs', () => {
    expect(predicate('amount=5', evaluator)(Object.create({ amount: 5 }))).toBe(false);
    expect(predicate('customerRef.id=1', evaluator)({ customerRef: Object.create({ id: 1 }) })).toBe(false);
  });

  it('ignores a polluted Object.prototype', () => {
    const matches = predicate('amount=5', evaluator);
    (Object.prototype as Record<string, unknown>).amount = 5;
    expect(matches({})).toBe(false);
    expect(matches({ amount: 5 })).toBe(true);
  });

  it('ignores a polluted Array.prototype behind a hole', () => {
    const matches = predicate('lines.amount=5', evaluator);
    (Array.prototype as unknown as Record<number, unknown>)[0] = { amount: 5 };
    expect(matches({ lines: new Array(1) })).toBe(false);
    expect(matches({ lines: [{ amount: 5 }] })).toBe(true);
  });

  it('reads an own "__proto__" key as an ordinary property, never as the prototype', () => {
    const item = JSON.parse('{"__proto__": {"amount": 5}}') as unknown;
    expect(predicate('amount=5', evaluator)(item)).toBe(false);
  });

  it('never calls a getter on a prototype (issue 14)', () => {
    let calls = 0;
    class Vendor {
      get name(): string {
        calls++;
        return 'Acme';
      }
      get amount(): number {
        calls++;
        return 5;
      }
    }
    for (const query of ['name=Acme', 'name=%25cm%25', 'amount=5', 'lines.amount=5', 'customerRef.id=5']) {
      const matches = predicate(query, evaluator);
      expect(matches(new Vendor())).toBe(false);
      expect(matches({ lines: [new Vendor()], customerRef: Object.create(Vendor.prototype) })).toBe(false);
    }
    expect(calls).toBe(0);
  });

  it('calls an own getter, which is an own property', () => {
    const item = Object.defineProperty({}, 'amount', { enumerable: true, get: () => 5 });
    expect(predicate('amount=5', evaluator)(item)).toBe(true);
  });

  it('fails only the element whose read throws, not the item (issue 14)', () => {
    const throwing = Object.defineProperty({}, 'amount', { get: () => { throw new Error('read'); } });
    const matches = predicate('lines.amount=5', evaluator);
    expect(matches({ lines: [throwing, { amount: 5 }] })).toBe(true);
    expect(matches({ lines: [{ amount: 5 }, throwing] })).toBe(true);
    expect(matches({ lines: [throwing] })).toBe(false);
    const elementThrows = Object.defineProperty([{ amount: 1 }, { amount: 5 }], 0, { get: () => { throw new Error('element'); } });
    expect(matches({ lines: elementThrows })).toBe(true);
    // A throwing read outside any element is the item's: it does not match.
    const itemThrows = Object.defineProperty({ lines: [{ amount: 5 }] }, 'name', { get: () => { throw new Error('item'); } });
    expect(predicate('lines.amount=5&name=a', evaluator)(itemThrows)).toBe(false);
  });
});

describe.each(EVALUATORS)('child arrays: the work is bounded by the elements that exist (%s)', (_name, evaluator) => {
  const LENGTH = 2 ** 32 - 1;

  it('finds the elements of an array of length 2^32 - 1, the last index included', () => {
    const matches = predicate('lines.amount=5', evaluator);
    const lines: unknown[] = new Array(LENGTH);
    lines[3] = { amount: 4 };
    lines[LENGTH - 1] = { amount: 5 };
    expect(matches({ lines })).toBe(true);
    lines[LENGTH - 1] = { amount: 6 };
    expect(matches({ lines })).toBe(false);
  });

  it('looks at a few indexes only, not at every hole', () => {
    const lines: unknown[] = new Array(LENGTH);
    lines[1_000_000] = { amount: 5 };
    let reads = 0;
    const counted = new Proxy(lines, {
      get: (target, key, receiver) => {
        reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    expect(predicate('lines.amount=5', evaluator)({ lines: counted })).toBe(true);
    expect(reads).toBeLessThan(200);
  });

  it('stops, without an answer from it, at a sparse proxy that cannot list its keys', () => {
    let reads = 0;
    const lines = new Proxy(new Array<unknown>(LENGTH), {
      get: (target, key, receiver) => {
        reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
      ownKeys: () => {
        throw new Error('ownKeys');
      },
    });
    expect(predicate('lines.amount=5', evaluator)({ lines })).toBe(false);
    expect(reads).toBeLessThan(200);
  });

  it('does not confuse other own keys of an array with elements', () => {
    const lines: unknown[] = new Array(1000);
    Object.assign(lines, { x: { amount: 5 }, '01': { amount: 5 }, '-1': { amount: 5 } });
    expect(predicate('lines.amount=5', evaluator)({ lines })).toBe(false);
    lines[999] = { amount: 5 };
    expect(predicate('lines.amount=5', evaluator)({ lines })).toBe(true);
  });
});
