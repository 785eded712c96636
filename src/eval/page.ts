import { ownField, wrongArgument } from '../arguments/arguments';
import type { After, Filter } from '../filter/filter';
import { encodeCursor, fingerprint } from '../filter/cursor';
import { expectFilter } from '../filter/guard';
import { compareKeys, sortItems, sortKey, type SortOptions } from './sort';

/**
 * The token of the page after `lastItem` (reference §9), for the `after` parameter of the
 * next request: `lastItem`'s sort-key values, as `sortItems` reads them, and a fingerprint
 * of the filter's conditions, request parameters and sort, which the next `check` holds
 * against its own (a cursor of another query is `INVALID_CURSOR`). Opaque base64url; not a
 * secret: it gives nothing a filter could not. The filter's sort must end with the
 * schema's cursor key, as `check` makes it for a schema with `paging.cursor`.
 */
export function nextCursor(filter: Filter, lastItem: unknown): string {
  expectFilter('nextCursor', filter);
  if (!Array.isArray(filter.sort) || filter.sort.length === 0) {
    wrongArgument('nextCursor', 'the sort of the filter', 'the sort of a schema with cursor paging (it ends with the cursor key)', filter.sort);
  }
  const fold = ownField(filter, 'caseInsensitive') ?? false;
  return encodeCursor(fingerprint(filter), filter.sort.map((field) => sortKey(lastItem, field, fold) ?? null));
}

/**
 * The page of the filter in `items` (reference §9): the items in `sortItems`' order, then
 * those after the cursor (`page.after`) or past the `offset`, at most `limit` of them.
 * Without a page, all the items, sorted. `items` are the matches: run `compile` first.
 * Never throws on data (as `sortItems`).
 */
export function pageItems<T>(items: readonly T[], filter: Filter, options?: SortOptions): T[] {
  expectFilter('pageItems', filter);
  const sorted = sortItems(items, filter, options);
  // Optional fields, read as own properties only (a polluted Object.prototype's are no filter's).
  const page = ownField(filter, 'page');
  if (page === undefined) return sorted;
  const after = ownField(page, 'after');
  if (after === undefined) return sorted.slice(page.offset, page.offset + page.limit);
  const fold = (options === undefined ? undefined : ownField(options, 'caseInsensitive')) ?? ownField(filter, 'caseInsensitive') ?? false;
  const start = sorted.findIndex((item) => isAfter(item, filter, after, fold));
  return start < 0 ? [] : sorted.slice(start, start + page.limit);
}

/** Whether an item comes after the cursor in the filter's order (its keys compare greater). */
function isAfter(item: unknown, filter: Filter, after: After, fold: boolean): boolean {
  for (let k = 0; k < filter.sort.length; k++) {
    const field = filter.sort[k]!;
    const order = compareKeys(sortKey(item, field, fold), after.values[k] ?? undefined, field.direction === 'desc' ? -1 : 1);
    if (order !== 0) return order > 0;
  }
  return false;
}

