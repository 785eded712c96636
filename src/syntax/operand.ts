import type { Operand } from './ast';

// The text of an operand token (reference §3), read once it is lexed: its escapes
// resolved and its wildcards found. The lexer takes a backslash with whatever follows;
// which escapes are valid is decided here alone, for the parser's trees and for the
// `INVALID_ESCAPE` diagnostics alike.

/** The characters an escape may hold after its backslash: `\\`, `\%`, `\;` and `\"`. */
const ESCAPABLE = '\\%;"';

/**
 * The node of an operand whose text is `text.slice(start, end)`: a `Quoted` one from
 * its opening to its closing quote, or a `Bare` one. Spans are `start`/`end` shifted by
 * `base`, where the parameter's value starts in `text`.
 */
export function readOperand(text: string, start: number, end: number, base: number): Operand {
  const span = { start: start - base, end: end - base };
  const quoted = text.charCodeAt(start) === 34; /* " */
  const from = quoted ? start + 1 : start;
  const to = quoted ? end - 1 : end;
  // Most operands hold neither an escape nor a wildcard: their text is the value. Searched
  // in the operand's own text, not to the end of `text`: one operand after another, the
  // work stays linear in the query.
  const body = text.slice(from, to);
  if (!body.includes('\\') && !body.includes('%')) return { type: 'Literal', value: body, span };
  let segments: string[] | undefined;
  let current = '';
  let run = from;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 92 /* \ */) {
      current += text.slice(run, i) + text.slice(i + 1, i + 2);
      run = ++i + 1;
    } else if (c === 37 /* % */) {
      (segments ??= []).push(current + text.slice(run, i));
      current = '';
      run = i + 1;
    }
  }
  current += text.slice(run, to);
  if (segments === undefined) return { type: 'Literal', value: current, span };
  segments.push(current);
  return { type: 'Pattern', segments, span };
}

/**
 * Calls `found` with the span (in `text`) of each invalid escape of an operand's text
 * from `start` to `end`: a backslash before a character that is not escapable, or
 * ending the value. The span covers the backslash and the whole character after it, if
 * any: both halves of a surrogate pair, so that it never cuts a character in two.
 */
export function badEscapes(text: string, start: number, end: number, found: (start: number, end: number) => void): void {
  for (let i = text.indexOf('\\', start); i !== -1 && i < end; i = text.indexOf('\\', i)) {
    const next = i + 1 < end ? text.codePointAt(i + 1)! : undefined;
    if (next !== undefined && ESCAPABLE.includes(String.fromCharCode(next))) {
      i += 2;
      continue;
    }
    const after = next === undefined ? i + 1 : i + 1 + (next > 0xffff ? 2 : 1);
    found(i, after);
    i = after;
  }
}

/** The wildcards of an operand's text from `start` to `end`: each `%` that no backslash escapes. */
export function countWildcards(text: string, start: number, end: number): number {
  let count = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 92 /* \ */) i++;
    else if (c === 37 /* % */) count++;
  }
  return count;
}

/** The length of the quoted operand that `text` starts with, closing quote included (a `QuotedThenText` token's quoted part). */
export function quotedLength(text: string): number {
  let i = 1;
  while (i < text.length && text.charCodeAt(i) !== 34 /* " */) i += text.charCodeAt(i) === 92 /* \ */ ? 2 : 1;
  return i + 1;
}
