import { STATUS_CODES } from 'node:http';
import type { FastifyReply } from 'fastify';
import { PROBLEM_CONTENT_TYPE, splitRequestUrl, type ProblemDetails } from 'qsfilter';

/**
 * The path and the raw query of a request URL, as sent (qsfilter's `splitRequestUrl`,
 * which the adapters use too). The query keeps its leading `?` so that `check` reads it
 * as a query string whatever it starts with, and it is never decoded here: `check`
 * decodes strictly (a bare `%` is MALFORMED_ENCODING) and keeps repeated keys, which
 * Fastify's own query parser would not.
 */
export function splitUrl(url: string): { path: string; query: string } {
  const { pathname, search } = splitRequestUrl(url);
  return { path: pathname, query: search };
}

/** An RFC 9457 problem details body, for problems other than a bad query (which `toProblemDetails` makes). */
export interface Problem {
  readonly type: 'about:blank';
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly instance?: string;
  /** Extension members, such as `errors`. */
  readonly [extension: string]: unknown;
}

/** One problem of a request body, in a problem's `errors`: where (a JSON Pointer) and what. */
export interface BodyError {
  readonly pointer: string;
  readonly detail: string;
}

/** A problem with the standard title of its status. */
export function problem(status: number, detail: string, instance?: string, extensions?: Readonly<Record<string, unknown>>): Problem {
  return {
    type: 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    ...(instance === undefined ? {} : { instance }),
    ...extensions,
  };
}

/** Answers with a problem, as `application/problem+json`. */
export function sendProblem(reply: FastifyReply, body: Problem | ProblemDetails): FastifyReply {
  return reply.code(body.status).type(PROBLEM_CONTENT_TYPE).send(body);
}

/**
 * Text the API can store: well-formed Unicode without NUL. Postgres refuses both in
 * `text` and `jsonb` (a lone surrogate arrives through a JSON escape such as "\\ud800",
 * NUL through "\\u0000" or a %00 in a path), which would make the request fail with a 500.
 */
export function isStorableText(text: string): boolean {
  return text.isWellFormed() && !text.includes('\0');
}
