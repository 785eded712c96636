import type { Field } from '../spec/spec';
import type { TextComparison } from './text';

/** A table name: `'invoices'`, `'public.invoices'`, or its parts when a part holds a dot: `['public', 'my.table']`. */
export type QualifiedName = string | readonly string[];

/**
 * Quotes an identifier for Postgres: in double quotes, embedded quotes doubled, so any
 * text is one identifier and nothing in it can end the quoting. Names come from the
 * programmer's mapping, never from a query; a name Postgres cannot hold is a TypeError.
 */
export function quoteIdentifier(name: unknown, what: string): string {
  if (typeof name !== 'string' || name === '' || name.includes('\0')) {
    throw new TypeError(`toSql: ${what} must be a non-empty string without NUL, not ${JSON.stringify(name)}.`);
  }
  return `"${name.replaceAll('"', '""')}"`;
}

/** Quotes a possibly schema-qualified name: a string is split on its dots, an array is taken part by part. */
export function quoteQualified(name: QualifiedName, what: string): string {
  const parts = typeof name === 'string' ? name.split('.') : name;
  if (!Array.isArray(parts) || parts.length === 0) throw new TypeError(`toSql: ${what} must be a name or an array of name parts.`);
  return parts.map((part) => quoteIdentifier(part, what)).join('.');
}

/** The last part of a qualified name: what an unaliased table is called in a query. */
export function lastPart(name: QualifiedName): string {
  const parts = typeof name === 'string' ? name.split('.') : name;
  return parts[parts.length - 1] ?? '';
}

/**
 * A field's part of an index name; `_ci_` and the folding where its expression is folded,
 * which must be named apart from the plain one and the other foldings', or IF NOT EXISTS
 * would take one for the other.
 */
export function indexedName(field: Field, text: TextComparison, purpose = ''): string {
  const folded = text.caseInsensitive && (field.type === 'string' || field.type === 'id');
  return `${field.path}${purpose}${folded ? `_ci_${text.folding}` : ''}`;
}
