/**
 * User text as messages and hints show it, cut and escaped (reference §12): for the
 * diagnostics of a query and the TypeErrors of a wrong argument alike, so it sits below
 * both.
 */

/** Characters of user text quoted in a message or hint, at most (reference §12). */
const MAX_QUOTED = 64;

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
 * line's): `JSON.stringify`'s text, escaped as `escapedJson` escapes it.
 */
export function jsonText(value: unknown, indent?: number): string {
  return escapedJson(JSON.stringify(value, null, indent));
}

/**
 * JSON text with the characters `escaped` escapes written as `\uXXXX` where they stand
 * raw, so that it parses to the same value and cannot act on a terminal. In JSON text a
 * C0 control stands raw only as the whitespace between tokens (tab, line feed, carriage
 * return: `JSON.stringify` escapes the rest, and so must any valid JSON): those are kept.
 * What is left raw in strings by `JSON.stringify`, or by whoever wrote the text, is
 * escaped: DEL, C1 controls (U+009B is a CSI on some terminals), format characters (a
 * U+202E bidi override reverses what follows), line separators and lone surrogates.
 */
export function escapedJson(json: string): string {
  return json.replace(INVISIBLE_IN_JSON, escapeUnits);
}

const INVISIBLE_IN_JSON = /[\u007f-\u009f\p{Cf}\p{Cs}\u2028\u2029]/gu;

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
const MAX_LISTED = 32;

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
