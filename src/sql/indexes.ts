import { expectSchema } from '../schema/guard';
import { ownCopy, ownField, ownOptions, wrongArgument } from '../arguments/arguments';
import type { Field, Schema } from '../schema/define';
import { lastPart, quoteIdentifier, quoteQualified, type QualifiedName } from './identifier';
import type { DocumentTarget } from './document';
import { leadingKey, sortKey } from './order';
import { textComparison, type SqlOptions, type SqlTarget } from './postgres';
import { column, type RelationalTarget } from './relational';
import { foldText, type TextComparison } from './text';
import { typedComparand } from './typed';

/** Options of `sqlIndexes`: the `caseInsensitive` and `caseFolding` the queries will use. */
export type IndexOptions = Pick<SqlOptions, 'caseInsensitive' | 'caseFolding'>;

/**
 * The `CREATE INDEX IF NOT EXISTS` statements that let Postgres serve every filterable
 * and sortable field of a schema through `toSql` on this target (reference §14.1):
 *
 * - relational: each field's column as its filters compare it (ids as `col::text`),
 *   and on each child table its foreign key and its field columns;
 * - on both, the sort indexes (`sortIndexes`);
 * - typed document (`{ document, typed: true }`): each top-level field's typed
 *   expression (see `typedComparand`), which serves its filters, and one GIN
 *   `jsonb_path_ops` index on the column, which serves string and id equality anywhere
 *   in the document, child arrays included (their other tests are not served by any
 *   index of a document: a relational child table is);
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
  if (typeof target !== 'object' || target === null || ownField(target, 'table') === undefined) {
    wrongArgument('sqlIndexes', 'the target', 'a target of toSql with its "table", the table\'s real name', target);
  }
  target = ownCopy(target);
  const text = textComparison(options, undefined);
  const fields = [...schema.fields.values()].filter((field) => field.removed === undefined);
  const indexes = 'document' in target ? documentIndexes(target, fields, text) : relationalIndexes(target, fields, text);
  const cursor = schema.paging?.cursor === undefined ? undefined : schema.fields.get(schema.paging.cursor.key);
  indexes.push(...sortIndexes(target, fields, text, cursor));
  // A document's indexes are named by its column too: a relational index of the same
  // field on the same table must not stand in for one (IF NOT EXISTS takes any by name).
  const prefix = 'document' in target ? `${target.document}_` : '';
  // One statement per table and expression: a sort key is often a filter's expression too.
  const statements = new Map<string, string>();
  for (const { table, name, expression, method } of indexes) {
    const on = `${quoteQualified(table, 'the table')}${method === undefined ? '' : ` USING ${method}`} (${expression})`;
    const named = indexName(lastPart(table), prefix + name);
    if (!statements.has(on)) statements.set(on, `CREATE INDEX IF NOT EXISTS ${quoteIdentifier(named, 'an index name')} ON ${on}`);
  }
  return [...statements.values()];
}

const INDEX_OPTIONS = ['caseInsensitive', 'caseFolding'];

/**
 * A field's part of an index name; `_ci_` and the folding where its expression is folded,
 * which must be named apart from the plain one and the other foldings', or IF NOT EXISTS would take one for the other.
 */
function nameOf(field: Field, text: TextComparison, purpose = ''): string {
  const folded = text.caseInsensitive && (field.type === 'string' || field.type === 'id');
  return `${field.path}${purpose}${folded ? `_ci_${text.folding}` : ''}`;
}

/** One index to create: on `table`, one index element (see `element`). */
interface Index {
  readonly table: QualifiedName;
  /** What the name says after the table's: the field and what the index is for. */
  readonly name: string;
  readonly expression: string;
  readonly method?: 'gin';
}

function relationalIndexes(target: RelationalTarget, fields: readonly Field[], text: TextComparison): Index[] {
  const table = target.table!;
  const indexes: Index[] = [];
  for (const field of fields) {
    if (field.array === undefined) {
      indexes.push({ table, name: nameOf(field, text), expression: element(filtered(column(target.columns, field.path, field.path), field, text)) });
      continue;
    }
    const child = Object.hasOwn(target.arrays ?? {}, field.array) ? target.arrays![field.array] : undefined;
    if (child === undefined) throw new TypeError(`sqlIndexes: the target has no child table for the array "${field.array}".`);
    const key = field.path.slice(field.array.length + 1);
    indexes.push(
      { table: child.table, name: `${field.array}_${quoteFree(child.foreignKey)}`, expression: quoteIdentifier(child.foreignKey, `the foreign key of array "${field.array}"`) },
      { table: child.table, name: nameOf(field, text), expression: element(filtered(column(child.columns, key, field.path), field, text)) },
    );
  }
  return indexes;
}

/**
 * The sort indexes: on each sortable field's key, in the order `toSql` writes (its NULL
 * flag, then the key: `leadingKey`), ascending. With cursor paging (reference §14.2),
 * every sort ends with the cursor key: then each sortable field's key in both directions,
 * followed by the cursor key's, so that a page after a cursor is one index range from the
 * cursor on (`keysetPredicate`), not a scan of the pages before it; and the cursor key
 * alone, which serves the sort without `orderBy`.
 */
function sortIndexes(target: SqlTarget, fields: readonly Field[], text: TextComparison, cursor?: Field): Index[] {
  // Unqualified: an index expression names the columns of its own table. (Still without a
  // prototype: the target's optional properties are its own or none, see sqlIndexes.)
  const { table, ...rest } = target;
  const unqualified = ownCopy(rest as SqlTarget);
  const keyOf = (field: Field) => sortKey(unqualified, { key: field.path, path: field.names, type: field.type }, text);
  const elements = (field: Field, direction: 'asc' | 'desc', last: string[] = []) => [...leadingKey(keyOf(field), direction, element), ...last].join(', ');
  const sortable = fields.filter((f) => f.sortable);
  if (cursor === undefined) return sortable.map((field) => ({ table: table!, name: nameOf(field, text, '_sort'), expression: elements(field, 'asc') }));
  const last = [element(keyOf(cursor))];
  const indexes: Index[] = [{ table: table!, name: nameOf(cursor, text, '_sort'), expression: elements(cursor, 'asc') }];
  for (const field of sortable.filter((f) => f !== cursor)) {
    indexes.push(
      { table: table!, name: nameOf(field, text, '_cursor'), expression: elements(field, 'asc', last) },
      { table: table!, name: nameOf(field, text, '_cursor_desc'), expression: elements(field, 'desc', last) },
    );
  }
  return indexes;
}

const QUOTED = /^"(?:[^"]|"")*"$/;

/** An index element: a column as it is, any other expression in parentheses, as `CREATE INDEX` wants them. */
function element(expression: string): string {
  return QUOTED.test(expression) ? expression : `(${expression})`;
}

/** A column as a relational filter compares it (see `relationalCondition`): ids as text, text folded with `caseInsensitive`. */
function filtered(col: string, field: Field, text: TextComparison): string {
  switch (field.type) {
    case 'number':
    case 'date':
      return col;
    case 'string':
      return foldText(col, text);
    case 'id':
      return foldText(`${col}::text`, text);
  }
}

function documentIndexes(target: DocumentTarget, fields: readonly Field[], text: TextComparison): Index[] {
  if (target.typed !== true) {
    throw new TypeError('sqlIndexes: the untyped document target reads values (numbers in strings, dates with offsets) that no index can serve: use { document, typed: true } with data of the schema\'s JSON types.');
  }
  const table = target.table!;
  const document = quoteIdentifier(target.document, 'the document column');
  const indexes: Index[] = [];
  // Case-sensitive string and id equality is containment, anywhere in the document.
  if (!text.caseInsensitive) indexes.push({ table, name: 'gin', expression: `${document} jsonb_path_ops`, method: 'gin' });
  for (const field of fields) {
    if (field.array !== undefined) continue;
    indexes.push({ table, name: nameOf(field, text), expression: element(typedComparand(document, field.names, field.type, text)) });
  }
  return indexes;
}

/** An identifier's text for a name: what quoting would double, dropped. */
function quoteFree(name: string): string {
  return name.replaceAll('"', '');
}

/**
 * `table_field_qsf`, Postgres's 63 bytes at most: a longer one is cut and ends with a
 * hash of the whole, so that two long names stay apart and each run makes the same.
 */
function indexName(table: string, name: string): string {
  const full = `${table}_${name.replaceAll('.', '_')}_qsf`;
  if (new TextEncoder().encode(full).length <= 63) return full;
  let hash = 0x811c9dc5;
  for (const unit of full) hash = Math.imul(hash ^ unit.codePointAt(0)!, 0x01000193) >>> 0;
  const suffix = `_${hash.toString(16).padStart(8, '0')}`;
  const cut = [...full];
  while (new TextEncoder().encode(cut.join('')).length > 63 - suffix.length) cut.pop();
  return cut.join('') + suffix;
}
