import type { SortField } from '../filter/filter';
import { documentColumn, END_MS, FIRST_MS, idValue, instantValue, numberValue, OVERFLOW, stringValue, TINY_INVERSE, valueAt, type DocumentTarget } from './document';
import { quoteIdentifier, quoteQualified } from './identifier';
import { column, MAX_DOUBLE, qualify, type RelationalTarget } from './relational';
import { textKey, type TextComparison } from './text';
import { typedValue } from './typed';

/**
 * The `ORDER BY` clause of a checked filter's sort (reference §9), with `sortItems`' meaning
 * on the target's rows: each key's value read as its type (a missing, mistyped or
 * non-finite value is NULL), NULLs last in both directions, text by code point
 * (`COLLATE "C"`, on the folded text with `caseInsensitive`), then the caller's
 * tie-breaker columns, ascending, where `sortItems` keeps the input order. Empty when
 * there is nothing to order by. The clause binds no values.
 *
 * The first key is ordered by its NULL flag first (see `leadingKey`), the order
 * `sqlIndexes`' sort and cursor indexes hold.
 */
export function orderBy(sort: readonly SortField[], target: RelationalTarget | DocumentTarget, text: TextComparison, tieBreaker: readonly string[]): string {
  const table = target.table === undefined ? undefined : quoteQualified(target.table, 'the table');
  const keys = sort.map((field, i) => {
    const key = sortKey(target, field, text);
    return i === 0 ? leadingKey(key, field.direction).join(', ') : orderedKey(key, field.direction);
  });
  for (const name of tieBreaker) keys.push(`${qualify(table, quoteIdentifier(name, 'a tie-breaker column'))} ASC`);
  return keys.length === 0 ? '' : `ORDER BY ${keys.join(', ')}`;
}

/** A key in a direction, NULLs last: one `ORDER BY` item, or one index element. */
function orderedKey(key: string, direction: SortField['direction']): string {
  return `${key} ${direction === 'desc' ? 'DESC' : 'ASC'} NULLS LAST`;
}

/**
 * The first key of a sort, NULLs last, as two items: its NULL flag, then the key, both in
 * the key's direction (`(k IS NULL) ASC, k ASC` or `(k IS NOT NULL) DESC, k DESC`). The
 * order is the same as `k ASC|DESC NULLS LAST`; written so, a page after a cursor can
 * start at the cursor in an index on these two and the cursor key (`keysetStart`, one row
 * comparison), where "after v, or NULL" is no range of an index on the key alone.
 */
export function leadingKey(key: string, direction: SortField['direction'], element: (expression: string) => string = (expression) => expression): string[] {
  return [`(${nullFlag(key, direction)}) ${direction === 'desc' ? 'DESC' : 'ASC'}`, orderedKey(element(key), direction)];
}

/** The NULL flag of a leading key: what orders its NULLs last in its direction. */
export function nullFlag(key: string, direction: SortField['direction']): string {
  return `${key} ${direction === 'desc' ? 'IS NOT NULL' : 'IS NULL'}`;
}

/** The expression one sort key orders by, before its direction: what `sqlIndexes` indexes to serve the sort. */
export function sortKey(target: RelationalTarget | DocumentTarget, field: Pick<SortField, 'key' | 'path' | 'type'>, text: TextComparison): string {
  if ('document' in target) return documentKey(target, field, text);
  return relationalKey(target, target.table === undefined ? undefined : quoteQualified(target.table, 'the table'), field, text);
}

/**
 * A sort key on a relational column. A number outside the finite doubles (NaN, ±Infinity
 * in a `float8` or `numeric` column) and an infinite timestamp are NULL, as `sortItems`
 * never reads them as values. A number is ordered as a `float8`, the double `sortItems`
 * compares, whatever the column's type: so a cursor's value, bound as `numeric`, is cast
 * to the key's type in the keyset predicate, never the key to the value's, and an index
 * on the key serves the page's start on an integer column too.
 */
function relationalKey(target: RelationalTarget, table: string | undefined, field: Pick<SortField, 'key' | 'type'>, text: TextComparison): string {
  const col = qualify(table, column(target.columns, field.key, field.key));
  switch (field.type) {
    case 'number':
      return `CASE WHEN ${col} BETWEEN -${MAX_DOUBLE} AND ${MAX_DOUBLE} THEN ${col}::float8 END`;
    case 'date':
      return `CASE WHEN isfinite(${col}) THEN ${col} END`;
    case 'string':
      return textKey(col, text);
    case 'id':
      return textKey(`${col}::text`, text);
  }
}

/** A sort key on a `jsonb` document, read as the filters read it (a number by the double it rounds to, see `doubleRank`). */
function documentKey(target: DocumentTarget, field: Pick<SortField, 'path' | 'type'>, text: TextComparison): string {
  const document = documentColumn(target);
  // The typed target sorts by the expression it filters on, which an index can serve.
  if (target.typed === true) return typedValue(document, field.path, field.type, text);
  const { json, raw } = valueAt(document, field.path);
  switch (field.type) {
    case 'number':
      return doubleRank(numberValue(json, raw));
    case 'date':
      // An instant the date syntax cannot denote (an offset beyond year 0000 or 9999) is no date, as in `readDate`.
      return `(SELECT CASE WHEN t >= ${FIRST_MS} AND t < ${END_MS} THEN t END FROM (SELECT ${instantValue(raw)} AS t OFFSET 0) AS instant)`;
    case 'string':
      return textKey(stringValue(json, raw), text);
    case 'id':
      return textKey(idValue(json, raw), text);
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
 * builds (PGlite's, on a libc with a wider `long double`) round twice, getting decimals
 * within 2^-113 of a midpoint wrong, and it refuses a decimal that rounds to 0. Here the
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
