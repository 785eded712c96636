import { MAX_CURSOR_LENGTH, type Field } from '../schema/define';
import type { After, CursorValue, Filter, SortField } from './filter';
import { MAX_MS, MIN_MS } from '../values/date';


/** What a cursor is made for: a filter's conditions, request parameters, sort and text comparison. */
export type CursorScope = Pick<Filter, 'conditions' | 'params' | 'sort'> & { readonly caseInsensitive?: boolean | undefined };

/** The parameters a cursor's fingerprint leaves out: those that pick the page, not the matches or their order. */
const PAGE_PARAMS: ReadonlySet<string> = /* @__PURE__ */ new Set(['limit', 'offset', 'after']);

/**
 * A fingerprint of what a cursor is only valid for: the filter's conditions, its request
 * parameters (the page's own left out) and its sort, and how it compares text. Two
 * 32-bit FNV-1a hashes of one canonical JSON text: conditions and parameters sorted, so
 * that the order in which a client sends its parameters does not matter. Cursors are not
 * secrets (a client can make any filter anyway): the hash only tells a cursor of another
 * query from one of this query.
 */
export function fingerprint(filter: CursorScope): string {
  const conditions = filter.conditions.map((condition) => JSON.stringify(condition)).sort();
  const params = Object.keys(filter.params)
    .filter((name) => !PAGE_PARAMS.has(name))
    .sort()
    .map((name) => [name, filter.params[name]]);
  const sort = filter.sort.map((field) => [field.key, field.direction]);
  const text = JSON.stringify([conditions, params, sort, filter.caseInsensitive === true]);
  return hash(text, 0x811c9dc5) + hash(text, 0x01000193);
}

/** FNV-1a over the UTF-16 code units, as 8 hex digits. */
function hash(text: string, seed: number): string {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/** The token of a cursor: base64url (no padding) of the UTF-8 JSON `[fingerprint, ...values]`. */
export function encodeCursor(print: string, values: readonly CursorValue[]): string {
  const bytes = new TextEncoder().encode(JSON.stringify([print, ...values]));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;
const BAD = 'it is not a cursor of this server';

/**
 * Reads an `after` token for a filter whose sort ends with the cursor key `key`: its
 * values, or why it cannot be used (a sentence, for `INVALID_CURSOR`). Never throws.
 */
export function decodeCursor(token: string, filter: CursorScope, key: string): After | string {
  if (token.length > MAX_CURSOR_LENGTH) return `it is over ${MAX_CURSOR_LENGTH} characters`;
  if (token === '' || !BASE64URL.test(token) || token.length % 4 === 1) return BAD;
  let parsed: unknown;
  try {
    const binary = atob(token.replaceAll('-', '+').replaceAll('_', '/'));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return BAD;
  }
  if (!Array.isArray(parsed) || parsed.length !== filter.sort.length + 1 || typeof parsed[0] !== 'string') return BAD;
  if (parsed[0] !== fingerprint(filter)) return 'it was made for another filter or sort';
  const values = parsed.slice(1) as unknown[];
  for (let i = 0; i < values.length; i++) if (!fits(values[i], filter.sort[i]!)) return BAD;
  // The cursor key is unique: a cursor without it could not say where the page starts.
  const at = filter.sort.findIndex((field) => field.key === key);
  if (at < 0 || values[at] === null) return BAD;
  return { values: values as CursorValue[], key };
}

/** Whether a cursor value can be a sort key of the field's type, as `sortItems` reads them. */
export function fits(value: unknown, field: Pick<SortField, 'type'>): value is CursorValue {
  if (value === null) return true;
  switch (field.type) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'date':
      return Number.isSafeInteger(value) && (value as number) >= MIN_MS && (value as number) < MAX_MS;
    case 'string':
    case 'id':
      return typeof value === 'string';
  }
}

/**
 * The sort of a schema with cursor paging (reference §9): the keys asked for, then the
 * cursor key ascending, so that the order is total and a cursor names one place in it.
 * When the keys already hold the cursor key (in either direction), they are total as
 * they are: nothing is added.
 */
export function withTieBreaker(sort: SortField[], key: Field): SortField[] {
  if (sort.some((field) => field.key === key.path)) return sort;
  return [...sort, { key: key.path, path: key.names, direction: 'asc', type: key.type }];
}
