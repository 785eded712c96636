import { foldCase } from './case';
import { instantOf, isInstant } from './date';
import { formatNumber, numberFromData } from './number';

/**
 * The one order and equality of each field type (reference §9), for every back end: a
 * number is its double, a date its instant, a string its text and an id its text (a
 * string, or a safe integer's digits), each read from data as the filters read it
 * (reference §5); anything else is missing. Text compares by code point, and with
 * `caseInsensitive` by its folded form first (`foldCase`), then, among texts equal but
 * for case, by code point again: `a` and `A` are one value to `=`, and two rows to a
 * cursor, which must tell every row from the next. `compile`, `sortItems`, `pageItems`,
 * `nextCursor` and the cursor's decoding read values here; each SQL target writes the
 * same order in its own terms (src/sql/dialect.ts).
 */

/** The types a value is read as: `FieldType`'s (written out here, below the schema). */
export type KeyType = 'number' | 'date' | 'string' | 'id';

/** A key: a double (numbers, dates as instants) or a text (strings, ids). */
export type Key = number | string;

/** Whether a type's keys are text: compared by code point, folded with `caseInsensitive`. */
export const isText = (type: KeyType): boolean => type === 'string' || type === 'id';

/** The text of a ref id: a string as it is, a safe integer as its decimal digits; otherwise `undefined`. */
export function idText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : undefined;
}

/** A value's key in the order of its type, or `undefined` for a missing, null or mistyped one. */
export function readKey(value: unknown, type: KeyType): Key | undefined {
  switch (type) {
    case 'number':
      return numberFromData(value);
    case 'date': {
      const t = instantOf(value);
      return Number.isNaN(t) ? undefined : t;
    }
    case 'string':
      return typeof value === 'string' ? value : undefined;
    case 'id':
      return idText(value);
  }
}

/**
 * What a key is compared by: the key, or with `fold` a text's folded form, then the text.
 * A missing key is `undefined` in every part. The number of parts depends only on the
 * type and `fold`, as the SQL targets' order keys do (`partsOf`).
 */
export function keyParts(key: Key | undefined, type: KeyType, fold: boolean): (Key | undefined)[] {
  if (!fold || !isText(type)) return [key];
  return [key === undefined ? undefined : foldCase(key as string), key];
}

/** Compares two parts of one key: missing last in both directions, otherwise the key order (`sign` −1: reversed). */
export function compareParts(a: Key | undefined, b: Key | undefined, sign: number): number {
  if (a === undefined) return b === undefined ? 0 : 1;
  if (b === undefined) return -1;
  return sign * (typeof a === 'number' ? a - (b as number) : compareCodePoints(a, b as string));
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

// ---------------------------------------------------------------- cursor values

/**
 * A sort-key value as a cursor holds it (`CursorValue`): the item's own value, as far as
 * JSON can hold it, so that each back end reads it as it reads the row it came from, and
 * a page starts exactly after that row whatever the data (a SQL target whose reading of
 * some value differs from `sortItems`' — the typed document's, outside its contract —
 * still finds the row where its own order put it). `null` where the key is missing and
 * no target reads the value as one: null, a mistyped JSON value, a number past the
 * doubles.
 *
 * - number: a finite number; a numeric string as the shortest text of its double (a
 *   string still, which the typed document target reads as no number, as in the row);
 * - date: a string as it is (every target reads a string's instant, or its shape); a
 *   `Date` as its instant;
 * - string: a string; id: a string, or a number that is a safe integer.
 */
export function cursorValueOf(value: unknown, type: KeyType): Key | null {
  if (type === 'date') {
    if (typeof value === 'string') return value;
    const t = readKey(value, type);
    return t === undefined ? null : t;
  }
  const key = readKey(value, type);
  if (key === undefined) return null;
  if (type === 'number') return typeof value === 'string' ? formatNumber(key as number) : (key as number) + 0;
  return typeof value === 'number' ? value : key;
}

/** The key of a cursor value (`cursorValueOf`'s): a date's number is its instant already. */
export function cursorKey(value: Key | null, type: KeyType): Key | undefined {
  return type === 'date' && typeof value === 'number' ? value : readKey(value, type);
}

/**
 * Whether a value decoded from a cursor can be one of a sort key of this type
 * (`cursorValueOf`'s): `null` (missing), a finite number or the shortest text of one for a
 * number, any text or an instant for a date (a row's string the typed target orders by
 * its shape), a text for a string, a text or a safe integer for an id. Written with the
 * least code: it comes with every schema that pages by cursor, to the browser too.
 */
export function fitsKey(value: unknown, type: KeyType): boolean {
  if (typeof value === 'string') return type !== 'number' || formatNumber(+value) === value;
  return value === null || (type === 'number' ? Number.isFinite(value) : type === 'date' ? isInstant(value) : type === 'id' && Number.isSafeInteger(value));
}
