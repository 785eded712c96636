import { CURSOR_PARAM, MAX_CURSOR_LENGTH, PAGING_PARAMS, type Field, type Schema } from '../schema/define';
import type { After, Condition, CursorValue, Filter, Page, SortField } from './filter';
import type { Diagnostic } from '../diagnostics/diagnostic';
import type { PassThroughParams } from '../syntax/ast';
import { isInstant } from '../values/date';

// The cursor codec (reference §9), one module for `check`, the client and `nextCursor`,
// kept to the least code: the token is base64url of a JSON array `[fingerprint,
// ...values]` written in ASCII (so that `atob`'s bytes are the JSON text itself, with no
// UTF-8 step), and a decoded value is checked as `expectFilter` checks a hand-built one
// (`fits`).

/**
 * What a schema with cursor paging carries (`CursorPaging.codec`, given by `defineSchema`):
 * `check` and the client reach the cursor code through the schema, so that an app whose
 * schemas do not page by cursor does not bundle it.
 */
export interface CursorCodec {
  /** The sort with the cursor key as its tie-breaker (`withTieBreaker`). */
  readonly order: (sort: SortField[], key: Field) => SortField[];
  /** An `after` token's values for the client's `toFilter`: a token of another query is a `TypeError` there (`expectCursor`). */
  readonly expect: (token: string, filter: CursorScope, key: string) => After;
  /**
   * `check`'s part (check/cursor.ts): ends the request's sort with the cursor key, and
   * returns the page after its `after` token, its problems pushed to `errors`.
   */
  readonly check: (request: CursorRequest, page: Page, caseInsensitive: boolean | undefined) => Page;
}

/** What `check` has of a request when it reads its cursor: the filter so far, and its problems. */
export interface CursorRequest {
  readonly schema: Schema;
  readonly params: PassThroughParams;
  readonly conditions: Condition[];
  sort: SortField[];
  readonly errors: Diagnostic[];
}

/** What a cursor is made for: a filter's conditions, request parameters, sort and text comparison. */
export type CursorScope = Pick<Filter, 'conditions' | 'params' | 'sort'> & { readonly caseInsensitive?: boolean | undefined };

/**
 * A fingerprint of what a cursor is only valid for: the filter's conditions, its request
 * parameters (the page's own left out) and its sort, and how it compares text. A 32-bit
 * FNV-1a hash of one canonical JSON text: conditions and parameters sorted, so that the
 * order in which a client sends its parameters does not matter. Cursors are not secrets
 * (a client can make any filter anyway): the hash only tells a cursor of another query
 * from one of this query.
 */
export function fingerprint(filter: CursorScope): string {
  const text = JSON.stringify([
    filter.conditions.map((condition) => JSON.stringify(condition)).sort(),
    Object.entries(filter.params)
      .filter(([name]) => !PAGE_PARAMS.includes(name))
      .sort(),
    filter.sort.map((field) => [field.key, field.direction]),
    !!filter.caseInsensitive,
  ]);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

/** The parameters a fingerprint leaves out: those that pick the page, not the matches or their order. */
const PAGE_PARAMS: readonly string[] = [...PAGING_PARAMS, CURSOR_PARAM];

/** The token of a cursor: base64url (no padding) of the JSON `[fingerprint, ...values]`, non-ASCII escaped. */
export function encodeCursor(print: string, values: readonly CursorValue[]): string {
  const json = JSON.stringify([print, ...values]).replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return btoa(json).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/**
 * The values of an `after` token for a filter whose sort ends with (or holds) the cursor
 * key `key`, or `undefined` when it holds none of this query's: too long (checked before
 * any decoding), not base64 of a JSON array, made for another filter or sort, a value that
 * does not fit its sort key, or no value for the key. Never throws.
 */
export function readCursor(token: string, filter: CursorScope, key: string): After | undefined {
  let parsed: unknown;
  try {
    parsed = token.length <= MAX_CURSOR_LENGTH && JSON.parse(atob(token.replaceAll('-', '+').replaceAll('_', '/')));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed)) return undefined;
  const values = parsed.slice(1) as CursorValue[];
  const { sort } = filter;
  // The cursor key is unique: a cursor without its value could not say where the page starts.
  const ok = parsed[0] === fingerprint(filter) && values.length === sort.length && sort.every((field, i) => fits(values[i], field)) && values[sort.findIndex((field) => field.key === key)] != null;
  return ok ? { values, key } : undefined;
}

/** `readCursor` for the client's `toFilter`, where a cursor of another query (its filter or sort since changed) is a programmer's error. */
export function expectCursor(token: string, filter: CursorScope, key: string): After {
  const after = readCursor(token, filter, key);
  if (after === undefined) throw new TypeError('after(…): no cursor of this query.');
  return after;
}

/** Whether a cursor value can be a sort key of the field's type, as `sortItems` reads them (`null`: missing). */
export function fits(value: unknown, field: Pick<SortField, 'type'>): value is CursorValue {
  return value === null || (field.type === 'number' ? Number.isFinite(value) : field.type === 'date' ? isInstant(value) : typeof value === 'string');
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
