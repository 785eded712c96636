import { describe, ownField, wrongArgument } from '../arguments/arguments';
import type { After, Filter } from '../filter/filter';
import { encodeCursor, fingerprint } from '../filter/cursor';
import { expectFilter } from '../filter/guard';
import { cursorKey, cursorValueOf, keyParts, readKey } from '../values/order';
import { compareSortParts, fieldValue, sortItems, sortParts, sortSigns, type SortOptions } from './sort';

/**
 * The token of the page after `lastItem` (reference §9), for the `after` parameter of the
 * next request: `lastItem`'s sort-key values (`cursorValueOf`: its own values, which every
 * back end reads as it reads the item) and a fingerprint of the schema, the filter's
 * conditions, request parameters and sort, which the next `check` holds against its own
 * (a cursor of another query, or of another schema, is `INVALID_CURSOR`). Opaque
 * base64url; not a secret: it gives nothing a filter could not.
 *
 * The filter is one of a schema with cursor paging, as `check` or the client builder
 * makes it (its `page.cursor`). The item is the last item of the page, as the schema
 * names its fields: an item that is not an object, or that has no value of the cursor
 * key (a row whose columns are named otherwise: map it to the schema's fields first), is
 * a `TypeError`, for it could not say where the next page starts.
 */
export function nextCursor(filter: Filter, lastItem: unknown): string {
  expectFilter('nextCursor', filter);
  const page = ownField(filter, 'page');
  const cursor = page === undefined ? undefined : ownField(page, 'cursor');
  if (cursor === undefined) {
    wrongArgument('nextCursor', 'the filter', 'one of a schema with cursor paging, as check() or the client builder makes it (its page.cursor)', page);
  }
  if (typeof lastItem !== 'object' || lastItem === null) wrongArgument('nextCursor', 'the item', 'the last item of the page, an object', lastItem);
  const { sort } = filter;
  const key = sort.find((field) => field.key === cursor.key);
  if (key === undefined || readKey(fieldValue(lastItem, key), key.type) === undefined) {
    throw new TypeError(
      `nextCursor: the item has no ${key?.type ?? 'value'} at "${cursor.key}", the cursor key (${describe(lastItem)}): pass the item with the schema's field names, not a row whose columns are named otherwise.`,
    );
  }
  return encodeCursor(fingerprint(filter, ownField(filter, 'caseInsensitive') === true, cursor), sort.map((field) => cursorValueOf(fieldValue(lastItem, field), field.type)));
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
  const start = sorted.findIndex(isAfter(filter, after, fold));
  return start < 0 ? [] : sorted.slice(start, start + page.limit);
}

/** Whether an item comes after the cursor in the filter's order: its key parts compare greater than the cursor values'. */
function isAfter(filter: Filter, after: After, fold: boolean): (item: unknown) => boolean {
  const { sort } = filter;
  const cursor = sort.flatMap((field, i) => keyParts(cursorKey(after.values[i] ?? null, field.type), field.type, fold));
  const signs = sortSigns(sort, fold);
  return (item) => compareSortParts(sortParts(item, sort, fold), cursor, signs) > 0;
}
