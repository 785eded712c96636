import { expectFilter, expectSort } from '../filter/guard';
import { ownField, ownOptions, wrongArgument } from '../arguments/arguments';
import type { CaseOptions, Filter } from '../filter/filter';
import { dialectOf, type SqlTarget } from './target';
import { keysetPredicate } from './keyset';
import { orderBy } from './order';
import { numbered, Parameters, templated, type SqlValue } from './parameters';
import { CASE_FOLDINGS, type CaseFolding, type TextComparison } from './text';

export type { SqlTarget };

/** Options of `toSql`: `caseInsensitive` of `compile`, with the same meaning, where the placeholders start, how case folds, and the tie-breaker. */
export interface SqlOptions extends CaseOptions {
  /** The number of the first placeholder (default 1): with 3 the SQL uses `$3`, `$4`, …, to follow a query's own parameters. */
  readonly firstParam?: number;
  /**
   * How `caseInsensitive` folds case in the database (see `CASE_FOLDINGS`): `pg_c_utf8`
   * (the default; Postgres 17 and later), `icu` (a server with ICU), or `ascii` (any
   * server; only `A`–`Z` fold). `detectCaseFolding(client)` tells which a server supports.
   */
  readonly caseFolding?: CaseFolding;
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
 * A SQL expression as the arguments of a template tag: the texts between the values,
 * then the values. Query builders' `sql` tags take it as it is:
 * `sql(...toSqlTemplate(filter, target))` (Kysely, Drizzle), and number the
 * placeholders themselves.
 */
export type SqlTemplate = [strings: TemplateStringsArray, ...values: SqlValue[]];

/**
 * Translates a checked filter into a boolean Postgres expression for a `WHERE` clause,
 * with the evaluator's meaning (reference §5, `compile`) on the target's rows, and its sort
 * into an `ORDER BY` clause with `sortItems`' meaning (reference §9). Every value
 * is a bound parameter; identifiers come only from the target and are quoted. The
 * comparisons of one number or date parameter are merged into one interval, as
 * `compile` merges them, so the values bound are at most 3 per such parameter, and the
 * text depends only on the filter's shape, never on its values. A filter with no
 * conditions is `TRUE`.
 *
 * Programmer errors are `TypeError`s: arguments of the wrong kind, a field the filter
 * uses but the target does not map, a hand-built condition of an unknown type, operator
 * or value, or without tests.
 *
 * The expression is NULL, not false, for some rows that do not match: use it in
 * `WHERE` (or wrap it in `(…) IS TRUE` before negating it). It runs on Postgres 13 and
 * later; `caseInsensitive` needs a `caseFolding` the server supports.
 */
export function toSql(filter: Filter, target: SqlTarget, options?: SqlOptions): SqlQuery {
  options = ownOptions('toSql', options, SQL_OPTIONS);
  const first = options?.firstParam ?? 1;
  if (!Number.isSafeInteger(first) || first < 1) wrongArgument('toSql', '"firstParam"', 'a positive integer', first);
  const { text, values, orderBy } = translate(filter, target, options);
  return { text: numbered(text, first), values, orderBy };
}

/**
 * `toSql`'s `WHERE` expression as template-tag arguments (see `SqlTemplate`), for a
 * query builder's `sql` tag, which numbers the placeholders itself:
 * `.where(sql(...toSqlTemplate(filter, target)))`. Same meaning, same checks and errors
 * as `toSql`. (Its `ORDER BY` binds no values: take it from `toSql`.)
 */
export function toSqlTemplate(filter: Filter, target: SqlTarget, options?: Omit<SqlOptions, 'firstParam' | 'tieBreaker'>): SqlTemplate {
  if (options !== undefined && ownField(options as SqlOptions, 'firstParam') !== undefined) {
    throw new TypeError('toSqlTemplate: firstParam does not apply: the sql tag that takes the template numbers the placeholders.');
  }
  if (options !== undefined && ownField(options as SqlOptions, 'tieBreaker') !== undefined) {
    throw new TypeError('toSqlTemplate: tieBreaker does not apply: the template is the WHERE expression; take the ORDER BY clause from toSql.');
  }
  options = ownOptions('toSqlTemplate', options, TEMPLATE_OPTIONS);
  const { text, values } = translate(filter, target, options);
  const parts = templated(text, values);
  const strings = Object.freeze(Object.assign(parts.strings, { raw: Object.freeze([...parts.strings]) }));
  return [strings, ...parts.values];
}

/** The SQL with parameter markers (see `Parameters`) and the ORDER BY clause, after checking every argument. */
function translate(filter: Filter, target: SqlTarget, options: SqlOptions | undefined): { text: string; values: SqlValue[]; orderBy: string } {
  expectFilter('toSql', filter);
  // A hand-built filter of the shape before sorting has no sort: nothing to order by.
  const sort = ownField(filter, 'sort');
  if (sort !== undefined) expectSort('toSql', sort);
  const dialect = dialectOf('toSql', target);
  const tieBreaker = options?.tieBreaker === undefined ? [] : typeof options.tieBreaker === 'string' ? [options.tieBreaker] : options.tieBreaker;
  if (!Array.isArray(tieBreaker)) wrongArgument('toSql', '"tieBreaker"', 'a column name or an array of column names', tieBreaker);
  const params = new Parameters();
  const text = textComparison(options, ownField(filter, 'caseInsensitive'));
  const conditions = filter.conditions.map((condition) => dialect.condition(condition, text, params));
  // A cursor page: the rows after the cursor, in the order below (its keys end with the cursor key).
  const page = ownField(filter, 'page');
  const after = page === undefined ? undefined : ownField(page, 'after');
  if (after !== undefined) conditions.push(keysetPredicate(filter.sort, after.values, dialect, text, params));
  return {
    text: conditions.length === 0 ? 'TRUE' : `(${conditions.join(' AND ')})`,
    values: params.values,
    // A hand-built filter of the shape before sorting has no sort: nothing to order by.
    orderBy: orderBy(sort ?? [], dialect, text, Object.hasOwn(target, 'table') ? target.table : undefined, tieBreaker),
  };
}

/** The options of `toSql`, and those of `toSqlTemplate`, whose template has no placeholders to number and no ORDER BY. */
const SQL_OPTIONS = ['caseInsensitive', 'caseFolding', 'firstParam', 'tieBreaker'];
const TEMPLATE_OPTIONS = ['caseInsensitive', 'caseFolding'];

/** How text compares: the option, else the filter's own `caseInsensitive`, else case-sensitively. */
export function textComparison(options: SqlOptions | undefined, filterCase: boolean | undefined): TextComparison {
  const caseInsensitive = options?.caseInsensitive ?? filterCase;
  const folding = options?.caseFolding ?? 'pg_c_utf8';
  if (caseInsensitive !== undefined && typeof caseInsensitive !== 'boolean') {
    wrongArgument('toSql', '"caseInsensitive"', 'true or false', caseInsensitive);
  }
  if (!(CASE_FOLDINGS as readonly unknown[]).includes(folding)) {
    wrongArgument('toSql', '"caseFolding"', `one of ${CASE_FOLDINGS.map((f) => `"${f}"`).join(', ')}`, folding);
  }
  return caseInsensitive === true ? { caseInsensitive, folding } : { caseInsensitive: false };
}
