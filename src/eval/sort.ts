import { expectSort } from '../filter/guard';
import { isObject, ownField, ownOptions, resultHint, wrongArgument } from '../arguments/arguments';
import type { CaseOptions, Filter, SortField } from '../filter/filter';
import { foldCase } from '../values/case';
import { instantOf } from '../values/date';
import { numberFromData } from '../values/number';
import { idText, own, ownElements } from './runtime';

/** Options of `sortItems`: `caseInsensitive` of `compile`, with the same meaning (text is ordered by its folded form). */
export type SortOptions = CaseOptions;

/**
 * Returns a new array of the items in the order the filter's sort asks for (reference §9),
 * the input left as it is. Numbers sort numerically (numeric strings count, as in
 * filters), dates by instant, strings and ids by code point (by their folded form with
 * `caseInsensitive`). A missing, null or mistyped value sorts last whatever the
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
  const order = itemOrder(sort, fold);
  const keyed = elements.map((item, index) => ({ item, index, keys: order.keys(item) }));
  // Array#sort is stable, but say so: equal keys keep the input order.
  keyed.sort((a, b) => order.compare(a.keys, b.keys) || a.index - b.index);
  return keyed.map((entry) => entry.item);
}

/**
 * The order of `sortItems`, for a caller that sorts items in parts (the command line's
 * sort spilled to disk): an item's keys, read once, and the comparison of two items'
 * keys. A tie is 0, which the caller breaks by input order, as `sortItems` does.
 */
export interface ItemOrder {
  keys(item: unknown): Key[];
  compare(a: readonly Key[], b: readonly Key[]): number;
}

/** The order of `sortItems` for these sort fields, with text folded (`caseInsensitive`) or not. */
export function itemOrder(sort: readonly SortField[], fold: boolean): ItemOrder {
  const signs = sort.map((field) => (field.direction === 'desc' ? -1 : 1));
  return {
    keys: (item) => sort.map((field) => sortKey(item, field, fold)),
    compare: (a, b) => {
      for (let k = 0; k < signs.length; k++) {
        const order = compareKeys(a[k], b[k], signs[k]!);
        if (order !== 0) return order;
      }
      return 0;
    },
  };
}

const SORT_OPTIONS = ['caseInsensitive'];

/** A value to sort by: a number (numbers, dates as instants), a string (text, ids), or `undefined` when missing. */
export type Key = number | string | undefined;

/** Missing keys last in both directions; otherwise the key order, reversed for descending. */
export function compareKeys(a: Key, b: Key, sign: number): number {
  if (a === undefined) return b === undefined ? 0 : 1;
  if (b === undefined) return -1;
  return sign * (typeof a === 'number' ? (a as number) - (b as number) : compareCodePoints(a, b as string));
}

/** The key of one item for one sort field, as the filters read values (reference §5). */
export function sortKey(item: unknown, field: SortField, fold: boolean): Key {
  let value: unknown = item;
  try {
    for (const name of field.path) value = own(value, name);
  } catch {
    // A throwing getter or proxy: the value cannot be read, so it is missing.
    return undefined;
  }
  switch (field.type) {
    case 'number':
      return numberFromData(value);
    case 'date': {
      const t = instantOf(value);
      return Number.isNaN(t) ? undefined : t;
    }
    case 'string':
      return typeof value === 'string' ? (fold ? foldCase(value) : value) : undefined;
    case 'id': {
      const text = idText(value);
      return text !== undefined && fold ? foldCase(text) : text;
    }
  }
}

/**
 * Compares strings by code point, as `COLLATE "C"` does on UTF-8 text. JavaScript's `<`
 * compares UTF-16 code units, which put a character above U+FFFF (a surrogate pair,
 * D800–DFFF) before U+E000–U+FFFF; only the first differing unit needs the fix.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** Orders code units as the code points they start: surrogates above U+E000–U+FFFF. */
function codePointRank(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit;
}
