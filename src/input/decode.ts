import { diagnostic, type Diagnostic, type Span } from '../diagnostics/diagnostic';
import { excerpt, quote } from '../text/quote';
import { describe } from '../arguments/arguments';
import type { Limits } from './limits';
import { isUrl, queryRange } from './url';

/** A record as Express or Fastify give it: values already decoded. */
export type QueryRecord = Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * Everything `parse` accepts: a raw query string (with or without `?`), a full URL
 * string or `URL`, a `URLSearchParams`, or a record of already decoded values.
 */
export type QueryInput = string | URL | URLSearchParams | QueryRecord;

/** One `key=value` part of a query, decoded. */
interface RawParam {
  /** The key decoded, or as sent when it could not be decoded. */
  readonly key: string;
  /** `undefined` when the part had no `=` at all. */
  readonly value: string | undefined;
  /**
   * Set when the part could not be read: nothing more is done with it. Always an own
   * property, `undefined` when unset, as `stopped` below: a property added to
   * `Object.prototype` must not read as one.
   */
  readonly problems?: readonly Diagnostic[] | undefined;
}

/**
 * The parts of a query in order, each decoded or with its problems; or, when a
 * whole-query limit was exceeded or the input is not a query at all, only that.
 */
type DecodedQuery =
  | { readonly params: RawParam[]; readonly stopped?: undefined }
  | { readonly params?: undefined; readonly stopped: Diagnostic };


/** Turns any accepted input into decoded key/value pairs, checking the whole-query limits first. */
export function decodeQuery(input: unknown, limits: Limits): DecodedQuery {
  if (typeof input === 'string') return decodeString(input, limits);
  try {
    if (input instanceof URL) return decodeRange(input.search, input.search.length > 0 ? 1 : 0, input.search.length, limits);
    if (input instanceof URLSearchParams) return decodedPairs(input.entries(), limits);
    const made = madeHere(input);
    if (made === undefined && isRecord(input)) return decodeRecord(input, limits);
    return failed(
      diagnostic(
        'INVALID_PARAMETER',
        `The query must be a string, URL, URLSearchParams or plain object of strings, not ${made?.what ?? describe(input)}.`,
        undefined,
        undefined,
        made?.hint ?? 'Pass the query string as sent, or the framework\'s parsed query object.',
      ),
    );
  } catch {
    // A proxy or a getter that throws (a revoked proxy throws on every look): whatever
    // cannot be read is no query. A Standard Schema validator may be given anything.
    return failed(diagnostic('INVALID_PARAMETER', 'The query object could not be read.', undefined, undefined, 'Pass a plain object of strings.'));
  }
}

/**
 * What this package makes, passed where a query belongs (`check(parse(q), schema)`):
 * none is a record of strings, and taking one for a query would report each of its
 * properties as an unknown field. Each is told apart by a property no record of a
 * query can hold (a boolean, an object, a function), so that a query that merely uses
 * these names (`type=Query&filters=a&filters=b`) is still read as one.
 */
function madeHere(input: unknown): { what: string; hint: string } | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const { ok, type, filters, conditions, params, toFilter } = input as Record<string, unknown>;
  if (typeof ok === 'boolean') return { what: 'a Result', hint: 'This is what parse() or check() returned: pass the query itself, or check a parsed one with validate(result.value, schema).' };
  // A tree's and a Filter's params are an object of the parameters passed through.
  const held = typeof params === 'object' && params !== null && !Array.isArray(params);
  if (held && type === 'Query' && Array.isArray(filters)) return { what: 'a syntax tree', hint: 'validate(ast, schema) checks a parsed query.' };
  if (held && type === 'Filter' && Array.isArray(conditions)) return { what: 'a Filter', hint: 'This query is checked already: format(filter) writes it back as a query string.' };
  if (typeof toFilter === 'function') return { what: 'a query builder', hint: 'Pass builder.toString(), the query it builds.' };
  return undefined;
}

/**
 * Only plain objects are records: a `Map` or a class instance has no own enumerable
 * keys to read, and taking it for an empty query would match everything. A plain
 * object of another realm (a `vm` context, an iframe) is one too: its prototype is its
 * realm's `Object.prototype`, which has no prototype and is no special object.
 */
function isRecord(input: unknown): input is object {
  if (typeof input !== 'object' || input === null) return false;
  const proto: unknown = Object.getPrototypeOf(input);
  if (proto === Object.prototype || proto === null) return true;
  return Object.getPrototypeOf(proto) === null && Object.prototype.toString.call(input) === '[object Object]';
}

function decodeString(s: string, limits: Limits): DecodedQuery {
  if (s.charCodeAt(0) === 63 /* ? */) return decodeRange(s, 1, s.length, limits);
  if (s.charCodeAt(0) !== 47 /* / */ && !isUrl(s)) return decodeRange(s, 0, s.length, limits);
  // A URL or an absolute path: only its query, and no query at all is an empty one.
  const { start, end } = queryRange(s);
  return start === -1 ? { params: [] } : decodeRange(s, start, end, limits);
}

/** Splits `s[start, end)` on `&` and each part on its first `=`, decoding both sides strictly. */
function decodeRange(s: string, start: number, end: number, limits: Limits): DecodedQuery {
  if (end - start > limits.maxQueryLength) return failed(queryTooLong(end - start, limits));
  const params: RawParam[] = [];
  // Most queries hold nothing to decode: then each part is its text as sent, and the
  // scan of decodeComponent, character by character, is made once for the whole range,
  // by the engine's own searches.
  const plain = isPlain(s, start, end);
  let count = 0;
  let pos = start;
  // The next `=` at or after `pos`, found again only once passed: a search per part from
  // `pos` would run to the end of the query for each part that has none (quadratic).
  let nextEq = s.indexOf('=', start);
  while (pos < end) {
    let amp = s.indexOf('&', pos);
    if (amp === -1 || amp > end) amp = end;
    if (amp > pos) {
      if (count++ >= limits.maxParams) return failed(tooManyParams(limits));
      if (nextEq !== -1 && nextEq < pos) nextEq = s.indexOf('=', pos);
      const eq = nextEq !== -1 && nextEq < amp ? nextEq : -1;
      const rawKey = s.slice(pos, eq === -1 ? amp : eq);
      const rawValue = eq === -1 ? undefined : s.slice(eq + 1, amp);
      const key = plain ? rawKey : decodeComponent(rawKey);
      const value = rawValue === undefined || plain ? rawValue : decodeComponent(rawValue);
      if (key !== undefined && (rawValue === undefined || value !== undefined)) {
        params.push({ key, value, problems: undefined });
      } else {
        // Both sides are checked, so that a part with two bad escapes gets two diagnostics.
        const problems: Diagnostic[] = [];
        if (key === undefined) problems.push(malformed(rawKey, rawKey, 'key'));
        if (rawValue !== undefined && value === undefined) problems.push(malformed(key ?? rawKey, rawValue, 'value'));
        params.push({ key: key ?? rawKey, value: undefined, problems });
      }
    }
    pos = amp + 1;
  }
  return { params, stopped: undefined };
}

/**
 * True when `decodeComponent` gives back every part of `s[start, end)` as it is: no `%`,
 * no `+`, no NUL, and no lone surrogate (those of the whole string, which may be longer:
 * a lone one outside the range only sends the range down the slower way).
 */
function isPlain(s: string, start: number, end: number): boolean {
  return !within(s.indexOf('%', start), end) && !within(s.indexOf('+', start), end) && !within(s.indexOf('\0', start), end) && s.isWellFormed();
}

function within(found: number, end: number): boolean {
  return found !== -1 && found < end;
}

/**
 * Strict `application/x-www-form-urlencoded` decoding of one component: `+` is a
 * space, and anything that is not a `%` with two hex digits forming valid UTF-8 makes
 * the component undecodable (`undefined`). NUL and lone surrogates are refused too:
 * they are not text any back end can store.
 */
export function decodeComponent(raw: string): string | undefined {
  let special = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 37 /* % */ || c === 43 /* + */ || c === 0 || (c >= 0xd800 && c <= 0xdfff)) {
      special = true;
      break;
    }
  }
  if (!special) return raw;
  if (!raw.isWellFormed() || raw.includes('\0')) return undefined;
  const spaced = raw.includes('+') ? raw.replaceAll('+', ' ') : raw;
  if (!spaced.includes('%')) return spaced;
  let decoded: string;
  try {
    decoded = decodeURIComponent(spaced);
  } catch {
    return undefined;
  }
  return decoded.includes('\0') ? undefined : decoded;
}

/**
 * Why a component could not be decoded, and where: only called once decoding failed.
 * With `decoded`, the text came already decoded and only NUL and lone surrogates count.
 */
export function findEncodingError(raw: string, decoded = false): { span: Span; problem: string } {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0) return { span: { start: i, end: i + 1 }, problem: 'holds NUL (U+0000), which is not allowed' };
    if (c >= 0xd800 && c <= 0xdfff) {
      const pair = c <= 0xdbff && isLowSurrogate(raw.charCodeAt(i + 1));
      if (pair) {
        i++;
        continue;
      }
      return { span: { start: i, end: i + 1 }, problem: 'holds a lone surrogate, which is not Unicode text' };
    }
    // Text that arrived decoded has no escapes: a "%" there is a wildcard, not a byte.
    if (decoded || c !== 37 /* % */) continue;
    const byte = hexByte(raw, i);
    if (byte < 0) {
      const end = Math.min(raw.length, i + 3);
      return { span: { start: i, end }, problem: `has ${quote(raw.slice(i, end))}, a "%" not followed by two hex digits` };
    }
    if (byte === 0) return { span: { start: i, end: i + 3 }, problem: 'holds NUL (%00), which is not allowed' };
    const length = utf8SequenceLength(raw, i);
    if (length < 0) {
      const end = i - 3 * length;
      return { span: { start: i, end }, problem: `has ${quote(raw.slice(i, end))}, which is not valid UTF-8` };
    }
    i += 3 * length - 1;
  }
  // decodeComponent and this scan agree on every input; this is never reached.
  return { span: { start: 0, end: raw.length }, problem: 'is not valid' };
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const lower = c | 0x20;
  if (lower >= 97 && lower <= 102) return lower - 87;
  return -1;
}

/** The byte of the `%XX` escape at `i`, or -1 when it is not one. */
function hexByte(s: string, i: number): number {
  const hi = hexValue(s.charCodeAt(i + 1));
  const lo = hexValue(s.charCodeAt(i + 2));
  return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
}

/**
 * Number of `%XX` escapes forming one well-formed UTF-8 sequence at `i` (RFC 3629
 * table 3-7), or minus the length of the ill-formed sequence there: a bad lead byte
 * alone, or the lead byte and the continuation bytes that were still valid (the
 * "maximal subpart" of Unicode §3.9), not the byte that broke the sequence, which
 * may be fine on its own (`%C3%28` is a bad `%C3` and then "(").
 */
function utf8SequenceLength(s: string, i: number): number {
  const lead = hexByte(s, i);
  if (lead < 0x80) return 1;
  let need: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) need = 1;
  else if (lead >= 0xe0 && lead <= 0xef) {
    need = 2;
    if (lead === 0xe0) lo = 0xa0;
    if (lead === 0xed) hi = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    need = 3;
    if (lead === 0xf0) lo = 0x90;
    if (lead === 0xf4) hi = 0x8f;
  } else return -1;
  for (let k = 1; k <= need; k++) {
    const at = i + 3 * k;
    const b = s.charCodeAt(at) === 37 ? hexByte(s, at) : -1;
    if (b < lo || b > hi) return -k;
    lo = 0x80;
    hi = 0xbf;
  }
  return need + 1;
}

function malformed(param: string, raw: string, where: 'key' | 'value'): Diagnostic {
  const { span, problem } = findEncodingError(raw);
  const fixed = percentsEscaped(raw);
  return diagnostic(
    'MALFORMED_ENCODING',
    `The ${where} of parameter ${quote(param)} ${problem}.`,
    { param, in: where, text: raw },
    span,
    problem.includes('"%"') || problem.includes('UTF-8')
      ? `A "%" that is meant as the wildcard, or as a percent sign, is sent encoded as "%25": ${excerpt(where === 'value' ? `${param}=${fixed}` : fixed)}.`
      : 'Send only Unicode text without control character NUL.',
  );
}

/**
 * The component as it was most likely meant: each "%" that starts no valid escape
 * (`%ac` in `%acme%`, a lone `%`) sent as "%25", valid escapes kept as they are.
 */
function percentsEscaped(raw: string): string {
  let out = '';
  let from = 0;
  for (let i = raw.indexOf('%'); i !== -1; i = raw.indexOf('%', i + 1)) {
    const length = hexByte(raw, i) < 0 ? -1 : utf8SequenceLength(raw, i);
    if (length > 0) {
      i += 3 * length - 1;
      continue;
    }
    out += `${raw.slice(from, i)}%25`;
    from = i + 1;
  }
  return out + raw.slice(from);
}

/** Already-decoded text (from a record or URLSearchParams) gets the same text checks as decoded text. */
function checkDecoded(param: string, text: string, where: 'key' | 'value'): Diagnostic | undefined {
  if (text.isWellFormed() && !text.includes('\0')) return undefined;
  const { span, problem } = findEncodingError(text, true);
  return diagnostic('MALFORMED_ENCODING', `The ${where} of parameter ${quote(param)} ${problem}.`, { param, in: where, text }, span, 'Send only Unicode text without control character NUL.');
}

/** A record value that cannot be a parameter: it stays in the list, in its place, with its problem. */
type Unreadable = readonly [string, Diagnostic];

/** Pairs that are already decoded (URLSearchParams, or a flattened record). */
function decodedPairs(pairs: Iterable<readonly [string, string] | Unreadable>, limits: Limits): DecodedQuery {
  const params: RawParam[] = [];
  let size = 0;
  for (const [key, value] of pairs) {
    if (params.length >= limits.maxParams) return failed(tooManyParams(limits));
    if (typeof value !== 'string') {
      // A value that cannot be one does not spare its key the text checks: a NUL in it would reach the lexer.
      const keyProblem = checkDecoded(key, key, 'key');
      params.push({ key, value: undefined, problems: keyProblem === undefined ? [value] : [keyProblem, value] });
      continue;
    }
    size += key.length + value.length + 2;
    if (size - 1 > limits.maxQueryLength) return failed(queryTooLong(size - 1, limits));
    const keyProblem = checkDecoded(key, key, 'key');
    const valueProblem = checkDecoded(key, value, 'value');
    if (keyProblem === undefined && valueProblem === undefined) params.push({ key, value, problems: undefined });
    else params.push({ key, value: undefined, problems: [keyProblem, valueProblem].filter((d) => d !== undefined) });
  }
  return { params, stopped: undefined };
}

/** A record's pairs, in key order; a getter or proxy that throws is caught by `decodeQuery`. */
function decodeRecord(record: object, limits: Limits): DecodedQuery {
  const pairs: ([string, string] | Unreadable)[] = [];
  for (const key of Object.keys(record)) {
    const value: unknown = (record as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (typeof value === 'string') {
      pairs.push([key, value]);
    } else if (Array.isArray(value) && value.length + pairs.length > limits.maxParams) {
      return failed(tooManyParams(limits));
    } else if (Array.isArray(value)) {
      // Each element read once, a hole as undefined (which `every` would skip): a list of strings, or no value.
      const values: unknown[] = Array.from(value);
      if (values.every((v) => typeof v === 'string')) for (const v of values as string[]) pairs.push([key, v]);
      else pairs.push([key, invalidRecordValue(key, value)]);
    } else {
      pairs.push([key, invalidRecordValue(key, value)]);
    }
    if (pairs.length > limits.maxParams) return failed(tooManyParams(limits));
  }
  return decodedPairs(pairs, limits);
}

function invalidRecordValue(key: string, value: unknown): Diagnostic {
  const nested = typeof value === 'object' && value !== null && !Array.isArray(value);
  return diagnostic(
    'INVALID_PARAMETER',
    `Parameter ${quote(key)} must be a string or a list of strings, not ${Array.isArray(value) ? 'a list with non-string items' : describe(value)}.`,
    { param: key, in: 'value', text: '' },
    undefined,
    nested
      ? 'Bracket syntax such as a[b]=1 is not part of the filter language: address sub-properties with a dot path (customerRef.id=42), and configure the query parser not to nest.'
      : 'Send every value as text.',
  );
}

function queryTooLong(length: number, limits: Limits): Diagnostic {
  return diagnostic(
    'LIMIT_EXCEEDED',
    `The query is ${length} characters long; at most ${limits.maxQueryLength} are allowed.`,
    undefined,
    undefined,
    'Send a shorter query: fewer conditions, or shorter operands (a "%" wildcard, sent as %25, can stand for the rest of a long text).',
  );
}

function tooManyParams(limits: Limits): Diagnostic {
  return diagnostic(
    'LIMIT_EXCEEDED',
    `The query has more than ${limits.maxParams} parameters.`,
    undefined,
    undefined,
    'Send fewer parameters: the conditions on one field can share a parameter, joined by ";" (totalAmount=gte:100;lte:200).',
  );
}

function failed(d: Diagnostic): DecodedQuery {
  return { stopped: d };
}
