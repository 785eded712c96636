import { diagnostic, type Diagnostic, type Location } from '../diagnostics/diagnostic';
import { quote } from '../text/quote';
import { CURSOR_PARAM } from '../schema/define';
import type { Page } from '../filter/filter';
import { readCursor, withTieBreaker, type CursorCodec, type CursorRequest } from '../filter/cursor';
import { single } from './request';

/** Cursor paging's code, which `defineSchema` gives a schema with `paging.cursor` (`CursorPaging`). */
export const CURSOR_CODEC: CursorCodec = { order: withTieBreaker, read: readCursor, check: checkCursor };

/**
 * Ends the request's sort with the cursor key (reference §9), and returns the page after
 * its `after` token. `after` with `offset`, or repeated, is `INVALID_PAGING`; a token that
 * holds no cursor of this query is `INVALID_CURSOR`. The token's fingerprint is the whole
 * filter's, so it is read only when the rest of the query is valid.
 */
function checkCursor(request: CursorRequest, page: Page, caseInsensitive: boolean | undefined): Page {
  const { schema, params, errors } = request;
  const { key } = schema.paging!.cursor!;
  request.sort = withTieBreaker(request.sort, schema.fields.get(key)!);
  if (!Object.hasOwn(params, CURSOR_PARAM)) return page;
  if (Object.hasOwn(params, 'offset')) {
    errors.push(problem('INVALID_PAGING', 'cannot be sent with "offset"', CURSOR_PARAM, 'key', 'Page either by cursor or by offset, not both.'));
  }
  const token = single(params, CURSOR_PARAM, 'INVALID_PAGING', errors);
  if (token === undefined || errors.length > 0) return page;
  const after = readCursor(token, { ...request, caseInsensitive }, key);
  if (after !== undefined) return { ...page, after };
  errors.push(problem('INVALID_CURSOR', 'holds no cursor of this query', token, 'value', 'Start again without after: a cursor holds only for the query that made it.'));
  return page;
}

function problem(code: 'INVALID_PAGING' | 'INVALID_CURSOR', what: string, text: string, part: Location['in'], hint: string): Diagnostic {
  return diagnostic(code, `Parameter ${quote(CURSOR_PARAM)} ${what}.`, { param: CURSOR_PARAM, in: part, text }, { start: 0, end: text.length }, hint);
}
