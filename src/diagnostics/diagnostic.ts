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

/**
 * Quotes user text for a message. JSON string syntax escapes quotes, backslashes and
 * C0 controls; C1 controls, format characters (bidi overrides, zero-width joiners)
 * and line separators are escaped as well, so no message, wherever it is printed or
 * logged, carries characters that act on a terminal or hide what the text says.
 */
export function quote(text: string, max = 40): string {
  let cut = text;
  if (text.length > max) {
    // Never cut a surrogate pair in two.
    const end = text.charCodeAt(max - 1) >= 0xd800 && text.charCodeAt(max - 1) <= 0xdbff ? max - 1 : max;
    cut = `${text.slice(0, end)}…`;
  }
  return JSON.stringify(cut).replace(INVISIBLE, (c) => escapeUnits(c));
}

const INVISIBLE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;

/** `\uXXXX` for each UTF-16 unit of a character, as JSON writes escapes. */
function escapeUnits(c: string): string {
  let out = '';
  for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}
