import { expectSort } from '../filter/guard';
import { isObject, ownField, ownOptions, resultHint, wrongArgument } from '../arguments/arguments';
import type { CaseOptions, Filter, SortField } from '../filter/filter';
import { compareParts, keyParts, readKey, type Key } from '../values/order';
import { own, ownElements } from './runtime';

/** Options of `sortItems`: `caseInsensitive` of `compile`, with the same meaning (text is ordered by its folded form). */
export type SortOptions = CaseOptions;

/**
 * Returns a new array of the items in the order the filter's sort asks for (reference §9),
 * the input left as it is, in the one order of each type (values/order.ts): numbers
 * numerically (numeric strings count, as in filters), dates by instant, strings and ids
 * by code point (with `caseInsensitive`, by their folded form, then by code point among
 * texts equal but for case). A missing, null or mistyped value sorts last whatever the
 * direction. Items with equal keys keep their input order. With no sort, a copy.
 *
 * Each item's keys are read once (own properties only, as `compile` reads them: an
 * inherited property or getter is never read), so an
 * item costs one read per key, and the comparisons none. The items are the array's own
 * elements, read as `compile` scans a child array: a hole is not an item (a sparse
 * array costs the items it has, not its `length`), and an item that cannot be read (a
 * throwing getter or proxy) is left out. Never throws on data.
 */
export function sortItems<T>(items: readonly T[], filter: Pick<Filter, 'sort' | 'caseInsensitive'>, options?: SortOptions): T[] {
  if (!Array.isArray(items)) wrongArgument('sortItems', 'the items', 'an array', items);
  const sort = isObject(filter) ? ownField(filter, 'sort') : undefined;
  if (!Array.isArray(sort)) wrongArgument('sortItems', 'the filter', 'a checked Filter, with its sort', filter, resultHint(filter));
  expectSort('sortItems', sort);
  options = ownOptions('sortItems', options, SORT_OPTIONS);
  const filterCase = ownField(filter as Pick<Filter, 'caseInsensitive'>, 'caseInsensitive');
  // Blamed on the filter, as expectFilter does for the other back ends, not on the options.
  if (filterCase !== undefined && typeof filterCase !== 'boolean') wrongArgument('sortItems', 'the "caseInsensitive" of the filter', 'true, false or absent', filterCase);
  const fold = options?.caseInsensitive ?? filterCase ?? false;
  if (typeof fold !== 'boolean') wrongArgument('sortItems', '"caseInsensitive"', 'true or false', fold);
  const elements = ownElements(items) as T[];
  if (sort.length === 0) return elements;
  // Each item's key parts, read once; then the comparisons read nothing.
  const keyed = elements.map((item, index) => ({ item, index, parts: sortParts(item, sort, fold) }));
  const signs = sortSigns(sort, fold);
  keyed.sort((a, b) => compareSortParts(a.parts, b.parts, signs) || a.index - b.index);
  return keyed.map((entry) => entry.item);
}

/**
 * The order of `sortItems`, for a caller that sorts items in parts (the command line's
 * sort spilled to disk): an item's key parts, read once, and the comparison of two items'
 * parts. A tie is 0, which the caller breaks by input order, as `sortItems` does.
 */
export interface ItemOrder {
  keys(item: unknown): (Key | undefined)[];
  compare(a: readonly (Key | undefined)[], b: readonly (Key | undefined)[]): number;
}

/** The order of `sortItems` for these sort fields, with text folded (`caseInsensitive`) or not. */
export function itemOrder(sort: readonly SortField[], fold: boolean): ItemOrder {
  const signs = sortSigns(sort, fold);
  return {
    keys: (item) => sortParts(item, sort, fold),
    compare: (a, b) => compareSortParts(a, b, signs),
  };
}

const SORT_OPTIONS = ['caseInsensitive'];

/** The direction of each part of a sort's keys (see `keyParts`): 1 ascending, −1 descending. */
export function sortSigns(sort: readonly SortField[], fold: boolean): number[] {
  return sort.flatMap((field) => keyParts(undefined, field.type, fold).map(() => (field.direction === 'desc' ? -1 : 1)));
}

/** The parts an item is ordered by, each sort key's in turn (see `keyParts`). */
export function sortParts(item: unknown, sort: readonly SortField[], fold: boolean): (Key | undefined)[] {
  const parts: (Key | undefined)[] = [];
  for (const field of sort) parts.push(...keyParts(sortValue(item, field), field.type, fold));
  return parts;
}

/**
 * Compares the parts of two items in the order of a sort (`signs`: 1 ascending, −1
 * descending, one per part): the first part that differs decides. Equal parts are a
 * tie: `sortItems` keeps the input order, and a cursor's page starts after it.
 */
export function compareSortParts(a: readonly (Key | undefined)[], b: readonly (Key | undefined)[], signs: readonly number[]): number {
  for (let k = 0; k < signs.length; k++) {
    const order = compareParts(a[k], b[k], signs[k]!);
    if (order !== 0) return order;
  }
  return 0;
}

/** The key of one item for one sort field (reference §5), read as the filters read values: `undefined` when missing. */
export function sortValue(item: unknown, field: SortField): Key | undefined {
  return readKey(fieldValue(item, field), field.type);
}

/** The value at a sort field's path in an item, own properties only; `undefined` when it cannot be read. */
export function fieldValue(item: unknown, field: Pick<SortField, 'path'>): unknown {
  let value: unknown = item;
  try {
    for (const name of field.path) value = own(value, name);
  } catch {
    // A throwing getter or proxy: the value cannot be read, so it is missing.
    return undefined;
  }
  return value;
}
