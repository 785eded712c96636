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

/** Characters of user text quoted in a message or hint, at most (reference §12). */
export const MAX_QUOTED = 64;

/**
 * Quotes user text for a message, as it was typed: a backslash stays one backslash
 * (`\b` is shown as "\b", not "\\b") and a quote stays a quote, since the text is
 * shown to be read, and cut at 64 characters (reference §12). See `excerpt` for what is
 * escaped.
 */
export function quote(text: string, max = MAX_QUOTED): string {
  return `"${excerpt(text, max)}"`;
}

/**
 * User text for a message or hint, unquoted: at most `max` characters and a `…`, never
 * cutting a character in two. C0 and C1 controls, format characters (bidi overrides,
 * zero-width joiners), line separators and lone surrogates are escaped as `\uXXXX`, so
 * no message, wherever it is printed or logged, carries characters that act on a
 * terminal or hide what the text says. The work is bounded by `max`, not the text.
 */
export function excerpt(text: string, max = MAX_QUOTED): string {
  return escaped(cut(text, max));
}

/**
 * Text with every character that acts on a terminal or hides what the text says written
 * as `\uXXXX`: C0 controls (ESC, line breaks), DEL, C1 controls (U+009B is a CSI on some
 * terminals), format characters (a U+202E bidi override reverses what follows), line
 * separators and lone surrogates. The one escaping of user text that messages, hints and
 * the command line's output share (`excerpt`, the CLI's errors and summaries; `jsonText`
 * escapes the same, keeping only the line breaks of its indentation).
 */
export function escaped(text: string): string {
  return text.replace(INVISIBLE, escapeUnits);
}

/** The text itself up to `max` characters, else its first `max` and a `…`, never cutting a character in two. */
export function cut(text: string, max = MAX_QUOTED): string {
  if (text.length <= max) return text;
  const end = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, end)}…`;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/gu;

/**
 * A value as JSON text for output that people may read on a terminal (the command
 * line's). `JSON.stringify` escapes only C0 controls and lone surrogates: DEL, C1
 * controls (U+009B is a CSI on some terminals) and format characters (a U+202E bidi
 * override reverses what follows) it leaves raw in strings, and these are escaped here
 * too, as `excerpt` escapes them. The line breaks of `indent` are the only raw controls
 * left (inside a string a line break is always escaped), so the text parses to the same value.
 */
export function jsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(INVISIBLE_BUT_NEWLINE, escapeUnits);
}

/** What `escaped` escapes, but the line breaks of `indent`. */
const INVISIBLE_BUT_NEWLINE = /(?!\n)[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/gu;

/** User text as a JSON string literal, whole, escaped as `jsonText` escapes: `"a\u202eb"`. */
export function jsonQuote(text: string): string {
  return jsonText(text);
}

/** `\\uXXXX` for each UTF-16 unit of a character, as JSON writes escapes. */
function escapeUnits(c: string): string {
  let out = '';
  for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/** Names listed in a hint, at most: a schema's fields are not bounded by the query, and a hint must be (reference §12). */
export const MAX_LISTED = 32;

/**
 * Names from the schema for a hint, joined by ", ": the first `max`, each cut at 64
 * characters, then how many more there are. So a hint that lists what a resource
 * offers is bounded whatever the size of the schema, and every unknown parameter of a
 * query does not copy a thousand field names into the answer.
 */
export function nameList(names: readonly string[], max = MAX_LISTED): string {
  const shown = names.slice(0, max).map((name) => cut(name)).join(', ');
  return names.length <= max ? shown : `${shown} and ${names.length - max} more`;
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
