import type { DiagnosticCode } from './codes';
import type { Diagnostic, Span } from './diagnostic';

/** One entry of the `errors` extension of a problem details body. */
export interface ProblemError {
  readonly code: DiagnosticCode;
  readonly parameter?: string;
  readonly message: string;
  readonly hint?: string;
  readonly in?: 'key' | 'value';
  readonly span?: Span;
}

/** An RFC 9457 `application/problem+json` body for a rejected query. */
export interface ProblemDetails {
  readonly type: string;
  readonly title: string;
  readonly status: 400;
  readonly detail: string;
  readonly instance?: string;
  readonly errors: readonly ProblemError[];
}

/** Options of `toProblemDetails`. */
export interface ProblemOptions {
  /** A URI naming the problem type; `about:blank` (the RFC's default) when not given. */
  readonly type?: string;
  /** A short summary; defaults to "Bad Request" for `about:blank`, "Invalid query" otherwise. */
  readonly title?: string;
  /** A URI of this occurrence, e.g. the request path. */
  readonly instance?: string;
}

/** The media type of the body `toProblemDetails` makes. */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/**
 * Turns diagnostics into an RFC 9457 problem details body for a 400 response, with an
 * `errors` extension listing each problem's code, parameter, message, hint and span.
 */
export function toProblemDetails(errors: readonly Diagnostic[], options?: ProblemOptions): ProblemDetails {
  const type = options?.type ?? 'about:blank';
  return {
    type,
    title: options?.title ?? (type === 'about:blank' ? 'Bad Request' : 'Invalid query'),
    status: 400,
    detail: detail(errors),
    ...(options?.instance === undefined ? {} : { instance: options.instance }),
    errors: errors.map((d) => ({
      code: d.code,
      ...(d.param === undefined ? {} : { parameter: d.param }),
      message: d.message,
      ...(d.hint === undefined ? {} : { hint: d.hint }),
      ...(d.in === undefined ? {} : { in: d.in }),
      ...(d.span === undefined ? {} : { span: { start: d.span.start, end: d.span.end } }),
    })),
  };
}

/** One sentence for people; the `errors` extension has the details. */
function detail(errors: readonly Diagnostic[]): string {
  const [first] = errors;
  if (first === undefined) return 'The query was rejected.';
  if (errors.length === 1) return first.message;
  return `The query has ${errors.length} problems, each listed in "errors". The first: ${first.message}`;
}
