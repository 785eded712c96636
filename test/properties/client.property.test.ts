import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check, compile, defineSchema, invoices, query, type Query } from '../../src/index';

/**
 * reference §11: for arbitrary where-calls (text with every character the language gives a
 * meaning to, operator-looking prefixes, non-ASCII; numbers; dates), sorts, pages and
 * request parameters, `check(q.toString(), schema)` succeeds and equals `q.toFilter()`,
 * and `compile` of it selects what the same conditions select written as plain predicates.
 */

const schema = defineSchema({
  fields: {
    amount: { type: 'number', sortable: true },
    name: { type: 'string', sortable: true },
    posted: { type: 'date', sortable: true },
    customerRef: { type: 'ref', sortable: true },
    lines: { type: 'array', of: { price: 'number', label: 'string', shipped: 'date' } },
  },
  params: { businessName: 'string', startDate: 'date', top: 'number' },
  paging: { maxLimit: 200 },
});

// ---------------------------------------------------------------- values

/** Text made of the characters the language treats specially, operator prefixes and any other text. */
const SPECIAL = ['&', ';', '%', '"', '\\', '+', ':', '=', ',', ' ', '#', '?', '/', 'gte:', 'lt:', 'gt', '""', 'é', 'Σ', '😀', '\u00a0', 'a', 'Z'];
const text = fc
  .array(fc.oneof(fc.constantFrom(...SPECIAL), fc.string({ unit: 'grapheme', maxLength: 3 })), { maxLength: 5 })
  .map((parts) => parts.join(''))
  .filter((s) => !s.includes('\0'));
const number = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1e16, -(2 ** 53), 2 ** 53, 1.5e-7, Number.MAX_VALUE, Number.MIN_VALUE),
);
const MIN = Date.UTC(1990, 0, 1);
const MAX = Date.UTC(2030, 0, 1);
const instant = fc.integer({ min: MIN, max: MAX });
/** A date as the builder takes it: a Date, a date-only string, or a date-time string with an offset. */
const date = fc.oneof(
  instant.map((t) => new Date(t)),
  instant.map((t) => new Date(t).toISOString().slice(0, 10)),
  fc.tuple(instant, fc.integer({ min: -14 * 60, max: 14 * 60 })).map(([t, minutes]) => isoWithOffset(t, minutes)),
);

function isoWithOffset(t: number, minutes: number): string {
  const local = new Date(t + minutes * 60_000).toISOString().slice(0, 23);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

// ---------------------------------------------------------------- calls

type Where =
  | { path: 'amount' | 'lines.price'; op: 'eq' | 'gt' | 'gte' | 'lt' | 'lte'; value: number }
  | { path: 'posted' | 'lines.shipped'; op: 'eq' | 'gt' | 'gte' | 'lt' | 'lte'; value: Date | string }
  | { path: 'name' | 'lines.label' | 'customerRef.id'; op: 'eq' | 'contains' | 'startsWith' | 'endsWith'; value: string };

const compare = fc.constantFrom('eq', 'gt', 'gte', 'lt', 'lte' as const);
const textOp = fc.constantFrom('eq', 'contains', 'startsWith', 'endsWith' as const);
const where: fc.Arbitrary<Where> = fc.oneof(
  fc.record({ path: fc.constantFrom('amount', 'lines.price' as const), op: compare, value: number }),
  fc.record({ path: fc.constantFrom('posted', 'lines.shipped' as const), op: compare, value: date }),
  fc.record({ path: fc.constantFrom('name', 'lines.label', 'customerRef.id' as const), op: textOp, value: text }),
);

const request: fc.Arbitrary<Request> = fc.record(
  {
    sort: fc.uniqueArray(fc.tuple(fc.constantFrom('amount', 'name', 'posted', 'customerRef.id' as const), fc.constantFrom('asc', 'desc' as const)), {
      selector: ([path]) => path,
      maxLength: 3,
    }),
    limit: fc.integer({ min: 1, max: 200 }),
    offset: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
    businessName: text,
    startDate: date,
    top: number,
  },
  { requiredKeys: ['sort'] },
);

/** What a query asks for besides its conditions. */
interface Request {
  sort: (readonly ['amount' | 'name' | 'posted' | 'customerRef.id', 'asc' | 'desc'])[];
  limit?: number;
  offset?: number;
  businessName?: string;
  startDate?: Date | string;
  top?: number;
}

function build(wheres: readonly Where[], r: Request): Query<typeof schema.spec> {
  let q = query(schema);
  for (const w of wheres) q = (q.where as (path: string, op: string, value: unknown) => typeof q)(w.path, w.op, w.value);
  for (const [path, direction] of r.sort) q = q.orderBy(path, direction);
  if (r.limit !== undefined) q = q.limit(r.limit);
  if (r.offset !== undefined) q = q.offset(r.offset);
  if (r.businessName !== undefined) q = q.param('businessName', r.businessName);
  if (r.startDate !== undefined) q = q.param('startDate', r.startDate);
  if (r.top !== undefined) q = q.param('top', r.top);
  return q;
}

// ---------------------------------------------------------------- plain predicates

const DAY = 86_400_000;

/** The instants a date value stands for: a date-only string is its whole UTC day, anything else one millisecond. */
function span(value: Date | string): [number, number] {
  if (value instanceof Date) return [value.getTime(), value.getTime() + 1];
  const start = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  return value.length === 10 ? [start, start + DAY] : [start, start + 1];
}

/** One where-call as a predicate on the value it reads, written from reference §5 and §11 directly. */
function holds(w: Where, v: unknown): boolean {
  switch (w.path) {
    case 'amount':
    case 'lines.price': {
      if (typeof v !== 'number') return false;
      const x = w.value;
      return { eq: v === x, gt: v > x, gte: v >= x, lt: v < x, lte: v <= x }[w.op];
    }
    case 'posted':
    case 'lines.shipped': {
      if (!(v instanceof Date)) return false;
      const t = v.getTime();
      const [start, end] = span(w.value);
      return { eq: start <= t && t < end, gt: t >= end, gte: t >= start, lt: t < start, lte: t < end }[w.op];
    }
    default: {
      if (typeof v !== 'string') return false;
      const x = w.value;
      return { eq: v === x, contains: v.includes(x), startsWith: v.startsWith(x), endsWith: v.endsWith(x) }[w.op];
    }
  }
}

interface Item {
  amount?: number;
  name?: string;
  posted?: Date;
  customerRef?: { id: string };
  lines?: { price?: number; label?: string; shipped?: Date }[];
}

function read(item: Item, path: string): unknown {
  if (path === 'customerRef.id') return item.customerRef?.id;
  return (item as Record<string, unknown>)[path];
}

/** All calls on one path hold together: for a child-array path, on one element. */
function selects(wheres: readonly Where[], item: Item): boolean {
  const paths = [...new Set(wheres.map((w) => w.path))];
  return paths.every((path) => {
    const tests = wheres.filter((w) => w.path === path);
    if (!path.startsWith('lines.')) return tests.every((w) => holds(w, read(item, path)));
    const field = path.slice('lines.'.length) as keyof NonNullable<Item['lines']>[number];
    return (item.lines ?? []).some((line) => tests.every((w) => holds(w, line[field])));
  });
}

/** Items whose values are often the very values of the calls (and their neighbours), so that matches happen. */
function items(wheres: readonly Where[]): fc.Arbitrary<Item[]> {
  const numbers = [0, 1, -1, ...wheres.filter((w) => typeof w.value === 'number').flatMap((w) => [w.value as number, (w.value as number) + 1, (w.value as number) - 1])];
  const texts = ['', 'acme', ...wheres.filter((w) => typeof w.value === 'string' && !/^(?:posted|lines\.shipped)$/.test(w.path)).flatMap((w) => [w.value as string, `x${w.value as string}`, `${w.value as string}y`])];
  const dates = [MIN, ...wheres.filter((w) => /^(?:posted|lines\.shipped)$/.test(w.path)).flatMap((w) => span(w.value as Date | string)).flatMap((t) => [t - 1, t, t + 1])];
  const num = fc.constantFrom(...numbers);
  const str = fc.oneof(fc.constantFrom(...texts), text);
  const day = fc.oneof(fc.constantFrom(...dates), instant).map((t) => new Date(t));
  const line = fc.record({ price: num, label: str, shipped: day }, { requiredKeys: [] });
  const item = fc.record(
    { amount: num, name: str, posted: day, customerRef: str.map((id) => ({ id })), lines: fc.array(line, { maxLength: 3 }) },
    { requiredKeys: [] },
  );
  return fc.array(item, { maxLength: 12 });
}

// ---------------------------------------------------------------- properties

const calls = fc.array(where, { maxLength: 8 });

describe('query builder (reference §11)', () => {
  it('builds what check accepts, and check gives back toFilter', () => {
    fc.assert(
      fc.property(calls, request, (wheres, r) => {
        const q = build(wheres, r);
        expect(check(q.toString(), schema)).toEqual({ ok: true, value: q.toFilter() });
      }),
      { numRuns: 1000 },
    );
  });

  it('selects, through compile, what the calls select as plain predicates', () => {
    fc.assert(
      fc.property(
        calls.chain((wheres) => items(wheres).map((data) => ({ wheres, data }))),
        ({ wheres, data }) => {
          const q = build(wheres, { sort: [] });
          const result = check(q.toString(), schema);
          if (!result.ok) throw new Error(JSON.stringify(result.errors));
          const matches = compile(result.value);
          expect(data.map((item) => matches(item))).toEqual(data.map((item) => selects(wheres, item)));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('builds what check accepts on a catalog schema, every filterable path of it', () => {
    const paths = [...invoices.fields.values()].filter((f) => f.removed === undefined);
    const call = fc.constantFrom(...paths).chain((field): fc.Arbitrary<[string, string, unknown]> => {
      if (field.type === 'number') return fc.tuple(fc.constant(field.path), compare, number);
      if (field.type === 'date') return fc.tuple(fc.constant(field.path), compare, date);
      return fc.tuple(fc.constant(field.path), textOp, text);
    });
    fc.assert(
      fc.property(fc.array(call, { maxLength: 8 }), (list) => {
        let q = query(invoices) as unknown as { where(...args: unknown[]): typeof q; toString(): string; toFilter(): unknown };
        for (const [path, op, value] of list) q = q.where(path, op, value);
        expect(check(q.toString(), invoices)).toEqual({ ok: true, value: q.toFilter() });
      }),
      { numRuns: 300 },
    );
  });
});
