import { diagnostic, type Diagnostic, type Location } from '../diagnostics/diagnostic';
import { excerpt, quote } from '../text/quote';
import { type Paging, type RequestParam, type Schema } from '../spec/spec';
import type { PassThroughParams } from '../syntax/ast';
import type { Page } from '../filter/filter';
import { dateValue, isDiagnostic, numberValue } from './values';

/**
 * Checks the request parameters of a query against the schema (reference §9): a required
 * one must be sent, a typed one must hold one value of its type (plain: no operators,
 * no wildcards), and with paging, `limit` and `offset` must be whole numbers in range.
 * Returns the page, defaults applied, when the schema pages. The problems come in the
 * schema's order of its parameters, then paging's, then each missing parameter.
 */
export function checkRequest(schema: Schema, params: PassThroughParams, errors: Diagnostic[]): Page | undefined {
  let absent: RequestParam[] | undefined;
  for (const param of schema.requestParams.values()) {
    if (!Object.hasOwn(params, param.name)) {
      if (param.required) (absent ??= []).push(param);
      continue;
    }
    if (param.type === undefined) continue;
    const text = single(params, param.name, 'INVALID_PARAMETER', errors);
    if (text !== undefined) checkType(param, text, errors);
  }
  const page = schema.paging === undefined ? undefined : readPage(schema.paging, params, errors);
  // Last: what was not sent has no place in the query (reference §6).
  for (const param of absent ?? []) errors.push(missing(param));
  return page;
}

function missing(param: RequestParam): Diagnostic {
  const example = param.type === 'date' ? '2023-01-01' : param.type === 'number' ? '100' : '…';
  return diagnostic(
    'MISSING_PARAMETER',
    `Parameter ${quote(param.name)} is required by this resource.`,
    { param: param.name, in: 'key', text: param.name },
    undefined,
    `Send ${param.name}=${example}${param.type === undefined || param.type === 'string' ? '' : ` (a ${param.type})`} with the request.`,
  );
}

function checkType(param: RequestParam, text: string, errors: Diagnostic[]): void {
  const where: Location = { param: param.name, in: 'value', text };
  const span = { start: 0, end: text.length };
  const value =
    param.type === 'number' ? numberValue(text, where, span, true) : param.type === 'date' ? dateValue(text, where, span, true) : undefined;
  if (typeof value === 'object' && isDiagnostic(value)) errors.push(value);
}

/**
 * The one value of a request parameter that takes one, or `undefined` after reporting
 * that it was repeated. A repeated value would be an OR, which the API does not have.
 */
function single(params: PassThroughParams, name: string, code: 'INVALID_PARAMETER' | 'INVALID_PAGING', errors: Diagnostic[]): string | undefined {
  const value = params[name]!;
  if (typeof value === 'string') return value;
  errors.push(
    diagnostic(
      code,
      `Parameter ${quote(name)} is given ${value.length} times; it takes one value.`,
      { param: name, in: 'key', text: name },
      undefined,
      'Send it once: there is no OR, so each alternative needs its own request.',
    ),
  );
  return undefined;
}

const WHOLE_NUMBER = /^(?:0|[1-9][0-9]*)$/;

/** `limit` (1 to maxLimit, defaultLimit when absent) and `offset` (0 or more, 0 when absent). */
function readPage(paging: Paging, params: PassThroughParams, errors: Diagnostic[]): Page {
  const limitHint = `A page holds at most ${paging.maxLimit} items (${paging.defaultLimit} when limit is not sent); ask for the next page with offset.`;
  const offsetHint = 'offset counts the matching items to skip: 0 for the first page, then add limit for each next one.';
  const limit = pageNumber(params, 'limit', 1, paging.maxLimit, limitHint, errors) ?? paging.defaultLimit;
  const offset = pageNumber(params, 'offset', 0, Number.MAX_SAFE_INTEGER, offsetHint, errors) ?? 0;
  return { limit, offset };
}

function pageNumber(
  params: PassThroughParams,
  name: 'limit' | 'offset',
  min: number,
  max: number,
  hint: string,
  errors: Diagnostic[],
): number | undefined {
  if (!Object.hasOwn(params, name)) return undefined;
  const text = single(params, name, 'INVALID_PAGING', errors);
  if (text === undefined) return undefined;
  const value = WHOLE_NUMBER.test(text) ? Number(text) : NaN;
  if (value >= min && value <= max) return value;
  // An offset past 2^53 - 1 is a whole number 0 or more: saying only that would leave the sender puzzled.
  const range = name === 'limit' || value > max ? `from ${min} to ${max}` : '0 or more';
  const plus = /^ [0-9]+$/.test(text) ? `A "+" sent unencoded arrives as a space, and the number needs none: ${excerpt(`${name}=${text.trim()}`)}. ` : '';
  errors.push(
    diagnostic(
      'INVALID_PAGING',
      `Parameter ${quote(name)} must be a whole number ${range}, not ${quote(text)}.`,
      { param: name, in: 'value', text },
      { start: 0, end: text.length },
      plus + hint,
    ),
  );
  return undefined;
}
