import fc from 'fast-check';
import { defineSchema, type QueryRecord } from '../../../src/index';
import { formatNumber } from '../../../src/values/number';
import { object, type Json } from './json';
import { COMMON_TEXTS, DATES, DATE_STRINGS, IDS, ID_VALUES, NUMBERS, NUMBER_STRINGS, RAW_NUMBERS, TEXTS } from './pools';

/** A pool text, the common ones more often. */
const poolText = fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...COMMON_TEXTS) }, { weight: 1, arbitrary: fc.constantFrom(...TEXTS) });

/**
 * The schema of the differential tests: every field type, at the top and in a child
 * array, a ref at both levels, and a field named like an Object.prototype method
 * (`toString`), which must be read as an own property only. The top-level fields and
 * the ref sort; typed request parameters and paging come with the query, as a server's
 * schema has them (reference §9).
 */
export const schema = defineSchema({
  fields: {
    amount: { type: 'number', sortable: true },
    score: { type: 'number', sortable: true },
    name: { type: 'string', sortable: true },
    toString: { type: 'string', sortable: true },
    at: { type: 'date', sortable: true },
    ref: { type: 'ref', sortable: true },
    lines: { type: 'array', of: { label: 'string', qty: 'number', on: 'date', item: { type: 'ref' } } },
  },
  params: { currency: 'string', asOf: 'date', minimum: 'number' },
  paging: { defaultLimit: 10, maxLimit: 50 },
});

/** The sortable paths of the schema. */
export const SORT_KEYS = ['amount', 'score', 'name', 'toString', 'at', 'ref.id'] as const;

type Kind = 'number' | 'string' | 'date' | 'id';

const PATHS: readonly (readonly [string, Kind])[] = [
  ['amount', 'number'],
  ['score', 'number'],
  ['name', 'string'],
  ['toString', 'string'],
  ['at', 'date'],
  ['ref.id', 'id'],
  ['lines.label', 'string'],
  ['lines.qty', 'number'],
  ['lines.on', 'date'],
  ['lines.item.id', 'id'],
];

// ---------------------------------------------------------------- filters

const numberOperand = fc.oneof(
  fc.constantFrom(...NUMBERS).map(formatNumber),
  fc.constantFrom('100.00', '1E2', '1e+2', '-0', '0.0', '4.2e1', '199.990', '1e-7', '2e-308'),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(formatNumber),
);

const dateOperand = fc.constantFrom(...DATES);

/** Escapes literal text for a quoted operand: `\`, `%`, `;` and `"` are written with a backslash. */
export function escapeText(text: string): string {
  return text.replace(/[\\%;"]/g, '\\$&');
}

/** A quoted operand that matches the text literally. */
export function quoted(text: string): string {
  return `"${escapeText(text)}"`;
}

/** Wildcard segments from a text: cut at some places, maybe open at either end, maybe in another case. */
const segments = fc
  .tuple(
    fc.oneof(poolText, fc.constant('a%b_c\\d')),
    fc.array(fc.nat(), { maxLength: 3 }),
    fc.boolean(),
    fc.boolean(),
    fc.constantFrom('same', 'upper', 'lower'),
  )
  .map(([text, cuts, open, close, change]) => {
    // Cut between code points: a query cannot hold half a surrogate pair.
    const t = [...(change === 'upper' ? text.toUpperCase() : change === 'lower' ? text.toLowerCase() : text)];
    const at = [...new Set(cuts.map((c) => c % (t.length + 1)))].sort((a, b) => a - b);
    const parts: string[] = [];
    let from = 0;
    for (const cut of at) {
      parts.push(t.slice(from, cut).join(''));
      from = cut;
    }
    parts.push(t.slice(from).join(''));
    return [...(open ? [''] : []), ...parts, ...(close ? [''] : [])];
  });

const textOperand = (literal: fc.Arbitrary<string>) =>
  fc.oneof(literal.map(quoted), segments.map((s) => `"${s.map(escapeText).join('%')}"`));

const OPERATORS = ['', 'gt:', 'gte:', 'lt:', 'lte:'] as const;

function clause(kind: Kind): fc.Arbitrary<string> {
  switch (kind) {
    case 'number':
      return fc.tuple(fc.constantFrom(...OPERATORS), numberOperand).map(([op, v]) => op + v);
    case 'date':
      return fc.tuple(fc.constantFrom(...OPERATORS), dateOperand).map(([op, v]) => op + v);
    case 'string':
      return textOperand(poolText);
    case 'id':
      return textOperand(fc.constantFrom(...IDS));
  }
}

/** Several clauses are ranges for numbers and dates; for text, two different equalities match nothing. */
const CLAUSES: Record<Kind, number> = { number: 3, date: 3, string: 2, id: 2 };

const param = fc
  .constantFrom(...PATHS)
  .chain(([path, kind]) =>
    fc.tuple(fc.constant(path), fc.array(clause(kind), { minLength: 1, maxLength: CLAUSES[kind] }).map((c) => c.join(';'))),
  );

/** A query (as a record of decoded values, keys repeated as arrays) and whether to match case-insensitively. */
export interface FilterCase {
  readonly query: QueryRecord;
  readonly caseInsensitive: boolean;
}

export const filterCase: fc.Arbitrary<FilterCase> = fc
  .tuple(
    // Mostly one or two parameters: the conjunction of more rarely matches anything.
    fc.oneof({ weight: 1, arbitrary: fc.constant(0) }, { weight: 8, arbitrary: fc.constant(1) }, { weight: 4, arbitrary: fc.integer({ min: 2, max: 4 }) })
      .chain((n) => fc.array(param, { minLength: n, maxLength: n })),
    fc.boolean(),
  )
  .map(([params, caseInsensitive]) => {
    // A Map, not an object: the key "toString" would find Object.prototype.toString.
    const query = new Map<string, string | string[]>();
    for (const [key, value] of params) {
      const previous = query.get(key);
      query.set(key, previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value]);
    }
    return { query: Object.fromEntries(query), caseInsensitive };
  });

/** Request parameters of every declared type, each sometimes: they pass through and select nothing. */
const requestParams = fc.record(
  { currency: fc.constantFrom('EUR', 'gte:5', '%acme%'), asOf: fc.constantFrom(...DATES), minimum: fc.constantFrom('-0', '1e3', '199.990') },
  { requiredKeys: [] },
);

/**
 * A sort of one to three distinct keys, each ascending or descending, joined as
 * `orderBy` sends them; sometimes none.
 */
const orderBy = fc.option(
  fc
    .shuffledSubarray([...SORT_KEYS], { minLength: 1, maxLength: 3 })
    .chain((keys) => fc.tuple(...keys.map((k) => fc.constantFrom(k, `-${k}`))))
    .map((keys) => keys.join(',')),
  { freq: 8, nil: undefined },
);

/**
 * A page, each part sometimes (the defaults otherwise): mostly a small limit and offset,
 * which cut the few items a filter matches; sometimes up to the schema's maximum.
 */
const page = fc.record(
  {
    limit: fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 1, max: 4 }) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 50 }) }).map(String),
    offset: fc.oneof({ weight: 3, arbitrary: fc.nat(3) }, { weight: 1, arbitrary: fc.nat(45) }).map(String),
  },
  { requiredKeys: [] },
);

/**
 * A query that filters, sorts and pages at once: a filter case, with `orderBy`, `limit`,
 * `offset` and typed request parameters among its keys (reference §9).
 */
export const pagedCase: fc.Arbitrary<FilterCase> = fc
  // Half of them without conditions: a filter keeps few items to order.
  .tuple(fc.oneof(filterCase, filterCase.map((c) => ({ ...c, query: {} }))), orderBy, page, requestParams)
  .map(([{ query, caseInsensitive }, sort, pageParams, params]) => ({
    query: { ...query, ...params, ...pageParams, ...(sort === undefined ? {} : { orderBy: sort }) },
    caseInsensitive,
  }));

// ---------------------------------------------------------------- well-typed items (relational layout)

/** An element of `lines` with typed values; `item.id` is an integer (its column is `int8`). */
export interface TypedLine {
  label?: string | null;
  qty?: number | null;
  on?: Date | null;
  item?: { id: number | null };
}

/** An item with typed values, as a relational table holds it. */
export interface TypedItem {
  id: number;
  amount?: number | null;
  score?: number | null;
  name?: string | null;
  toString?: string | null;
  at?: Date | null;
  ref?: { id: string | null };
  lines?: TypedLine[];
}

const text = fc.oneof(
  { weight: 3, arbitrary: poolText },
  { weight: 1, arbitrary: fc.tuple(poolText, poolText).map(([a, b]) => a + b) },
  // Postgres text cannot hold NUL.
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }).map((s) => s.replaceAll('\0', '')) },
);

/** Instants on, around and between the date literals, and anywhere in the years 0001–9999. */
const instant = fc.oneof(
  fc
    .tuple(fc.constantFrom(...DATES), fc.constantFrom(-1, 0, 1, 999, 86_399_999))
    .map(([d, delta]) => new Date(Date.parse(d.length === 10 ? `${d}T00:00:00Z` : d) + delta))
    .filter((d) => d.getUTCFullYear() >= 1 && d.getUTCFullYear() <= 9999),
  fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }),
);

/** Any float8: the pool, NaN, ±Infinity, -0, and arbitrary doubles. */
const double = fc.oneof(fc.constantFrom(...NUMBERS, NaN, Infinity, -Infinity, -0), fc.double());

/** Numbers a `numeric` column holds exactly as the evaluator sees them: at most 15 significant digits (and NaN). */
const decimal = fc.oneof(
  fc.constantFrom(0, 1, 5, 42, 100, 150, 199.99, 200, 0.1, 0.2, -5, -0.5, 123456.789, NaN),
  fc.integer({ min: -1e12, max: 1e12 }).map((n) => n / 1000),
);

const orNull = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null, freq: 6 });

const typedLine: fc.Arbitrary<TypedLine> = fc.record(
  {
    label: orNull(text),
    qty: orNull(double),
    on: orNull(instant),
    item: fc.record({ id: orNull(fc.oneof(fc.constantFrom(42, -7, 0, -0, 9007199254740991), fc.maxSafeInteger())) }),
  },
  { requiredKeys: [] },
);

const typedFields = fc.record(
  {
    amount: orNull(double),
    score: orNull(decimal),
    name: orNull(text),
    toString: orNull(text),
    at: orNull(instant),
    ref: fc.record({ id: orNull(fc.oneof(fc.constantFrom(...IDS), fc.integer().map(String))) }),
    lines: fc.array(typedLine, { maxLength: 3 }),
  },
  { requiredKeys: [] },
);

/** Items with ids 1…n. */
export const typedItems: fc.Arbitrary<TypedItem[]> = fc
  .array(typedFields, { minLength: 1, maxLength: 40 })
  .map((items) => items.map((fields, i) => ({ id: i + 1, ...fields })));

/** A number a relational column holds under `sqlConstraints`: NaN and ±Infinity are null. */
const finite = (n: number | null | undefined) => (n === undefined || n === null || Number.isFinite(n) ? n : null);

/**
 * `typedItems` as the relational tables hold them under `sqlConstraints` (reference §14.1):
 * no NaN, no ±Infinity (which are no JavaScript number the evaluator reads). The relational
 * target orders such data exactly as `sortItems`.
 */
export const finiteItems: fc.Arbitrary<TypedItem[]> = typedItems.map((items) =>
  items.map((item) => {
    const kept = { ...item } as Record<string, unknown>;
    for (const key of ['amount', 'score'] as const) if (Object.hasOwn(item, key)) kept[key] = finite(item[key]);
    if (item.lines !== undefined) kept.lines = item.lines.map((line) => (Object.hasOwn(line, 'qty') ? { ...line, qty: finite(line.qty) } : line));
    return kept as unknown as TypedItem;
  }),
);

// ---------------------------------------------------------------- awkward documents (document layout)

const scalar: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(null, true, false),
  fc.constantFrom(...NUMBERS),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(...RAW_NUMBERS).map((raw) => ({ raw })),
  fc.constantFrom(...NUMBER_STRINGS, ...DATE_STRINGS, ...TEXTS),
  fc.constantFrom(...ID_VALUES),
  text,
  instant.map((d) => d.toISOString()),
);

/** Any JSON value, mostly scalars, sometimes a small array or object. */
const anyValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 8, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 2 }) },
  { weight: 1, arbitrary: fc.array(fc.tuple(fc.constantFrom('id', 'amount', 'x'), scalar), { maxLength: 2 }).map((e) => object(uniqueKeys(e))) },
);

function uniqueKeys(entries: readonly (readonly [string, Json])[]): [string, Json][] {
  return [...new Map(entries.map(([k, v]) => [k, v])).entries()];
}

/** A value for a field of a kind: mostly one that suits it, sometimes anything at all. */
function fieldValue(kind: Kind): fc.Arbitrary<Json> {
  const suitable: Record<Kind, fc.Arbitrary<Json>> = {
    number: fc.oneof(
      fc.constantFrom(...NUMBERS),
      fc.constantFrom(...RAW_NUMBERS).map((raw) => ({ raw })),
      fc.constantFrom(...NUMBER_STRINGS),
      fc.constantFrom(...NUMBERS).map(formatNumber),
    ),
    date: fc.oneof(fc.constantFrom(...DATE_STRINGS), instant.map((d) => d.toISOString())),
    string: text,
    id: fc.constantFrom(...ID_VALUES),
  };
  return fc.oneof({ weight: 3, arbitrary: suitable[kind] }, { weight: 1, arbitrary: anyValue });
}

/** A ref: mostly an object with an id, sometimes a bare value. */
const ref = fc.oneof(
  { weight: 4, arbitrary: fieldValue('id').map((id) => object([['id', id]])) },
  { weight: 1, arbitrary: anyValue },
);

const element: fc.Arbitrary<Json> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .record(
        { label: fieldValue('string'), qty: fieldValue('number'), on: fieldValue('date'), item: ref },
        { requiredKeys: [] },
      )
      .map((fields) => object(Object.entries(fields))),
  },
  { weight: 1, arbitrary: anyValue },
);

const documentFields = fc.record(
  {
    amount: fieldValue('number'),
    score: fieldValue('number'),
    name: fieldValue('string'),
    toString: fieldValue('string'),
    at: fieldValue('date'),
    ref,
    lines: fc.oneof({ weight: 4, arbitrary: fc.array(element, { maxLength: 3 }) }, { weight: 1, arbitrary: anyValue }),
  },
  { requiredKeys: [] },
);

/** A document: mostly an object of the schema's fields (maybe also under `__proto__`), sometimes any JSON value. */
const document: fc.Arbitrary<Json> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc
      .tuple(documentFields, fc.option(documentFields, { freq: 5 }))
      .map(([fields, proto]) => object([...Object.entries(fields), ...(proto === null ? [] : [['__proto__', object(Object.entries(proto))] as const])])),
  },
  { weight: 1, arbitrary: anyValue },
);

/** The JSON of a typed item, as a document: dates become ISO strings, NaN and ±Infinity become null. */
export function typedToJson(item: TypedItem): Json {
  const value = (v: unknown): Json =>
    v instanceof Date ? v.toISOString() : typeof v === 'number' && !Number.isFinite(v) ? null : (v as Json);
  const entries = (o: object) => Object.entries(o).map(([k, v]): [string, Json] => [k, nested(v)]);
  const nested = (v: unknown): Json =>
    Array.isArray(v) ? v.map(nested) : v !== null && typeof v === 'object' && !(v instanceof Date) ? object(entries(v)) : value(v);
  const { id: _, ...fields } = item;
  return object(entries(fields));
}

/** Documents with ids 1…n: awkward ones, and the JSON of well-typed ones. */
export const documents: fc.Arbitrary<Json[]> = fc
  .tuple(fc.array(document, { minLength: 1, maxLength: 30 }), typedItems.map((items) => items.slice(0, 10).map(typedToJson)))
  .map(([awkward, typed]) => [...awkward, ...typed]);
