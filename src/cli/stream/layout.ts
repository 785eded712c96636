import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, isPunctuation, isSpace, OPEN_BRACE, OPEN_BRACKET, QUOTE } from './chars';

/**
 * JSON text laid out again, everything in it but the whitespace between its tokens kept
 * as it is: strings with their escapes, numbers as they are spelled (`1e400`, `-0`,
 * `1.50`, 30 digits), keys in their order, repeated keys too. `--pretty` indents by two
 * spaces a level, the layout of `JSON.stringify(value, null, 2)` (`{}` and `[]` stay
 * empty); `--ndjson` and `--compact` write an item on one line as it came, and only an
 * item that spans lines (JSON text indented) loses the whitespace between its tokens.
 * The text is valid JSON (JSON.parse read it), which this relies on.
 */

/** Text is handed on in pieces of about this many characters: an item indented deep can grow far past the longest string. */
const PIECE_CHARS = 1 << 13;

/** Whether JSON text spans lines: only whitespace between tokens can hold a line break. */
export function spansLines(json: string): boolean {
  return json.includes('\n') || json.includes('\r');
}

/**
 * Writes `json` without the whitespace between its tokens (`indent` false), or indented
 * by two spaces a level, its first line at `level` levels (and the rest below it).
 * The text goes to `emit` in pieces.
 */
export function layOut(json: string, indent: boolean, level: number, emit: (piece: string) => void): void {
  let out = '';
  const n = json.length;
  let i = 0;
  while (i < n) {
    const c = json.charCodeAt(i);
    let end = i + 1;
    if (isSpace(c)) {
      // Dropped: the layout's own whitespace is written with the punctuation.
    } else if (c === QUOTE) {
      end = stringEnd(json, i);
      out += json.slice(i, end);
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      const next = nextToken(json, end);
      if (json.charCodeAt(next) === (c === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET)) {
        out += c === OPEN_BRACE ? '{}' : '[]';
        end = next + 1;
      } else {
        level++;
        out += indent ? `${json[i]}${newline(level)}` : json[i];
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      level--;
      out += indent ? `${newline(level)}${json[i]}` : json[i];
    } else if (c === COMMA) {
      out += indent ? `,${newline(level)}` : ',';
    } else if (c === COLON) {
      out += indent ? ': ' : ':';
    } else {
      // A number or a literal: up to the next whitespace or punctuation.
      while (end < n && !isSpace(json.charCodeAt(end)) && !isPunctuation(json.charCodeAt(end))) end++;
      out += json.slice(i, end);
    }
    i = end;
    if (out.length >= PIECE_CHARS) {
      emit(out);
      out = '';
    }
  }
  if (out !== '') emit(out);
}

/** The index just past the string that starts at `start` (its quote). */
function stringEnd(json: string, start: number): number {
  let quote = json.indexOf('"', start + 1);
  // A quote preceded by an odd number of backslashes is escaped.
  for (;;) {
    let backslashes = 0;
    while (json.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    quote = json.indexOf('"', quote + 1);
  }
}

function nextToken(json: string, start: number): number {
  let i = start;
  while (isSpace(json.charCodeAt(i))) i++;
  return i;
}

const newlines: string[] = [];

/** A line break and the indentation of `level`, made once per level. */
function newline(level: number): string {
  return (newlines[level] ??= `\n${'  '.repeat(level)}`);
}
