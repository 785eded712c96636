import { ownField } from '../arguments/arguments';
import { dateBounds, numberBounds } from '../filter/bounds';
import type { Condition, DateTest, NumberTest } from '../filter/filter';
import type { Field } from '../spec/spec';
import { cursorKey } from '../values/order';
import type { Constraint, Dialect, Index, KeyField } from './dialect';
import { indexedName, lastPart, quoteIdentifier, quoteQualified, type QualifiedName } from './identifier';
import type { Parameters } from './parameters';
import { nextDouble } from '../values/number';
import { foldText, textParts, textTests, type TextComparison } from './text';

/**
 * A table with a column per field. Expected column types:
 * - numbers: `float8` (double precision), compared exactly as the evaluator does, with
 *   its btree index. `numeric` and integer columns work too and keep their index; they
 *   compare as exact decimals, which agrees with the evaluator for values of at most 15
 *   significant digits, and for the shortest decimal of any double (numbers written
 *   from JS). A sort orders by the column's double (`col::float8`, no cast at all on a
 *   `float8` column), which a `numeric` column must hold: values within ±1.8e308;
 * - strings: `text` or `varchar`, with a deterministic collation (every built-in one is);
 * - ref ids: `text`; an integer column works too, since ids compare as `column::text`;
 * - dates: `timestamptz`, sorted by their instant to the millisecond, as JavaScript's
 *   `Date` holds them (a page after a cursor made from a `Date` starts after its row).
 *
 * `sqlConstraints` gives the CHECK constraints that keep out what no JavaScript value
 * is (NaN and the infinities, which the evaluator reads as no number or no date).
 */
export interface RelationalTarget {
  /**
   * The parent table as the query names it: its name (`'invoices'`, `'public.invoices'`,
   * `['public', 'invoices']`) or its alias (`'i'` in `FROM invoices i`). Columns are
   * qualified with it; it is required to filter child arrays, whose subqueries must
   * refer to the parent row unambiguously.
   */
  readonly table?: QualifiedName;
  /** The column of each filterable field, by its path: `{ totalAmount: 'total_amount', 'customerRef.id': 'customer_id' }`. */
  readonly columns: Readonly<Record<string, string>>;
  /** The child table of each child array, by the array's name: `{ lines: { table: 'invoice_lines', … } }`. */
  readonly arrays?: Readonly<Record<string, ChildTable>>;
}

/** A child table holding the elements of a child array, one row per element. */
export interface ChildTable {
  readonly table: QualifiedName;
  /** What the child table is called inside the `EXISTS` subquery; the array's name by default. */
  readonly alias?: string;
  /** The parent table's column the child rows point at, usually its primary key. */
  readonly parentKey: string;
  /** The child table's column holding the parent's key. */
  readonly foreignKey: string;
  /** The column of each element field, by its path within the element: `{ amount: 'amount', 'itemRef.id': 'item_id' }`. */
  readonly columns: Readonly<Record<string, string>>;
}

/**
 * The relational dialect (see `Dialect`): each field is its column, a sort key the
 * column's own value, so that the keyset step is the plain row comparison a Postgres user
 * writes, `((total_amount IS NULL), total_amount, id) > (false, $1, $2)`, which an index
 * on the same columns serves as one range.
 */
export function relationalDialect(target: RelationalTarget): Dialect {
  const table = target.table === undefined ? undefined : quoteQualified(target.table, 'the table');
  const orderKey = (field: KeyField, text: TextComparison): string[] => {
    const col = qualify(table, column(target.columns, field.key, field.key));
    switch (field.type) {
      case 'number':
        return [`${col}::float8`];
      case 'date':
        return [`date_trunc('milliseconds', ${col} AT TIME ZONE 'UTC')`];
      case 'string':
        return textParts(col, text);
      case 'id':
        return textParts(`${col}::text`, text);
    }
  };
  return {
    prefix: '',
    condition: (condition, text, params) => relationalCondition(target, condition, text, params),
    orderKey,
    cursorKey(field, value, text, params) {
      const key = cursorKey(value, field.type);
      if (key === undefined) return undefined;
      if (field.type === 'number') return [params.add(key, 'float8')];
      if (field.type === 'date') return [params.add(timestamptz(key as number), 'timestamp')];
      return textParts(params.add(key, 'text'), text);
    },
    filterIndexes: (table, fields, text) => relationalIndexes(table, target, fields, text),
    constraints: (table, fields) => relationalConstraints(table, target, fields),
  };
}

/**
 * The SQL of one condition on a relational target. A child-array condition is one
 * `EXISTS` over the child rows of the parent row, all its tests on the same child row.
 */
export function relationalCondition(target: RelationalTarget, condition: Condition, text: TextComparison, params: Parameters): string {
  const key = condition.path.join('.');
  const array = ownField(condition, 'array');
  if (array === undefined) {
    const table = target.table === undefined ? undefined : quoteQualified(target.table, 'the table');
    return columnTests(qualify(table, column(target.columns, key, condition.field)), condition, text, params);
  }
  const child = Object.hasOwn(target.arrays ?? {}, array) ? target.arrays![array] : undefined;
  if (child === undefined) throw new TypeError(`toSql: the target has no child table for the array "${array}" (filtered as "${condition.key}").`);
  if (target.table === undefined) {
    throw new TypeError(`toSql: filtering the array "${array}" needs the target's "table", the parent table's name or alias in the query.`);
  }
  const alias = ownField(child, 'alias') ?? array;
  if (alias === lastPart(target.table)) {
    throw new TypeError(`toSql: the child table of "${array}" needs an "alias" different from the parent table's name "${alias}".`);
  }
  const parent = quoteQualified(target.table, 'the table');
  const inner = quoteIdentifier(alias, `the alias of array "${array}"`);
  const join = `${inner}.${quoteIdentifier(child.foreignKey, `the foreign key of array "${array}"`)} = ${parent}.${quoteIdentifier(child.parentKey, `the parent key of array "${array}"`)}`;
  const tests = columnTests(qualify(inner, column(child.columns, key, condition.field)), condition, text, params);
  return `EXISTS (SELECT 1 FROM ${quoteQualified(child.table, `the table of array "${array}"`)} AS ${inner} WHERE ${join} AND ${tests})`;
}

export function column(columns: Readonly<Record<string, string>>, key: string, field: string): string {
  if (typeof columns !== 'object' || columns === null || !Object.hasOwn(columns, key)) {
    throw new TypeError(`toSql: the target has no column for the field "${field}".`);
  }
  return quoteIdentifier(columns[key], `the column of "${field}"`);
}

export function qualify(table: string | undefined, column: string): string {
  return table === undefined ? column : `${table}.${column}`;
}

function columnTests(column: string, condition: Condition, text: TextComparison, params: Parameters): string {
  switch (condition.type) {
    case 'number':
      return numberTests(column, condition.tests, params);
    case 'date':
      return dateTests(column, condition.tests, params);
    case 'string':
      return textTests(column, condition.tests, text, params).join(' AND ');
    case 'id':
      return textTests(`${column}::text`, condition.tests, text, params).join(' AND ');
  }
}

/**
 * All comparisons of a number condition as one closed interval of doubles (an open end
 * moves to the next double: a double above q is at least the next one up), bound as
 * `numeric` so that it suits any numeric column type (a `float8` column turns it back
 * into the same double, and keeps its index). Both ends are always bound, so the SQL is
 * the same for every number condition: an unbounded side ends at the largest finite
 * double, which keeps out NaN and ±Infinity (a `float8` or `numeric` column can hold
 * them, the evaluator never matches them); an empty interval is bound as 1 to 0.
 */
function numberTests(column: string, tests: readonly NumberTest[], params: Parameters): string {
  const bounds = numberBounds(tests);
  const lo = bounds === undefined ? 1 : bounds.loOpen ? nextDouble(bounds.lo, 1) : bounds.lo;
  const hi = bounds === undefined ? 0 : bounds.hiOpen ? nextDouble(bounds.hi, -1) : bounds.hi;
  return `${column} >= ${params.add(lo, 'numeric')} AND ${column} <= ${params.add(hi, 'numeric')}`;
}

/** The largest finite double, as SQL: what a sort key on a number column must lie within. */
export const MAX_DOUBLE = '1.7976931348623157e308';

/**
 * All comparisons of a date condition as one half-open interval of instants (see
 * `dateBounds`), bound as `timestamptz`. Half-open bounds at whole milliseconds also give
 * the evaluator's truncation of finer timestamps. Which sides are bound depends only on
 * the operators, never on the values; a side without a bound keeps out `±infinity`, which
 * the evaluator never matches.
 */
function dateTests(column: string, tests: readonly DateTest[], params: Parameters): string {
  // An empty interval has both sides (neither alone can be empty): bind it as [0, 0).
  const { lo, hi } = dateBounds(tests) ?? { lo: 0, hi: 0 };
  const lower = tests.some(({ op }) => op !== 'lt' && op !== 'lte')
    ? `${column} >= ${params.add(timestamptz(lo), 'timestamptz')}`
    : `${column} > '-infinity'`;
  const upper = tests.some(({ op }) => op !== 'gt' && op !== 'gte')
    ? `${column} < ${params.add(timestamptz(hi), 'timestamptz')}`
    : `${column} < 'infinity'`;
  return `${lower} AND ${upper}`;
}

/** 0001-01-01T00:00:00Z: Postgres writes the years before it as BC. */
const YEAR_ONE = -62_135_596_800_000;

/**
 * An instant (epoch ms, years 0000 to 10000) as `timestamptz` input: ISO 8601 in UTC.
 * Postgres has no year 0: the astronomical year 0 is 1 BC, the same calendar year.
 */
export function timestamptz(ms: number): string {
  const iso = new Date(ms).toISOString();
  if (ms < YEAR_ONE) return `0001${iso.slice(4)} BC`;
  return iso.startsWith('+') ? iso.slice(2) : iso;
}

/** Each field's table (the parent's, or its array's child table) and column, as `sqlIndexes` and `sqlConstraints` name them. */
function placeOf(parent: QualifiedName, target: RelationalTarget, field: Field): { table: QualifiedName; column: string } {
  if (field.array === undefined) return { table: parent, column: column(target.columns, field.path, field.path) };
  const child = Object.hasOwn(target.arrays ?? {}, field.array) ? target.arrays![field.array] : undefined;
  if (child === undefined) throw new TypeError(`sqlIndexes: the target has no child table for the array "${field.array}" (sqlConstraints and sqlIndexes need one for each).`);
  return { table: child.table, column: column(child.columns, field.path.slice(field.array.length + 1), field.path) };
}

/** Each field's column as its filters compare it (ids as `col::text`, text folded with `caseInsensitive`), and on each child table its foreign key. */
function relationalIndexes(parent: QualifiedName, target: RelationalTarget, fields: readonly Field[], text: TextComparison): Index[] {
  const indexes: Index[] = [];
  for (const field of fields) {
    const { table, column: col } = placeOf(parent, target, field);
    if (field.array !== undefined) {
      const { foreignKey } = target.arrays![field.array]!;
      indexes.push({ table, name: `${field.array}_${foreignKey.replaceAll('"', '')}`, expression: quoteIdentifier(foreignKey, `the foreign key of array "${field.array}"`) });
    }
    const compared = field.type === 'string' ? foldText(col, text) : field.type === 'id' ? foldText(`${col}::text`, text) : col;
    indexes.push({ table, name: indexedName(field, text), expression: compared === col ? col : `(${compared})` });
  }
  return indexes;
}

/**
 * What no JavaScript value is, kept out of the columns: a number that is not a finite
 * double (NaN, ±Infinity; a `numeric` past the doubles fails its cast to `float8`), a
 * date that is not finite. Strings and ids need nothing.
 */
function relationalConstraints(parent: QualifiedName, target: RelationalTarget, fields: readonly Field[]): Constraint[] {
  const constraints: Constraint[] = [];
  for (const field of fields) {
    if (field.type !== 'number' && field.type !== 'date') continue;
    const { table, column: col } = placeOf(parent, target, field);
    const check = field.type === 'number' ? `${col}::float8 BETWEEN -${MAX_DOUBLE} AND ${MAX_DOUBLE}` : `isfinite(${col})`;
    constraints.push({ table, name: field.path, check });
  }
  return constraints;
}
