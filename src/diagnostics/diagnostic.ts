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

/** Quotes user text for a message: JSON string syntax keeps control characters visible. */
export function quote(text: string, max = 40): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return JSON.stringify(cut);
}
