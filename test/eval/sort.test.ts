import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check, defineSchema, sortItems, type Filter } from '../../src/index';
import { compareCodePoints } from '../../src/values/order';

// reference §9: the order of sortItems.

const schema = defineSchema({
  fields: {
    amount: { type: 'number', sortable: true },
    at: { type: 'date', sortable: true },
    name: { type: 'string', sortable: true },
    ref: { type: 'ref', sortable: true },
  },
});

function sorted(orderBy: string): Filter {
  const result = check(`orderBy=${orderBy}`, schema);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}

const ids = (items: readonly { id: number }[]) => items.map((i) => i.id);

describe('sortItems', () => {
  it('orders numbers numerically, numeric strings included, mistyped and missing last both ways', () => {
    const items = [
      { id: 1, amount: 10 },
      { id: 2, amount: '9.5' },
      { id: 3, amount: 'ten' },
      { id: 4, amount: 100 },
      { id: 5 },
      { id: 6, amount: '1e2' },
      { id: 7, amount: NaN },
      { id: 8, amount: -0 },
      { id: 9, amount: null },
      { id: 10, amount: Infinity },
    ];
    expect(ids(sortItems(items, sorted('amount')))).toEqual([8, 2, 1, 4, 6, 3, 5, 7, 9, 10]);
    expect(ids(sortItems(items, sorted('-amount')))).toEqual([4, 6, 1, 2, 8, 3, 5, 7, 9, 10]);
  });

  it('orders dates by instant: Date objects, date strings, date-times with and without an offset', () => {
    const items = [
      { id: 1, at: '2023-01-09T10:00:00+01:00' },
      { id: 2, at: new Date('2023-01-09T09:30:00Z') },
      { id: 3, at: '2023-01-09' },
      { id: 4, at: '2023-01-09T08:59:59' },
      { id: 5, at: '2023-02-30' },
      { id: 6, at: new Date(NaN) },
    ];
    expect(ids(sortItems(items, sorted('at')))).toEqual([3, 4, 1, 2, 5, 6]);
    expect(ids(sortItems(items, sorted('-at')))).toEqual([2, 1, 4, 3, 5, 6]);
  });

  it('orders text by code point, as COLLATE "C" does, not by UTF-16 unit or locale', () => {
    const items = ['b', 'B', 'a', '\uFF5E', '\u{1F600}', 'é', 'e', ''].map((name, i) => ({ id: i + 1, name }));
    // '' < 'B' < 'a' < 'b' < 'e' < 'é' (U+E9) < '～' (U+FF5E) < '😀' (U+1F600), though JS's < puts 😀 before ～.
    expect(sortItems(items, sorted('name')).map((i) => i.name)).toEqual(['', 'B', 'a', 'b', 'e', 'é', '\uFF5E', '\u{1F600}']);
    // Folded, "b" and "B" are one value and come together, "É" with "é"; among texts equal
    // but for case, code point order (issue 32: a cursor must tell "a" from "A", two rows).
    const folded = ['b', 'É', 'B', 'a', 'é'].map((name, i) => ({ id: i + 1, name }));
    expect(ids(sortItems(folded, sorted('name'), { caseInsensitive: true }))).toEqual([4, 3, 1, 2, 5]);
    expect(ids(sortItems(folded, sorted('-name'), { caseInsensitive: true }))).toEqual([5, 2, 1, 3, 4]);
    // The same text twice is one key: input order.
    const twice = ['b', 'B', 'b'].map((name, i) => ({ id: i + 1, name }));
    expect(ids(sortItems(twice, sorted('name'), { caseInsensitive: true }))).toEqual([2, 1, 3]);
  });

  it('orders ref ids as text: a safe integer as its digits', () => {
    const items = [{ id: 1, ref: { id: 10 } }, { id: 2, ref: { id: '9' } }, { id: 3, ref: { id: 1.5 } }, { id: 4, ref: 'x' }, { id: 5, ref: { id: '10' } }];
    expect(ids(sortItems(items, sorted('ref.id')))).toEqual([1, 5, 2, 3, 4]);
  });

  it('keeps the input order of equal keys, and breaks ties with the next key', () => {
    const items = [
      { id: 1, amount: 5, name: 'b' },
      { id: 2, amount: 5, name: 'a' },
      { id: 3, amount: 1, name: 'b' },
      { id: 4, amount: 5, name: 'a' },
    ];
    expect(ids(sortItems(items, sorted('-amount')))).toEqual([1, 2, 4, 3]);
    expect(ids(sortItems(items, sorted('-amount,name')))).toEqual([2, 4, 1, 3]);
  });

  it('returns a new array and leaves the input as it was; with no sort, a copy', () => {
    const items = [{ id: 2, amount: 2 }, { id: 1, amount: 1 }];
    const result = sortItems(items, sorted('amount'));
    expect(ids(items)).toEqual([2, 1]);
    expect(ids(result)).toEqual([1, 2]);
    const unsorted = check('', schema);
    const copy = sortItems(items, unsorted.ok ? unsorted.value : sorted('amount'));
    expect(copy).not.toBe(items);
    expect(copy).toEqual(items);
  });

  it('reads only own properties, and an item whose value cannot be read sorts last', () => {
    class Invoice {
      get amount(): number {
        throw new Error('a getter on the prototype was called');
      }
    }
    const throwing = Object.defineProperty({ id: 3 }, 'amount', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    const inherited = Object.assign(new Invoice(), { id: 2 });
    const polluted = Object.assign(Object.create({ amount: -100 }) as object, { id: 4 });
    const items = [throwing, inherited, { id: 1, amount: 7 }, polluted] as { id: number }[];
    expect(ids(sortItems(items, sorted('amount')))).toEqual([1, 3, 2, 4]);
  });

  it('takes the array\'s own elements: a hole is no item, and one that cannot be read is left out', () => {
    const items: { id: number; amount?: number }[] = [{ id: 1, amount: 3 }];
    items[5] = { id: 2, amount: 1 };
    items[7] = undefined as never;
    Object.defineProperty(items, 6, {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    (Array.prototype as unknown as Record<number, unknown>)[2] = { id: 666, amount: 0 };
    try {
      expect(sortItems(items, sorted('amount')).map((i) => i?.id)).toEqual([2, 1, undefined]);
      expect(sortItems(items, { sort: [] }).map((i) => i?.id)).toEqual([1, 2, undefined]);
    } finally {
      delete (Array.prototype as unknown as Record<number, unknown>)[2];
    }
    const unreadable = new Proxy([{ id: 1 }], {
      get(target, key) {
        if (key === 'length') throw new Error('no length');
        return Reflect.get(target, key);
      },
    });
    expect(sortItems(unreadable, sorted('amount'))).toEqual([]);
    // A length that is no number: one whose conversion throws is none, as one that cannot be read.
    const lengths = [{ valueOf: () => { throw new Error('no number'); } }, Symbol('length'), '1', 1n];
    const withLength = (length: unknown) => new Proxy([{ id: 1 }], { get: (target, key) => (key === 'length' ? length : Reflect.get(target, key)) });
    expect(lengths.map((length) => sortItems(withLength(length), sorted('amount')).length)).toEqual([0, 0, 1, 1]);
  });

  it('costs the items a sparse array has, not its length', () => {
    // Reads of the array, counted through a proxy: as many for a length twice as large.
    const reads = (length: number) => {
      const items: { id: number; amount: number }[] = [];
      for (let i = 0; i < 50; i++) items[i * 7] = { id: i, amount: i % 5 };
      items.length = length;
      let count = 0;
      const counted = new Proxy(items, {
        get: (t, k) => (count++, Reflect.get(t, k)),
        has: (t, k) => (count++, Reflect.has(t, k)),
        getOwnPropertyDescriptor: (t, k) => (count++, Reflect.getOwnPropertyDescriptor(t, k)),
        ownKeys: (t) => (count++, Reflect.ownKeys(t)),
      });
      expect(sortItems(counted, sorted('amount'))).toHaveLength(50);
      expect(sortItems(counted, { sort: [] })).toHaveLength(50);
      return count;
    };
    const small = reads(100_000);
    expect(reads(200_000) / small).toBeLessThan(1.1);
    expect(small).toBeLessThan(2_000);
  });

  it('refuses what is not an array of items or a checked filter', () => {
    expect(() => sortItems('abc' as never, sorted('amount'))).toThrow(TypeError);
    expect(() => sortItems([], {} as never)).toThrow(/must be a checked Filter/);
  });
});

describe('sortItems, for any items', () => {
  const value = fc.oneof(fc.double(), fc.integer().map(String), fc.string(), fc.constant(null), fc.date({ noInvalidDate: false }));
  const items = fc.array(fc.record({ amount: value, at: value, name: value, ref: fc.record({ id: value }) }, { requiredKeys: [] }), { maxLength: 30 });
  const orderBy = fc
    .shuffledSubarray(['amount', 'at', 'name', 'ref.id'], { minLength: 1, maxLength: 3 })
    .chain((keys) => fc.tuple(...keys.map((k) => fc.constantFrom(k, `-${k}`))).map((ks) => ks.join(',')));

  it('returns a permutation in which no later item comes before an earlier one by the first key', () => {
    fc.assert(
      fc.property(items, orderBy, fc.boolean(), (list, order, caseInsensitive) => {
        const filter = sorted(order);
        const result = sortItems(list, filter, { caseInsensitive });
        expect(result.length).toBe(list.length);
        expect(new Set(result)).toEqual(new Set(list));
        // Sorting the result again changes nothing: the order is a fixed point, and stable.
        expect(sortItems(result, filter, { caseInsensitive })).toEqual(result);
      }),
    );
  });
});

describe('compareCodePoints', () => {
  it('agrees with comparing the arrays of code points, for any strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        const points = (s: string) => [...s].map((c) => c.codePointAt(0)!);
        const [x, y] = [points(a), points(b)];
        let expected = 0;
        for (let i = 0; i < Math.min(x.length, y.length) && expected === 0; i++) expected = x[i]! - y[i]!;
        if (expected === 0) expected = x.length - y.length;
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(expected));
      }),
    );
  });
});
