import { expectSort, resultHint } from '../check/arguments';
import type { Filter } from '../check/filter';
import type { CompileOptions } from '../eval/compile';
import { OPERATORS } from '../syntax/ast';
import { documentCondition, END_MS, FIRST_MS, type DocumentTarget } from './document';
import { orderBy } from './order';
import { numbered, Parameters, templated, type SqlValue } from './parameters';
import { relationalCondition, type RelationalTarget } from './relational';
import { CASE_FOLDINGS, type CaseFolding, type TextComparison } from './text';

/** Where the items are: a table with a column per field, or a `jsonb` column of whole items. */
export type SqlTarget = RelationalTarget | DocumentTarget;

/** Options of `toSql`: `caseInsensitive` of `compile`, with the same meaning, where the placeholders start, how case folds, and the tie-breaker. */
export interface SqlOptions extends Pick<CompileOptions, 'caseInsensitive'> {
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
  checkOptions(options, SQL_OPTIONS);
  const first = options?.firstParam ?? 1;
  if (!Number.isSafeInteger(first) || first < 1) throw new TypeError(`toSql: firstParam must be a positive integer, not ${shown(first)}.`);
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
  if ((options as SqlOptions | undefined)?.firstParam !== undefined) {
    throw new TypeError('toSqlTemplate: firstParam does not apply: the sql tag that takes the template numbers the placeholders.');
  }
  if ((options as SqlOptions | undefined)?.tieBreaker !== undefined) {
    throw new TypeError('toSqlTemplate: tieBreaker does not apply: the template is the WHERE expression; take the ORDER BY clause from toSql.');
  }
  checkOptions(options, TEMPLATE_OPTIONS, 'toSqlTemplate');
  const { text, values } = translate(filter, target, options);
  const parts = templated(text, values);
  const strings = Object.freeze(Object.assign(parts.strings, { raw: Object.freeze([...parts.strings]) }));
  return [strings, ...parts.values];
}

/** The SQL with parameter markers (see `Parameters`) and the ORDER BY clause, after checking every argument. */
function translate(filter: Filter, target: SqlTarget, options: SqlOptions | undefined): { text: string; values: SqlValue[]; orderBy: string } {
  checkFilter(filter);
  if (typeof target !== 'object' || target === null) {
    throw new TypeError(`toSql: the target must be { columns, table?, arrays? } for a table, or { document, table? } for a jsonb column, not ${shown(target)}.`);
  }
  const tieBreaker = options?.tieBreaker === undefined ? [] : typeof options.tieBreaker === 'string' ? [options.tieBreaker] : options.tieBreaker;
  if (!Array.isArray(tieBreaker)) throw new TypeError('toSql: tieBreaker must be a column name or an array of column names.');
  const params = new Parameters();
  const text = textComparison(options);
  const conditions = filter.conditions.map((condition) =>
    'document' in target ? documentCondition(target, condition, text, params) : relationalCondition(target, condition, text, params),
  );
  return {
    text: conditions.length === 0 ? 'TRUE' : `(${conditions.join(' AND ')})`,
    values: params.values,
    // A hand-built filter of the shape before sorting has no sort: nothing to order by.
    orderBy: orderBy(filter.sort ?? [], target, text, tieBreaker),
  };
}

/** The options of `toSql`, and those of `toSqlTemplate`, whose template has no placeholders to number and no ORDER BY. */
const SQL_OPTIONS = ['caseInsensitive', 'caseFolding', 'firstParam', 'tieBreaker'];
const TEMPLATE_OPTIONS = ['caseInsensitive', 'caseFolding'];

/** An options object of known names only: a misspelt `tiebreaker` would leave the order without its tie-breaker, without a word. */
function checkOptions(options: unknown, known: readonly string[], fn = 'toSql'): asserts options is SqlOptions | undefined {
  if (options === undefined) return;
  if (!isObject(options)) throw new TypeError(`${fn}: options must be an object, not ${shown(options)}.`);
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw new TypeError(`${fn}: unknown option ${JSON.stringify(key)}; the options are ${known.join(', ')}.`);
  }
}

function textComparison(options: SqlOptions | undefined): TextComparison {
  const caseInsensitive = options?.caseInsensitive;
  const folding = options?.caseFolding ?? 'pg_c_utf8';
  if (caseInsensitive !== undefined && typeof caseInsensitive !== 'boolean') {
    throw new TypeError(`toSql: caseInsensitive must be a boolean, not ${shown(caseInsensitive)}.`);
  }
  if (!(CASE_FOLDINGS as readonly unknown[]).includes(folding)) {
    throw new TypeError(`toSql: caseFolding must be one of ${CASE_FOLDINGS.map((f) => `"${f}"`).join(', ')}, not ${shown(folding)}.`);
  }
  return caseInsensitive === true ? { caseInsensitive, folding } : { caseInsensitive: false };
}

// ---------------------------------------------------------------- hand-built filters

/**
 * A filter from `check` or `validate` is well formed; one built by hand may not be, and
 * anything it holds that the SQL would not mean is refused here, before any SQL is
 * written: never `undefined` in the text, never a test silently dropped.
 */
function checkFilter(filter: unknown): asserts filter is Filter {
  if (!isObject(filter) || !Array.isArray(filter.conditions)) {
    const hint = resultHint(filter);
    throw new TypeError(`toSql: the filter must be a checked Filter (what check or validate returns), not ${hint === undefined ? shown(filter) : 'a Result'}.${hint === undefined ? '' : ` ${hint}`}`);
  }
  filter.conditions.forEach(checkCondition);
  // A hand-built filter of the shape before sorting has no sort: nothing to order by.
  if (filter.sort !== undefined) expectSort('toSql', filter.sort);
}

const TYPES = ['number', 'date', 'string', 'id'];

function checkCondition(condition: unknown, index: number): void {
  if (!isObject(condition)) throw new TypeError(`toSql: condition ${index} of the filter must be an object, not ${shown(condition)}.`);
  const { type, key, path, array, tests } = condition;
  const name = typeof key === 'string' ? `the condition on ${JSON.stringify(key)}` : `condition ${index}`;
  if (typeof key !== 'string') throw new TypeError(`toSql: ${name} needs its key, the parameter's name as sent.`);
  if (!TYPES.includes(type as string)) throw new TypeError(`toSql: ${name} has the type ${shown(type)}; expected "number", "date", "string" or "id".`);
  if (!Array.isArray(path) || path.length === 0 || !path.every((part) => typeof part === 'string')) {
    throw new TypeError(`toSql: ${name} needs a path, a non-empty array of property names.`);
  }
  if (array !== undefined && typeof array !== 'string') throw new TypeError(`toSql: the array of ${name} must be a name, not ${shown(array)}.`);
  // validate never makes one; a condition without tests would mean "is a value of the type".
  if (!Array.isArray(tests) || tests.length === 0) throw new TypeError(`toSql: ${name} has no tests.`);
  for (const test of tests) {
    const problem = isObject(test) ? testProblem(type as string, test) : 'is not an object';
    if (problem !== undefined) throw new TypeError(`toSql: a test of ${name} ${problem}: ${shown(test)}.`);
  }
}

/** What is wrong with one test of a condition of this type, if anything. */
function testProblem(type: string, { op, value, segments }: Record<string, unknown>): string | undefined {
  if (type === 'string' || type === 'id') {
    if (op === 'eq') return typeof value === 'string' ? undefined : 'needs a string value';
    if (op === 'like') return Array.isArray(segments) && segments.length > 0 && segments.every((s) => typeof s === 'string') ? undefined : 'needs segments, an array of strings';
    return `has the operator ${shown(op)}; a ${type} test is "eq" or "like"`;
  }
  if (!(OPERATORS as readonly unknown[]).includes(op)) return `has the operator ${shown(op)}; expected one of ${OPERATORS.join(', ')}`;
  if (type === 'number') return typeof value === 'number' && Number.isFinite(value) ? undefined : 'needs a finite number value';
  if (!isObject(value)) return 'needs a DateRange value';
  const { start, end } = value;
  const instant = (t: unknown) => Number.isSafeInteger(t) && (t as number) >= FIRST_MS && (t as number) <= END_MS;
  return instant(start) && instant(end) && (start as number) < (end as number) ? undefined : 'needs a DateRange value: whole milliseconds from 0000-01-01 to 10000-01-01, start before end';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** A value for a message: strings quoted, objects named by kind (they may be large or cyclic). */
function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object' && value !== null) {
    try {
      const json = JSON.stringify(value);
      return json.length <= 120 ? json : 'an object';
    } catch {
      return 'an object';
    }
  }
  return String(value);
}
