import type { SortField } from '../filter/filter';
import type { Dialect } from './dialect';
import { quoteIdentifier, quoteQualified, type QualifiedName } from './identifier';
import type { TextComparison } from './text';

/**
 * The `ORDER BY` clause of a checked filter's sort (reference §9), with `sortItems`' meaning
 * on the rows the target reads exactly: each key's parts as the dialect reads them
 * (`Dialect.orderKey`: a missing or mistyped value is NULL), NULLs last in both
 * directions, then the caller's tie-breaker columns, ascending, where `sortItems` keeps
 * the input order. Empty when there is nothing to order by. The clause binds no values.
 *
 * The first key is ordered by its NULL flag first (see `leadingKey`), the order
 * `sqlIndexes`' sort and cursor indexes hold.
 */
export function orderBy(sort: readonly SortField[], dialect: Dialect, text: TextComparison, table: QualifiedName | undefined, tieBreaker: readonly string[]): string {
  const keys = sort.map((field, i) => {
    const parts = dialect.orderKey(field, text);
    return (i === 0 ? leadingKey(parts, field.direction) : parts.map((part) => orderedKey(part, field.direction))).join(', ');
  });
  const qualified = table === undefined ? undefined : quoteQualified(table, 'the table');
  for (const name of tieBreaker) {
    const col = quoteIdentifier(name, 'a tie-breaker column');
    keys.push(`${qualified === undefined ? col : `${qualified}.${col}`} ASC`);
  }
  return keys.length === 0 ? '' : `ORDER BY ${keys.join(', ')}`;
}

/** A key in a direction, NULLs last: one `ORDER BY` item, or one index element. */
function orderedKey(key: string, direction: SortField['direction']): string {
  return `${key} ${direction === 'desc' ? 'DESC' : 'ASC'} NULLS LAST`;
}

/**
 * The first key of a sort, NULLs last: its NULL flag, then its parts, all in the key's
 * direction (`(k IS NULL) ASC, k ASC` or `(k IS NOT NULL) DESC, k DESC`). The order is
 * the same as `k ASC|DESC NULLS LAST`; written so, a page after a cursor can start at the
 * cursor in an index on these and the cursor key (the keyset's row comparison), where
 * "after v, or NULL" is no range of an index on the key alone.
 */
export function leadingKey(parts: readonly string[], direction: SortField['direction'], element: (expression: string) => string = (expression) => expression): string[] {
  return [`(${nullFlag(parts[0]!, direction)}) ${direction === 'desc' ? 'DESC' : 'ASC'}`, ...parts.map((part) => orderedKey(element(part), direction))];
}

/** The NULL flag of a key: what orders its NULLs last in its direction (a key's parts are NULL together: the first stands for all). */
export function nullFlag(key: string, direction: SortField['direction']): string {
  return `${key} ${direction === 'desc' ? 'IS NOT NULL' : 'IS NULL'}`;
}
