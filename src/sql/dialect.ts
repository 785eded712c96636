import type { Condition, CursorValue, SortField } from '../filter/filter';
import type { Field } from '../spec/spec';
import type { QualifiedName } from './identifier';
import type { Parameters } from './parameters';
import type { TextComparison } from './text';

/** What a sort key names: the field, the property names to read and its type. */
export type KeyField = Pick<SortField, 'key' | 'path' | 'type'>;

/**
 * One of the three SQL targets (relational, document, typed document), chosen once from
 * the target (`dialectOf`, target.ts), as a query builder chooses its dialect: each answers the same
 * questions in its own terms, and `toSql`, the order, the keyset step, `sqlIndexes` and
 * `sqlConstraints` ask them, never which target they have.
 */
export interface Dialect {
  /** The SQL of one condition of a filter: `compile`'s meaning on the target's rows. */
  condition(condition: Condition, text: TextComparison, params: Parameters): string;
  /**
   * The expressions a sort key orders by, one per part of its key (`keyParts`: the key,
   * or with `caseInsensitive` a text's folded form, then the text): NULL where the value
   * is missing, and the same order as `sortItems` on the data the target reads exactly.
   * `ORDER BY`, the keyset predicate and the sort indexes are written with them.
   */
  orderKey(field: KeyField, text: TextComparison): string[];
  /**
   * A cursor value (`CursorValue`: the item's own value) read as `orderKey` reads a row's,
   * the value bound: one expression per part, or `undefined` where that reading is NULL.
   * A row's key and the key of the cursor made from it are equal whatever the data, so
   * that a page starts right after that row in the target's own order.
   */
  cursorKey(field: KeyField, value: CursorValue, text: TextComparison, params: Parameters): string[] | undefined;
  /** The indexes that serve the fields' filters (`sqlIndexes`), on `table`, the target's real table (the dialect's expressions unqualified). */
  filterIndexes(table: QualifiedName, fields: readonly Field[], text: TextComparison): Index[];
  /** The CHECK constraints on `table` under which the target reads every row exactly (`sqlConstraints`). */
  constraints(table: QualifiedName, fields: readonly Field[]): Constraint[];
  /** What the names of this target's indexes and constraints start with, after the table's: a document's column, so that another target's of the same field is never taken for it. */
  readonly prefix: string;
}

/** One index to create: on `table`, one list of index elements. */
export interface Index {
  readonly table: QualifiedName;
  /** What the name says after the table's: the field and what the index is for. */
  readonly name: string;
  readonly expression: string;
  readonly method?: 'gin';
}

/** One CHECK constraint to add: on `table`, named after the field. */
export interface Constraint {
  readonly table: QualifiedName;
  readonly name: string;
  readonly check: string;
}
