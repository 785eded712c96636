import { expectSchema } from '../spec/guard';
import type { Schema } from '../spec/spec';
import type { SqlTarget } from './target';
import { lastPart, quoteIdentifier, quoteQualified } from './identifier';
import { objectName, setUp } from './indexes';

/**
 * The `ALTER TABLE … ADD CONSTRAINT … CHECK (…)` statements under which every row Postgres
 * accepts is one the target reads exactly (reference §14.1): then `toSql` selects what
 * `compile` accepts and orders as `sortItems` does, always.
 *
 * - typed document (`{ document, typed: true }`): each field's value, where there is one,
 *   is JSON null or of the field's JSON type: a number, a string, an id that is a string
 *   or an integer of at most 2^53 − 1, a date in its canonical form (`YYYY-MM-DD`, or
 *   `YYYY-MM-DDThh:mm:ss` with 1 to 9 fraction digits, no offset) that is a real day and
 *   time; in a child array, every element's;
 * - relational: each number column holds finite doubles (no NaN, no ±Infinity, no
 *   `numeric` past the doubles), each date column finite instants;
 * - untyped document: none: it reads any JSON as `compile` does.
 *
 * One constraint per field, named after the table and the field (and the document
 * column); each statement drops the constraint of its name before adding it, in one
 * `ALTER TABLE`, so that running them again is a no-op, and a new version's replaces the
 * old. Adding one checks the rows already there: Postgres refuses it, naming it, while a
 * row breaks it. The target must name the real table (`table`).
 */
export function sqlConstraints(schema: Schema, target: SqlTarget): string[] {
  expectSchema('sqlConstraints', schema);
  const { table, dialect, fields } = setUp('sqlConstraints', schema, target);
  return dialect.constraints(table, fields).map(({ table, name, check }) => {
    const named = quoteIdentifier(objectName(lastPart(table), `${dialect.prefix}${name}_check`), 'a constraint name');
    return `ALTER TABLE ${quoteQualified(table, 'the table')} DROP CONSTRAINT IF EXISTS ${named}, ADD CONSTRAINT ${named} CHECK (${check})`;
  });
}
