import type { Diagnostic, PassThroughParams, Result } from 'qsfilter';
import type { Page, Selector } from './store/store';

/** Page size when `limit` is not given. */
export const DEFAULT_LIMIT = 100;
/** The largest page a client may ask for. */
export const MAX_LIMIT = 500;

/**
 * Reads `limit` (0 to 500, default 100; 0 asks only for the count) and `offset` (0 or
 * more, default 0). Each is a whole number written as the filter language writes one
 * (no sign, no leading zeros) and given at most once; anything else is a diagnostic,
 * so that paging problems reach the client the way filter problems do.
 */
export function readPage(params: PassThroughParams): Result<Page> {
  const errors: Diagnostic[] = [];
  const limit = wholeNumber(params, 'limit', LIMIT, errors);
  const offset = wholeNumber(params, 'offset', OFFSET, errors);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: { limit, offset } };
}

/** Reads the selector parameters (exact matches), each given at most once. */
export function readSelector(params: PassThroughParams, names: readonly string[]): Result<Selector> {
  const errors: Diagnostic[] = [];
  const select: Record<string, string> = {};
  for (const name of names) {
    const value = single(params, name, errors);
    if (value !== undefined) select[name] = value;
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: select };
}

/** What a paging parameter may be, and what to say when it is not. */
interface Bounds {
  readonly fallback: number;
  readonly max: number;
  readonly range: string;
  readonly hint: string;
}

const LIMIT: Bounds = {
  fallback: DEFAULT_LIMIT,
  max: MAX_LIMIT,
  range: `from 0 to ${MAX_LIMIT}`,
  hint: `A page holds at most ${MAX_LIMIT} items (${DEFAULT_LIMIT} when limit is not given); ask for the next one with offset.`,
};

const OFFSET: Bounds = {
  fallback: 0,
  max: Number.MAX_SAFE_INTEGER,
  range: '(0 or more)',
  hint: 'offset counts the matching items to skip: 0 is the first page, then add limit for each next page.',
};

const WHOLE_NUMBER = /^(?:0|[1-9][0-9]*)$/;

function wholeNumber(params: PassThroughParams, name: string, bounds: Bounds, errors: Diagnostic[]): number {
  const text = single(params, name, errors);
  if (text === undefined) return bounds.fallback;
  const value = WHOLE_NUMBER.test(text) ? Number(text) : NaN;
  if (value <= bounds.max) return value;
  errors.push({
    code: 'INVALID_PARAMETER',
    message: `Parameter ${JSON.stringify(name)} must be a whole number ${bounds.range}, not ${JSON.stringify(text)}.`,
    param: name,
    in: 'value',
    text,
    span: { start: 0, end: text.length },
    hint: bounds.hint,
  });
  return bounds.fallback;
}

/** The one value of a pass-through parameter, or `undefined` when it is absent or (reported) repeated. */
function single(params: PassThroughParams, name: string, errors: Diagnostic[]): string | undefined {
  if (!Object.hasOwn(params, name)) return undefined;
  const value = params[name]!;
  if (typeof value === 'string') return value;
  errors.push({
    code: 'INVALID_PARAMETER',
    message: `Parameter ${JSON.stringify(name)} is given ${value.length} times; it takes one value.`,
    param: name,
    hint: 'Send it once. There is no OR: each alternative needs its own request.',
  });
  return undefined;
}
