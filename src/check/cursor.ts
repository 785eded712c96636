import type { Diagnostic } from '../diagnostics/diagnostic';
import type { DiagnosticCode } from '../diagnostics/codes';
import { CURSOR_PARAM } from '../spec/spec';
import type { Page } from '../filter/filter';
import { clientFilter, cursorPage, withTieBreaker, type CursorCodec, type CursorRequest } from '../filter/cursor';

/**
 * Cursor paging's code, which `defineSchema` gives a schema with `paging.cursor`
 * (`CursorPaging`). It loads with `defineSchema`, before any validation (the client's
 * budget, test/client/bundle.test.ts): so its diagnostics are written out here rather
 * than built with check's helpers, which would come along.
 */
export const CURSOR_CODEC: CursorCodec = { filter: clientFilter, check: checkCursor };

/**
 * Ends the request's sort with the cursor key (reference §9), binds the page to the schema
 * (`Page.cursor`), and returns the page after its `after` token. `after` repeated, or with
 * `offset`, is `INVALID_PAGING` (one diagnostic for both); a token that holds no cursor of
 * this query is `INVALID_CURSOR`. The token's fingerprint is the whole filter's, so it is
 * read only when the rest of the query is valid. The request's parameters are read as
 * own properties: an `after` on `Object.prototype` is no request's.
 */
function checkCursor(request: CursorRequest, page: Page, caseInsensitive: boolean | undefined): Page {
  const { schema, params, errors } = request;
  request.sort = withTieBreaker(request.sort, schema);
  const token = Object.hasOwn(params, CURSOR_PARAM) ? params[CURSOR_PARAM] : undefined;
  // A repeated parameter would be an OR, which the API does not have; with offset, the page would be twice defined.
  if (token !== undefined && (typeof token !== 'string' || Object.hasOwn(params, 'offset'))) {
    errors.push(problem('INVALID_PAGING', 'takes one cursor, and no offset', CURSOR_PARAM, 'key', 'Page by one cursor, or by offset.'));
  }
  if (errors.length > 0) return page;
  const paged = cursorPage(schema, page, request, caseInsensitive === true, token as string | undefined);
  if (paged !== undefined) return paged;
  errors.push(problem('INVALID_CURSOR', 'holds no cursor of this query', token as string, 'value', 'Start again without after: a cursor is for the query that made it.'));
  return page;
}

/** A problem of `after`: its whole key or value spanned. */
function problem(code: DiagnosticCode, what: string, text: string, part: 'key' | 'value', hint: string): Diagnostic {
  return { code, message: `Parameter "${CURSOR_PARAM}" ${what}.`, param: CURSOR_PARAM, in: part, text, span: { start: 0, end: text.length }, hint };
}
