import { expectSchema } from '../spec/guard';
import { ownField, ownOptions, wrongArgument } from '../arguments/arguments';
import type { Field, Schema } from '../spec/spec';
import type { Dialect, Index } from './dialect';
import { dialectOf, type SqlTarget } from './target';
import { indexedName, lastPart, quoteIdentifier, quoteQualified, type QualifiedName } from './identifier';
import { leadingKey } from './order';
import { textComparison, type SqlOptions } from './postgres';
import type { TextComparison } from './text';

/** Options of `sqlIndexes`: the `caseInsensitive` and `caseFolding` the queries will use. */
export type IndexOptions = Pick<SqlOptions, 'caseInsensitive' | 'caseFolding'>;

/**
 * The `CREATE INDEX IF NOT EXISTS` statements that let Postgres serve every filterable
 * and sortable field of a schema through `toSql` on this target (reference §14.1):
 *
 * - relational: each field's column as its filters compare it (ids as `col::text`),
 *   and on each child table its foreign key and its field columns;
 * - typed document (`{ document, typed: true }`): each top-level field's typed
 *   expression (see `typedComparand`), which serves its filters, and one GIN
 *   `jsonb_path_ops` index on the column, which serves string and id equality anywhere
 *   in the document, child arrays included;
 * - on both, the sort indexes (`sortIndexes`);
 * - with `caseInsensitive` (and the `caseFolding` given to `toSql`), string and id
 *   expressions are the folded ones the queries then use.
 *
 * A sort index holds the order `toSql` writes (see `leadingKey`): the key's NULL flag,
 * then the key. It is ascending: it serves an ascending sort, and a descending one only
 * through a sort of the matches; with cursor paging, each sortable field also has both
 * directions followed by the cursor key.
 *
 * The target must name the real table (`table`), not an alias: expressions are written
 * unqualified, as an index holds them. The untyped document target reads values no
 * index can serve: it is a `TypeError`, as is a field the target does not map. Names
 * are derived from the table and the field, so running the statements again is a no-op.
 */
export function sqlIndexes(schema: Schema, target: SqlTarget, options?: IndexOptions): string[] {
  expectSchema('sqlIndexes', schema);
  options = ownOptions('sqlIndexes', options, INDEX_OPTIONS);
  const text = textComparison(options, undefined);
  const { table, dialect, fields } = setUp('sqlIndexes', schema, target);
  const indexes = dialect.filterIndexes(table, fields, text);
  const cursor = schema.paging?.cursor === undefined ? undefined : schema.fields.get(schema.paging.cursor.key);
  indexes.push(...sortIndexes(table, dialect, fields, text, cursor));
  // One statement per table and expression: a sort key is often a filter's expression too.
  const statements = new Map<string, string>();
  for (const { table, name, expression, method } of indexes) {
    const on = `${quoteQualified(table, 'the table')}${method === undefined ? '' : ` USING ${method}`} (${expression})`;
    const named = objectName(lastPart(table), dialect.prefix + name);
    if (!statements.has(on)) statements.set(on, `CREATE INDEX IF NOT EXISTS ${quoteIdentifier(named, 'an index name')} ON ${on}`);
  }
  return [...statements.values()];
}

const INDEX_OPTIONS = ['caseInsensitive', 'caseFolding'];

/**
 * What `sqlIndexes` and `sqlConstraints` (`fn`) work with: the target's real table, its
 * dialect with expressions unqualified (an index or a CHECK names the columns of its own
 * table), and the schema's fields that are still filterable.
 */
export function setUp(fn: string, schema: Schema, target: SqlTarget): { table: QualifiedName; dialect: Dialect; fields: Field[] } {
  if (typeof target !== 'object' || target === null || ownField(target, 'table') === undefined) {
    wrongArgument(fn, 'the target', `a target of toSql with its "table", the table's real name`, target);
  }
  // Its own properties but the table: the dialect's expressions are unqualified, as an index or a CHECK holds them.
  const { table, ...unqualified } = target;
  const fields = [...schema.fields.values()].filter((field) => field.removed === undefined);
  return { table: table!, dialect: dialectOf(fn, unqualified as SqlTarget), fields };
}

/**
 * The sort indexes: on each sortable field's key, in the order `toSql` writes (its NULL
 * flag, then the key's parts: `leadingKey`), ascending. With cursor paging (reference
 * §14.2), every sort ends with the cursor key: then each sortable field's key in both
 * directions, followed by the cursor key's parts, so that a page after a cursor is one
 * index range from the cursor on (`keysetPredicate`), not a scan of the pages before it;
 * and the cursor key alone, which serves the sort without `orderBy`.
 */
function sortIndexes(table: QualifiedName, dialect: Dialect, fields: readonly Field[], text: TextComparison, cursor?: Field): Index[] {
  const keyOf = (field: Field) => dialect.orderKey({ key: field.path, path: field.names, type: field.type }, text);
  const elements = (field: Field, direction: 'asc' | 'desc', last: string[] = []) => [...leadingKey(keyOf(field), direction, element), ...last].join(', ');
  const sortable = fields.filter((f) => f.sortable);
  if (cursor === undefined) return sortable.map((field) => ({ table, name: indexedName(field, text, '_sort'), expression: elements(field, 'asc') }));
  const last = keyOf(cursor).map(element);
  const indexes: Index[] = [{ table, name: indexedName(cursor, text, '_sort'), expression: elements(cursor, 'asc') }];
  for (const field of sortable.filter((f) => f !== cursor)) {
    indexes.push(
      { table, name: indexedName(field, text, '_cursor'), expression: elements(field, 'asc', last) },
      { table, name: indexedName(field, text, '_cursor_desc'), expression: elements(field, 'desc', last) },
    );
  }
  return indexes;
}

const QUOTED = /^"(?:[^"]|"")*"$/;

/** An index element: a column as it is, any other expression in parentheses, as `CREATE INDEX` wants them. */
function element(expression: string): string {
  return QUOTED.test(expression) ? expression : `(${expression})`;
}

/**
 * `table_name_qsf`, Postgres's 63 bytes at most: a longer one is cut and ends with a
 * hash of the whole, so that two long names stay apart and each run makes the same.
 */
export function objectName(table: string, name: string): string {
  const full = `${table}_${name.replaceAll('.', '_')}_qsf`;
  if (new TextEncoder().encode(full).length <= 63) return full;
  let hash = 0x811c9dc5;
  for (const unit of full) hash = Math.imul(hash ^ unit.codePointAt(0)!, 0x01000193) >>> 0;
  const suffix = `_${hash.toString(16).padStart(8, '0')}`;
  const cut = [...full];
  while (new TextEncoder().encode(cut.join('')).length > 63 - suffix.length) cut.pop();
  return cut.join('') + suffix;
}
