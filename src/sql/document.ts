import { ownField } from '../arguments/arguments';
import { dateBounds, numberBounds } from '../filter/bounds';
import type { Condition, CursorValue, DateTest, NumberTest } from '../filter/filter';
import type { FieldType } from '../spec/spec';
import { MAX_MS as END_MS, MIN_MS as FIRST_MS } from '../values/date';
import { isFieldName } from '../values/name';
import { cursorKey } from '../values/order';
import type { Dialect, KeyField } from './dialect';
import { quoteIdentifier, quoteQualified, type QualifiedName } from './identifier';
import type { Parameters } from './parameters';
import { decimalRange } from './rounding';
import { textParts, textTests, type TextComparison } from './text';

/**
 * A `jsonb` column holding each item as a JSON object, as the evaluator would see it
 * after `JSON.parse`. Values in it may be of any type, so every read checks the JSON
 * type and the exact syntax of reference §4 before anything is converted: a wrongly typed,
 * unparseable or calendar-invalid value never matches and never raises an error.
 * Strings must not hold NUL (`jsonb` refuses `\u0000`).
 */
export interface DocumentTarget {
  /** The `jsonb` column. */
  readonly document: string;
  /** The table (name or alias) to qualify the column with: `'invoices'`, `'public.invoices'`, `'i'`. */
  readonly table?: QualifiedName;
  /**
   * Whether the values have the schema's JSON types (reference §14.1, see `typedComparand`):
   * then every comparison is one an index can serve (`sqlIndexes`), and a value of
   * another type never matches. Without it (the default) any value is read as `compile`
   * reads it, a number in a string or a date with an offset included, which no index
   * can serve.
   */
  readonly typed?: boolean;
}

/**
 * The document dialect (see `Dialect`): every value read as `compile` reads the JSON, by
 * expressions no index can serve. A sort key is read the same way (`documentKey`), a
 * cursor value through the same expression as the row it came from.
 */
export function documentDialect(target: DocumentTarget): Dialect {
  const document = documentColumn(target);
  return {
    prefix: `${target.document}_`,
    condition: (condition, text, params) => documentCondition(target, condition, text, params),
    orderKey: (field, text) => {
      const { json, raw } = valueAt(document, field.path);
      return documentKey(field.type, json, raw, text);
    },
    cursorKey: (field, value, text, params) => (cursorKey(value, field.type) === undefined ? undefined : boundKey(field, value, text, params)),
    filterIndexes() {
      throw new TypeError('sqlIndexes: the untyped document target reads values (numbers in strings, dates with offsets) that no index can serve: use { document, typed: true } with data of the schema\'s JSON types.');
    },
    // It reads any JSON exactly: nothing to keep out.
    constraints: () => [],
  };
}

/**
 * The key of a cursor value (`CursorValue`, the item's own value) on the document target:
 * the value bound as `jsonb` (a date's instant as its ISO text), read by `documentKey` as a
 * row's value is. Not NULL: the caller has asked.
 */
function boundKey(field: KeyField, value: CursorValue, text: TextComparison, params: Parameters): string[] {
  const json = params.add(JSON.stringify(field.type === 'date' && typeof value === 'number' ? new Date(value).toISOString() : value), 'jsonb');
  return documentKey(field.type, json, `(${json} #>> '{}')`, text);
}

/** The SQL of the tests of a condition on the values read from `source`: the document column, or an array element. */
export type ValueTests = (source: string, condition: Condition, text: TextComparison, params: Parameters) => string;

/**
 * The SQL of one condition on a document target. A child-array condition is one
 * `EXISTS` over the elements of the array (only when it is one), all its tests on the
 * same element. `tests` reads the values: as `compile` reads any JSON (the default), or
 * typed (`typedTests`).
 */
export function documentCondition(target: DocumentTarget, condition: Condition, text: TextComparison, params: Parameters, tests: ValueTests = valueTests): string {
  const document = documentColumn(target);
  // Own property only, as every back end reads a condition's array (a polluted prototype's is no condition's).
  const array = ownField(condition, 'array');
  if (array === undefined) return tests(document, condition, text, params);
  const list = `${document}->${key(array)}`;
  const elementTests = tests('element', condition, text, params);
  return `EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(${list}) = 'array' THEN ${list} END) AS elements(element) WHERE ${elementTests})`;
}

/** The target's `jsonb` column, quoted, and qualified with its table when it has one. */
export function documentColumn(target: DocumentTarget): string {
  const column = quoteIdentifier(target.document, 'the document column');
  return target.table === undefined ? column : `${quoteQualified(target.table, 'the table')}.${column}`;
}

/** A property name as a SQL string literal. A field name (reference §3) is a plain identifier, so it never needs escaping. */
function key(name: string): string {
  if (!isFieldName(name)) throw new TypeError(`toSql: ${JSON.stringify(name)} is not a field name of a checked filter.`);
  return `'${name}'`;
}

/**
 * The value at a path of property names in a `jsonb` source, as the filters and the sort
 * keys read it: as jsonb (for its type) and as text (the string itself, or a number's digits).
 */
export function valueAt(source: string, path: readonly string[]): { readonly json: string; readonly raw: string } {
  const names = path.map(key);
  const last = names.length - 1;
  const parent = [source, ...names.slice(0, last)].join('->');
  return { json: `${parent}->${names[last]}`, raw: `${parent}->>${names[last]}` };
}

/** A string value's text; NULL for any other JSON type. */
export function stringValue(json: string, raw: string): string {
  return `CASE WHEN jsonb_typeof(${json}) = 'string' THEN ${raw} END`;
}

function valueTests(source: string, condition: Condition, text: TextComparison, params: Parameters): string {
  const { json, raw } = valueAt(source, condition.path);
  switch (condition.type) {
    case 'number':
      return `${numberValue(json, raw)} <@ ${numberRange(condition.tests, params)}`;
    case 'date':
      return `${instantValue(raw)} <@ ${instantRange(condition.tests, params)}`;
    case 'string':
      return textTests(stringValue(json, raw), condition.tests, text, params).join(' AND ');
    case 'id':
      return textTests(idValue(json, raw), condition.tests, text, params).join(' AND ');
  }
}

// ---------------------------------------------------------------- numbers

/**
 * The number syntax of reference §4 (see `readNumber`) as a Postgres regular expression, and
 * the part of it short enough for a direct `numeric` cast: at most 1000 characters and
 * an exponent below 10000, well inside what `numeric` input accepts.
 */
const NUMBER = `'^-?(0|[1-9][0-9]*)([.][0-9]+)?([eE][+-]?[0-9]+)?$'`;
const SHORT_NUMBER = `'^-?(0|[1-9][0-9]*)([.][0-9]+)?([eE][+-]?0*[0-9]{1,4})?$'`;

/**
 * A number from data as an exact `numeric`, or NULL: a JSON number, or a string in the
 * number syntax. Nothing is converted to `float8`: each comparison is with the exact
 * decimals that round to the literal (see `roundingInterval`), which is the evaluator's
 * comparison of correctly rounded doubles, with no overflow or underflow to raise.
 */
export function numberValue(json: string, raw: string): string {
  return (
    `CASE jsonb_typeof(${json}) WHEN 'number' THEN (${json})::numeric ` +
    `WHEN 'string' THEN CASE WHEN length(${raw}) <= 1000 AND ${raw} ~ ${SHORT_NUMBER} THEN (${raw})::numeric ` +
    `WHEN ${raw} ~ ${NUMBER} THEN ${longNumber(raw)} END END`
  );
}

/**
 * A number string too long, or with too large an exponent, for `numeric` input, as a
 * `numeric` that rounds to the same double: its first 800 significant digits, plus a
 * sticky 1 when any later digit is not 0 (no midpoint between doubles has more than
 * 768 significant digits), scaled by its decimal exponent `m`. Beyond 10^309 it is not finite (NULL, never
 * matches); below 10^-325 it rounds to 0.
 */
function longNumber(raw: string): string {
  const digits = `p[2] || coalesce(p[3], '')`;
  const exponent =
    `CASE WHEN p[5] IS NULL THEN 0 WHEN length(ltrim(p[5], '0')) > 9 THEN CASE p[4] WHEN '-' THEN -1000000000 ELSE 1000000000 END ` +
    `ELSE (p[4] || '0' || p[5])::bigint END`;
  return (
    `(SELECT CASE WHEN d = '' THEN 0 WHEN m > 308 THEN NULL WHEN m < -325 THEN 0 ` +
    `ELSE (s || '0.' || left(d, 800) || CASE WHEN rtrim(substr(d, 801), '0') = '' THEN '' ELSE '1' END || 'e' || (m + 1))::numeric END ` +
    `FROM (SELECT p[1] AS s, ltrim(${digits}, '0') AS d, ` +
    `length(p[2]) - (length(${digits}) - length(ltrim(${digits}, '0'))) - 1 + ${exponent} AS m ` +
    `FROM regexp_match(${raw}, '^(-?)([0-9]+)(?:[.]([0-9]+))?(?:[eE]([+-]?)([0-9]+))?$') AS p) AS parts)`
  );
}

/**
 * All comparisons of a number condition (see `numberBounds`) as one range of the exact
 * decimals whose doubles lie in its interval: a real rounds to at least q from the
 * midpoint below q on (that midpoint included when it rounds to q, ties going to even),
 * and to more than q from the midpoint above q. An unbounded side ends at the largest
 * finite double, whose upper midpoint is 2^1024 − 2^970, from where decimals round to
 * Infinity, which the evaluator never matches. The ends and which of them are included
 * are all bound, so the SQL is the same for every number condition; an empty interval
 * is the empty range `(0,0)`.
 */
function numberRange(tests: readonly NumberTest[], params: Parameters): string {
  const bounds = numberBounds(tests);
  let from = '0';
  let to = '0';
  let ends = '()';
  if (bounds !== undefined) {
    const range = decimalRange(bounds);
    ({ from, to } = range);
    ends = `${range.fromClosed ? '[' : '('}${range.toClosed ? ']' : ')'}`;
  }
  // Arguments are evaluated in order, so the values are bound in reading order.
  return `numrange(${params.add(from)}, ${params.add(to)}, ${params.add(ends)})`;
}

/** 2^1024 − 2^970, exactly (Postgres computes integer powers of numerics exactly): from it on, decimals round to Infinity. */
export const OVERFLOW = '(2::numeric ^ 1024 - 2::numeric ^ 970)';

// ---------------------------------------------------------------- dates

/**
 * The date syntax of reference §4 for data (see `instantOf`) as a Postgres regular
 * expression, with the ranges of months, days, hours, minutes, seconds and offsets;
 * whether the day exists in its month is checked after. The offset is optional: data
 * without one is UTC.
 */
const DATE =
  `'^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])` +
  `(T([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9]([.][0-9]{1,9})?)?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])?)?$'`;

/**
 * A date string from data as epoch milliseconds, or NULL. The instant is computed with
 * integer arithmetic from the fields (fraction truncated to milliseconds, offset
 * applied; `z` is where the offset starts, one past the end when there is none),
 * never with a cast to a date type, which would raise on `2023-02-30` and refuse
 * offsets beyond ±15:59. `->>` gives the text of any JSON value, but only a
 * JSON string can be in the date syntax, so no type check is needed. Years are shifted
 * by 400 (one Gregorian cycle, 146097 days) so that `make_date` never sees year 0; a
 * day past the end of its month rolls into the next month and fails the day check.
 */
export function instantValue(raw: string): string {
  const time =
    `substr(s, 12, 2)::int * 3600000 + substr(s, 15, 2)::int * 60000 ` +
    `+ CASE WHEN substr(s, 17, 1) = ':' THEN substr(s, 18, 2)::int * 1000 ELSE 0 END ` +
    `+ CASE WHEN substr(s, 20, 1) = '.' THEN rpad(substr(s, 21, z - 21), 3, '0')::int ELSE 0 END ` +
    `- CASE substr(s, z, 1) WHEN '+' THEN 60000 WHEN '-' THEN -60000 ELSE 0 END * ` +
    `CASE WHEN z < length(s) THEN substr(s, z + 1, 2)::int * 60 + right(s, 2)::int ELSE 0 END`;
  return (
    `CASE WHEN ${raw} ~ ${DATE} THEN (SELECT CASE WHEN extract(day FROM d) = substr(s, 9, 2)::int ` +
    `THEN (d - DATE '2370-01-01')::bigint * 86400000 + CASE WHEN length(s) = 10 THEN 0 ELSE ${time} END END ` +
    `FROM (SELECT s, make_date(substr(s, 1, 4)::int + 400, substr(s, 6, 2)::int, 1) + (substr(s, 9, 2)::int - 1) AS d, ` +
    `CASE WHEN right(s, 1) = 'Z' THEN length(s) WHEN substr(s, length(s) - 5, 1) IN ('+', '-') THEN length(s) - 5 ELSE length(s) + 1 END AS z FROM (SELECT ${raw} AS s) AS source) AS fields) END`
  );
}

/**
 * All comparisons of a date condition (see `dateBounds`) as one half-open range of
 * epoch milliseconds. A side without a bound stops at the instants the syntax can
 * denote, as `readDate` does; an empty interval is the empty range `[0,0)`.
 */
function instantRange(tests: readonly DateTest[], params: Parameters): string {
  const bounds = dateBounds(tests);
  const lo = bounds === undefined ? 0 : Math.max(bounds.lo, FIRST_MS);
  const hi = bounds === undefined ? 0 : Math.max(lo, Math.min(bounds.hi, END_MS));
  return `int8range(${params.add(lo)}, ${params.add(hi)})`;
}

// ---------------------------------------------------------------- ids

/** 2^1075: a number at most 2^-1075 from 0 rounds to the double 0. */
export const TINY_INVERSE = '2::numeric ^ 1075';

/**
 * A ref id from data as text, or NULL: a string as it is, or a JSON number whose double
 * is a safe integer, as its decimal digits. The double is found with a `float8` cast
 * only where it cannot overflow or underflow (0.5 ≤ |n| < 2^53).
 */
export function idValue(json: string, raw: string): string {
  return (
    `CASE jsonb_typeof(${json}) WHEN 'string' THEN ${raw} WHEN 'number' THEN ` +
    `(SELECT CASE WHEN abs(n) < 0.5 THEN CASE WHEN abs(n) * ${TINY_INVERSE} <= 1 THEN '0' END ` +
    `WHEN abs(n) < 9007199254740992 THEN (SELECT CASE WHEN f = trunc(f) AND abs(f) <= 9007199254740991 THEN f::bigint::text END FROM (SELECT n::float8 AS f) AS rounded) END ` +
    `FROM (SELECT (${json})::numeric AS n) AS exact) END`
  );
}

// ---------------------------------------------------------------- order

/**
 * A sort key on a `jsonb` document, read as the filters read it (reference §5): a number by
 * the double it rounds to (see `doubleRank`), a date by its instant, text by code point.
 */
export function documentKey(type: FieldType, json: string, raw: string, text: TextComparison): string[] {
  switch (type) {
    case 'number':
      return [doubleRank(numberValue(json, raw))];
    case 'date':
      // An instant the date syntax cannot denote (an offset beyond year 0000 or 9999) is no date, as in `readDate`.
      return [`(SELECT CASE WHEN t >= ${FIRST_MS} AND t < ${END_MS} THEN t END FROM (SELECT ${instantValue(raw)} AS t OFFSET 0) AS instant)`];
    case 'string':
      return textParts(stringValue(json, raw), text);
    case 'id':
      return textParts(idValue(json, raw), text);
  }
}

/**
 * An exact `numeric` that orders as the double a `numeric` rounds to (round to nearest,
 * ties to even), with equal ranks exactly where the doubles are equal, as JavaScript
 * compares the numbers it reads; NULL where the double is not finite. Two decimals that
 * round to one double tie, and the tie-breaker decides, as the input order does in
 * `sortItems`.
 *
 * Why not `n::float8`: the cast goes through the C library's `strtod`, which some
 * builds round wrongly (PGlite's rounds a negative decimal just past the midpoint of two
 * subnormals to the wrong one, or to -0), and it refuses a decimal that rounds to 0. Here the
 * rounding is done in exact arithmetic: `e` is the binary exponent of |n| (from the
 * `log` estimate, corrected to the exact power of two; at least -1022, where doubles
 * become subnormal), `k` the integer part of |n| in units of the last place 2^(e-52),
 * the rest compared with half a unit without dividing, and the rank
 * `(e + 1075) · 2^53 + units`, the units rounded and carried into the next binade at 2^53. A |n| at most 2^-1075 rounds to 0; from
 * 2^1024 − 2^970 on, to infinity.
 */
export function doubleRank(n: string): string {
  // Each step is its own subquery behind OFFSET 0, which keeps the planner from pasting
  // a step's expression into every reference to it: flattened, the steps multiply
  // (a hundred times slower, measured on PGlite).
  const steps = [
    `(SELECT ${n} AS n OFFSET 0) AS value`,
    `(SELECT abs(n) AS a OFFSET 0) AS magnitude`,
    // The estimate is only needed where the rank is: never for 0 or beyond the doubles.
    `(SELECT CASE WHEN a > 0 AND a < ${OVERFLOW} THEN floor(log(2::numeric, a))::int END AS e0 OFFSET 0) AS estimate`,
    `(SELECT greatest(-1022, CASE WHEN ${below('a', 'e0')} THEN e0 - 1 WHEN ${below('a', 'e0 + 1')} THEN e0 ELSE e0 + 1 END) AS e OFFSET 0) AS binade`,
    `(SELECT CASE WHEN e <= 52 THEN a * 2::numeric ^ (52 - e) ELSE a END AS q, CASE WHEN e <= 52 THEN 1 ELSE 2::numeric ^ (e - 52) END AS unit OFFSET 0) AS scaled`,
    `(SELECT div(q, unit) AS k, 2 * mod(q, unit) AS twice_rest OFFSET 0) AS split`,
    `(SELECT k + CASE WHEN twice_rest > unit OR (twice_rest = unit AND mod(k, 2) = 1) THEN 1 ELSE 0 END AS units OFFSET 0) AS nearest`,
  ];
  const rank = `CASE WHEN units = 0 THEN 0 WHEN units = ${TWO_53} THEN (e + 1076)::numeric * ${TWO_53} + ${TWO_52} ELSE (e + 1075)::numeric * ${TWO_53} + units END`;
  return (
    `(SELECT CASE WHEN a IS NULL OR a >= ${OVERFLOW} THEN NULL WHEN a * ${TINY_INVERSE} <= 1 THEN 0 ELSE sign(n) * ${rank} END ` +
    `FROM ${steps.join(' CROSS JOIN LATERAL ')})`
  );
}

/** `a < 2^p` for a positive numeric and an integer power, in exact arithmetic. */
function below(a: string, p: string): string {
  return `CASE WHEN ${p} >= 0 THEN ${a} < 2::numeric ^ (${p}) ELSE ${a} * 2::numeric ^ (-(${p})) < 1 END`;
}

const TWO_53 = '9007199254740992';
const TWO_52 = '4503599627370496';
