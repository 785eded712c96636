import type { DiagnosticCode } from './codes';
import { ownCopy, ownOptions, wrongArgument } from '../arguments/arguments';
import { expectDiagnostic } from './guard';
import { capDiagnostics, MAX_DIAGNOSTICS, type Diagnostic, type Span } from './diagnostic';
import { cut } from '../text/quote';

/** One entry of the `errors` extension of a problem details body. */
export interface ProblemError {
  readonly code: DiagnosticCode;
  /** The key as sent; past 64 characters, its first 64 and a `…`, as in messages (reference §12). */
  readonly param?: string;
  readonly message: string;
  readonly hint?: string;
  readonly in?: 'key' | 'value';
  readonly span?: Span;
  /** On the last entry of a list that was cut: how many more problems there were. */
  readonly omitted?: number;
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
  /**
   * Entries of `errors`, at most (100 by default, reference §12): past it, the last entry
   * says how many more problems there were. `check` already cuts its list so.
   */
  readonly maxDiagnostics?: number;
}

/** The media type of the body `toProblemDetails` makes. */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/**
 * Turns diagnostics into an RFC 9457 problem details body for a 400 response, with an
 * `errors` extension listing each problem's code, param (the parameter's key, as a Diagnostic names it), message, hint and span.
 * The body is bounded whatever the query: at most `maxDiagnostics` entries, each with
 * its user text cut as in messages.
 */
export function toProblemDetails(errors: readonly Diagnostic[], options?: ProblemOptions): ProblemDetails {
  const fn = 'toProblemDetails';
  if (!Array.isArray(errors)) wrongArgument(fn, 'the diagnostics', 'an array (result.errors)', errors);
  errors.forEach((d, i) => expectDiagnostic(fn, `errors[${i}]`, d));
  options = ownOptions(fn, options, ['type', 'title', 'instance', 'maxDiagnostics']);
  for (const key of ['type', 'title', 'instance'] as const) {
    if (options?.[key] !== undefined && typeof options[key] !== 'string') wrongArgument(fn, `"${key}"`, 'a string', options[key]);
  }
  const max = options?.maxDiagnostics ?? MAX_DIAGNOSTICS;
  if (!(max >= 1) || (Number.isFinite(max) && !Number.isInteger(max))) wrongArgument(fn, '"maxDiagnostics"', 'a positive integer or Infinity', max);
  const type = options?.type ?? 'about:blank';
  // Copies of their own properties: an optional field (`hint`, `omitted`…) a diagnostic
  // lacks is absent, whatever Object.prototype holds.
  const listed = capDiagnostics(errors.map((d) => ownCopy(d)), max);
  return {
    type,
    title: options?.title ?? (type === 'about:blank' ? 'Bad Request' : 'Invalid query'),
    status: 400,
    detail: detail(listed),
    ...(options?.instance === undefined ? {} : { instance: options.instance }),
    errors: listed.map((d) => ({
      code: d.code,
      ...(d.param === undefined ? {} : { param: cut(d.param) }),
      message: d.message,
      ...(d.hint === undefined ? {} : { hint: d.hint }),
      ...(d.in === undefined ? {} : { in: d.in }),
      ...(d.span === undefined ? {} : { span: { start: d.span.start, end: d.span.end } }),
      ...(d.omitted === undefined ? {} : { omitted: d.omitted }),
    })),
  };
}

/** One sentence for people; the `errors` extension has the details. */
function detail(errors: readonly Diagnostic[]): string {
  const [first] = errors;
  if (first === undefined) return 'The query was rejected.';
  if (errors.length === 1) return first.message;
  const omitted = errors[errors.length - 1]!.omitted;
  const listed =
    omitted === undefined
      ? `${errors.length} problems, each listed in "errors"`
      : `${errors.length - 1 + omitted} problems, the first ${errors.length - 1} listed in "errors"`;
  return `The query has ${listed}. The first: ${first.message}`;
}
