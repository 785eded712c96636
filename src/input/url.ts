import { wrongArgument } from '../arguments/arguments';
/**
 * The path and the query of a request URL, as sent: nothing decoded. `search` keeps its
 * leading `?` (or is empty), so that `check` always reads it as a query string, even one
 * that starts with `/` or looks like a URL.
 */
export interface RequestTarget {
  readonly pathname: string;
  readonly search: string;
}

/**
 * Where the query of a URL or absolute path lies: after the first `?`, up to the first
 * `#` (a `?` inside the fragment is part of the fragment). `start` is -1 when there is
 * no query; `end` is where the query, or the path when there is none, ends.
 */
export function queryRange(url: string): { readonly start: number; readonly end: number } {
  const hash = url.indexOf('#');
  const end = hash === -1 ? url.length : hash;
  const q = url.indexOf('?');
  return { start: q === -1 || q > end ? -1 : q + 1, end };
}

/**
 * Splits a request URL as a server receives it (Node's `req.url`, Fastify's
 * `request.url`, Express's `req.originalUrl`: `/invoices?…`; Hono's `c.req.url` or an
 * absolute-form request target: `http://host/invoices?…`) into its path and query,
 * without decoding either: the query goes to `check` as sent, which is the only way to
 * keep strict decoding (reference §2: a framework's parsed query has already turned a bare
 * `%` into `"\uFFFD"` or left it as a wildcard).
 */
export function splitRequestUrl(url: string): RequestTarget {
  return requestTarget('splitRequestUrl', url);
}

/** `splitRequestUrl` for `fn`, which a URL that is not a string is the `TypeError` of. */
export function requestTarget(fn: string, url: unknown): RequestTarget {
  if (typeof url !== 'string') wrongArgument(fn, 'the URL', 'a string (the request URL as received: path and query)', url);
  const { start, end } = queryRange(url);
  const pathEnd = start === -1 ? end : start - 1;
  const pathStart = isUrl(url) ? authorityEnd(url, pathEnd) : 0;
  const pathname = url.slice(pathStart, pathEnd);
  return { pathname: pathname === '' ? '/' : pathname, search: start === -1 ? '' : url.slice(start - 1, end) };
}

const URL_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;

/** `scheme://…`: tested without a regular expression over the whole string, which every query would pay for. */
export function isUrl(s: string): boolean {
  const colon = s.indexOf(':');
  return colon > 0 && s.charCodeAt(colon + 1) === 47 && s.charCodeAt(colon + 2) === 47 && URL_SCHEME.test(s.slice(0, colon));
}

/** Where the path of `scheme://authority/path` starts: the first `/` after the authority, or `limit`. */
function authorityEnd(url: string, limit: number): number {
  const slash = url.indexOf('/', url.indexOf(':') + 3);
  return slash === -1 || slash > limit ? limit : slash;
}
