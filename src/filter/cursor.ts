import { CURSOR_PARAM, MAX_CURSOR_LENGTH, PAGING_PARAMS, type Schema } from '../spec/spec';
import type { Condition, CursorValue, Filter, Page, PageCursor, SortField } from './filter';
import type { Diagnostic } from '../diagnostics/diagnostic';
import type { PassThroughParams } from '../syntax/ast';
import { fitsKey } from '../values/order';

// The cursor codec (reference §9), one module for `check`, the client and `nextCursor`,
// kept to the least code: the token is base64url of a JSON array `[fingerprint,
// ...values]` written in ASCII (so that `atob`'s bytes are the JSON text itself, with no
// UTF-8 step), and a decoded value is checked as `expectFilter` checks a hand-built one
// (`fitsKey`).

/**
 * What a schema with cursor paging carries (`CursorPaging.codec`, given by `defineSchema`):
 * `check` and the client reach the cursor code through the schema, so that an app whose
 * schemas do not page by cursor does not bundle it.
 */
export interface CursorCodec {
  /**
   * The client's `toFilter` (`clientFilter`): the filter's sort ended with the cursor key,
   * its page bound to the schema and after its `after` token if any, where a token of
   * another query is a `TypeError`.
   */
  readonly filter: (schema: Schema, filter: Filter, page: Page, token: string | undefined) => Filter;
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

/** What a cursor is made for: a filter's conditions, request parameters and sort. */
export type CursorScope = Pick<Filter, 'conditions' | 'params' | 'sort'>;

/**
 * A fingerprint of what a cursor is only valid for: the schema (`PageCursor`), the
 * filter's conditions, its request parameters (the page's own left out) and its sort,
 * and whether it folds case (`fold`: the filter's own `caseInsensitive`). A 32-bit FNV-1a
 * hash of one canonical JSON text: conditions and parameters sorted, so that the order in
 * which a client sends its parameters does not matter. Cursors are not secrets (a client
 * can make any filter anyway): the hash only tells a cursor of another query, or of
 * another resource, from one of this query.
 */
export function fingerprint(filter: CursorScope, fold: boolean, cursor: PageCursor): string {
  return hash(
    JSON.stringify([
      cursor.schema,
      filter.conditions.map((condition) => JSON.stringify(condition)).sort(),
      Object.entries(filter.params)
        .filter(([name]) => !PAGE_PARAMS.includes(name))
        .sort(),
      filter.sort.map((field) => [field.key, field.direction]),
      fold,
    ]),
  );
}

/** FNV-1a, 32 bits, in base 36. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/** The parameters a fingerprint leaves out: those that pick the page, not the matches or their order. */
const PAGE_PARAMS: readonly string[] = [...PAGING_PARAMS, CURSOR_PARAM];

/** The token of a cursor: base64url (no padding) of the JSON `[fingerprint, ...values]`, non-ASCII escaped. */
export function encodeCursor(print: string, values: readonly CursorValue[]): string {
  const json = JSON.stringify([print, ...values]).replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return btoa(json).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/**
 * The page of a query of a schema with cursor paging (reference §9), as `check` and the
 * client's `toFilter` make it, or `undefined` when `token` holds no cursor of this query.
 *
 * - It is bound to the schema (`Page.cursor`): its cursor key, and a print of its spec
 *   (fields and types, request parameters, paging, sort parameter), so that a cursor of
 *   `/invoices` is no cursor of `/deposits`, even for the same query. Equal specs print
 *   alike: a cursor outlives a restart, and holds on every server that runs the same code.
 * - After `token`, when there is one, if it holds this query's cursor: not too long
 *   (checked before any decoding), base64 of a JSON array, of this filter, sort and
 *   schema (`fingerprint`), each value fitting its sort key, and a value for the key.
 *   Never throws.
 */
export function cursorPage(schema: Schema, page: Page, filter: CursorScope, fold: boolean, token: string | undefined): Page | undefined {
  const cursor: PageCursor = { key: schema.paging!.cursor!.key, schema: hash(JSON.stringify(schema.spec)) };
  if (token === undefined) return { ...page, cursor };
  let parsed: unknown;
  try {
    parsed = token.length <= MAX_CURSOR_LENGTH && JSON.parse(atob(token.replaceAll('-', '+').replaceAll('_', '/')));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed)) return undefined;
  const values = parsed.slice(1) as CursorValue[];
  const { sort } = filter;
  const { key } = cursor;
  // The cursor key is unique: a cursor without its value could not say where the page starts.
  const ok = parsed[0] === fingerprint(filter, fold, cursor) && values.length === sort.length && sort.every((field, i) => fitsKey(values[i], field.type)) && values[sort.findIndex((field) => field.key === key)] != null;
  return ok ? { ...page, cursor, after: { values, key } } : undefined;
}

/** The client's `toFilter` of a schema with cursor paging: as `check` makes it, where a cursor of another query (its filter or sort since changed) is a programmer's error. */
export function clientFilter(schema: Schema, filter: Filter, page: Page, token: string | undefined): Filter {
  const sorted = { ...filter, sort: withTieBreaker(filter.sort as SortField[], schema) };
  const paged = cursorPage(schema, page, sorted, false, token);
  if (paged === undefined) throw new TypeError('after(…): no cursor of this query.');
  return { ...sorted, page: paged };
}

/**
 * The sort of a schema with cursor paging (reference §9): the keys asked for, then the
 * cursor key ascending, so that the order is total and a cursor names one place in it.
 * When the keys already hold the cursor key (in either direction), they are total as
 * they are: nothing is added.
 */
export function withTieBreaker(sort: SortField[], schema: Schema): SortField[] {
  const key = schema.fields.get(schema.paging!.cursor!.key)!;
  if (sort.some((field) => field.key === key.path)) return sort;
  return [...sort, { key: key.path, path: key.names, direction: 'asc', type: key.type }];
}
