import type { Filter } from '../check/filter';
import type { CompileOptions } from '../eval/compile';
import { documentCondition, type DocumentTarget } from './document';
import { quoteIdentifier } from './identifier';
import { orderBy } from './order';
import { Parameters, type SqlValue } from './parameters';
import { relationalCondition, type RelationalTarget } from './relational';
import type { TextComparison } from './text';

/** Where the items are: a table with a column per field, or a `jsonb` column of whole items. */
export type SqlTarget = RelationalTarget | DocumentTarget;

/** Options of `toSql`: those of `compile`, with the same meaning, and where the placeholders start. */
export interface SqlOptions extends CompileOptions {
  /** The number of the first placeholder (default 1): with 3 the SQL uses `$3`, `$4`, …, to follow a query's own parameters. */
  readonly firstParam?: number;
  /**
   * The collation under which `lower()` folds case for `caseInsensitive`. The default,
   * `pg_c_utf8` (Postgres 17 and later), maps each code point to its simple lower case,
   * which is exactly `foldCase`. With `null`, `lower()` runs in the column's own
   * collation, for older servers: ASCII still agrees, other letters depend on the locale.
   */
  readonly foldCollation?: string | null;
  /**
   * Columns that break ties of the sort, ascending, after the filter's own keys: a
   * unique key such as `'id'` (or several), so that the order is total and paging is
   * stable, as `sortItems` keeps the input order. Qualified with the target's table.
   */
  readonly tieBreaker?: string | readonly string[];
}

/**
 * A parameterized SQL expression: `text` with `$n` placeholders, and the values to bind
 * to them, in order; and the `ORDER BY` clause of the filter's sort, which binds nothing.
 */
export interface SqlQuery {
  readonly text: string;
  readonly values: SqlValue[];
  /** `ORDER BY …` with the sort keys and the tie-breaker, or `''` when there is neither. */
  readonly orderBy: string;
}

/**
 * Translates a checked filter into a boolean Postgres expression for a `WHERE` clause,
 * with the evaluator's meaning (SPEC §5, `compile`) on the target's rows, and its sort
 * into an `ORDER BY` clause with `sortItems`' meaning (SPEC §9). Every value
 * is a bound parameter; identifiers come only from the target and are quoted. A filter
 * with no conditions is `TRUE`. A field the filter uses but the target does not map (or
 * a hand-built condition without tests) is a programmer error: a `TypeError`.
 *
 * The expression is NULL, not false, for some rows that do not match: use it in
 * `WHERE` (or wrap it in `(…) IS TRUE` before negating it). It needs Postgres 11 or
 * later, and 17 or later for `caseInsensitive` with the default `foldCollation`.
 */
export function toSql(filter: Filter, target: SqlTarget, options?: SqlOptions): SqlQuery {
  const first = options?.firstParam ?? 1;
  if (!Number.isSafeInteger(first) || first < 1) throw new TypeError(`toSql: firstParam must be a positive integer, not ${first}.`);
  if (typeof target !== 'object' || target === null) throw new TypeError('toSql: the target must be an object.');
  const params = new Parameters(first);
  const text = textComparison(options);
  const conditions = filter.conditions.map((condition) => {
    // validate never makes one; a hand-built condition without tests would mean "is a value of the type".
    if (condition.tests.length === 0) throw new TypeError(`toSql: the condition on "${condition.key}" has no tests.`);
    return 'document' in target ? documentCondition(target, condition, text, params) : relationalCondition(target, condition, text, params);
  });
  const tieBreaker = options?.tieBreaker === undefined ? [] : typeof options.tieBreaker === 'string' ? [options.tieBreaker] : options.tieBreaker;
  if (!Array.isArray(tieBreaker)) throw new TypeError('toSql: tieBreaker must be a column name or an array of column names.');
  const sort = Array.isArray(filter.sort) ? filter.sort : [];
  return {
    text: conditions.length === 0 ? 'TRUE' : `(${conditions.join(' AND ')})`,
    values: params.values,
    orderBy: orderBy(sort, target, text, tieBreaker),
  };
}

function textComparison(options: SqlOptions | undefined): TextComparison {
  if (options?.caseInsensitive !== true) return { caseInsensitive: false };
  const collation = options.foldCollation === undefined ? 'pg_c_utf8' : options.foldCollation;
  return { caseInsensitive: true, collation: collation === null ? null : quoteIdentifier(collation, 'foldCollation') };
}
