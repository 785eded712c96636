import type { DiagnosticCode } from './codes';

/** Half-open range `[start, end)` of UTF-16 offsets. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/**
 * One problem with a query. Bad input is always reported this way, never thrown.
 *
 * `span` indexes `text`, which is the decoded key or value (`in` says which). For
 * `MALFORMED_ENCODING` there is no decoded text, so `text` is the component as sent
 * (still percent-encoded) and `span` points at the bad escape in it.
 */
export interface Diagnostic {
  /** Stable code; see `DIAGNOSTIC_CODES`. */
  readonly code: DiagnosticCode;
  /** One sentence that names the parameter. */
  readonly message: string;
  /** The key as sent (decoded when it could be decoded). Absent for whole-query problems. */
  readonly param?: string;
  /** Where in `text` the problem is. */
  readonly span?: Span;
  /** Whether `span` points into the key or the value. */
  readonly in?: 'key' | 'value';
  /** The key or value that `span` indexes, so a diagnostic can be rendered on its own. */
  readonly text?: string;
  /** How to fix it. */
  readonly hint?: string;
  /**
   * Only on the `LIMIT_EXCEEDED` that ends a list cut at `maxDiagnostics` (reference §12):
   * how many more problems the query has, not listed.
   */
  readonly omitted?: number;
}

/** The outcome of every entry point: a value, or every problem found. */
export type Result<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly errors: readonly Diagnostic[] };

/** Where a diagnostic points: the parameter, and a span in its key or value. */
export interface Location {
  readonly param: string;
  readonly in: 'key' | 'value';
  readonly text: string;
}

/** Builds a diagnostic, leaving out the fields that are not known. */
export function diagnostic(
  code: DiagnosticCode,
  message: string,
  where?: Location,
  span?: Span,
  hint?: string,
): Diagnostic {
  const d: { -readonly [K in keyof Diagnostic]: Diagnostic[K] } = { code, message };
  if (where !== undefined) {
    d.param = where.param;
    d.in = where.in;
    d.text = where.text;
    if (span !== undefined) d.span = span;
  }
  if (hint !== undefined) d.hint = hint;
  return d;
}

/** Diagnostics in one result, at most, by default (reference §12). */
export const MAX_DIAGNOSTICS = 100;

/**
 * A list of at most `max` diagnostics: past that, the first `max - 1` and a last
 * `LIMIT_EXCEEDED` that says how many more problems there were (its `omitted`). A list
 * that was cut before counts what its own last diagnostic omitted, so cutting again
 * (in `toProblemDetails`) keeps the total right.
 */
export function capDiagnostics(errors: readonly Diagnostic[], max: number): readonly Diagnostic[] {
  if (errors.length <= max) return errors;
  const kept = errors.slice(0, max - 1);
  let omitted = 0;
  for (let i = max - 1; i < errors.length; i++) omitted += errors[i]!.omitted ?? 1;
  kept.push(omission(omitted, max));
  return kept;
}

/** The `LIMIT_EXCEEDED` that ends a list cut at `max`, `omitted` problems later. */
export function omission(omitted: number, max: number): Diagnostic {
  return {
    ...diagnostic(
      'LIMIT_EXCEEDED',
      `The query has ${omitted} more ${omitted === 1 ? 'problem' : 'problems'}, not listed: at most ${max} diagnostics are reported at once.`,
      undefined,
      undefined,
      'Fix the problems listed and send the query again to see the rest.',
    ),
    omitted,
  };
}
