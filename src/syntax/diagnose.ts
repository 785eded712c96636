import { diagnostic, type Diagnostic, type Location, type Span } from '../diagnostics/diagnostic';
import { excerpt, quote } from '../text/quote';
import type { IRecognitionException, IToken, TokenType } from './chevrotain';
import { badEscapes, quotedLength } from './operand';
import type { Problems } from './parsed';
import { PATH_HINT } from './path';
import { Dot, Equals, Operator, QuotedThenText, Semi, Unterminated } from './tokens';

// The diagnostics of a parse that went wrong: each recognition error of the parser
// (grammar.ts) is one diagnostic, its code told by the token it stopped at and the
// token before it; the junk the lexer set apart in a key and the invalid escapes inside
// operands are the lexical ones. Nothing here recognises the grammar again: it reads
// the tokens around an error to name it, and to say how to fix it.

/**
 * The index of the token that starts at `offset` among `tokens[from..to]`, or `to` when
 * none does (an error at the end of the input). The tokens are in offset order.
 */
export function tokenAt(tokens: readonly IToken[], from: number, to: number, offset: number): number {
  let low = from;
  let high = to;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (tokens[middle]!.startOffset < offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * What is wrong with a key, from its junk (the first run of characters no name holds)
 * or else the parser's first error in it (a name missing before or after a dot);
 * `undefined` when the key is a path. `base` is where the key starts in the lexed text.
 */
export function keyProblem(key: string, junk: IToken | undefined, error: IRecognitionException | undefined, base: number): Diagnostic | undefined {
  if (junk === undefined && error === undefined) return undefined;
  const where: Location = { param: key, in: 'key', text: key };
  if (key === '' && error !== undefined) {
    return diagnostic('INVALID_PATH', `Parameter "" has an empty name.`, where, { start: 0, end: 0 }, 'Write the field to filter before the "=", e.g. totalAmount=100.');
  }
  let span: Span;
  let reason: string;
  if (junk !== undefined) {
    span = { start: junk.startOffset - base, end: junk.startOffset - base + junk.image.length };
    reason = `${quote(junk.image)} is not allowed in a name`;
  } else {
    // A name is missing where the parser met a dot, or the key's end.
    const at = error!.token.tokenType === Dot ? error!.token.startOffset - base : key.length;
    span = { start: at, end: Math.min(at + 1, key.length) };
    reason = 'it has an empty name';
  }
  return diagnostic('INVALID_PATH', `Parameter ${quote(key)} is not a valid path: ${reason}.`, where, span, PATH_HINT);
}

/** One `INVALID_ESCAPE` for each invalid escape in the operands of a value, `tokens[from..to]`; `base` is where the value starts. */
export function escapeProblems(key: string, value: string, tokens: readonly IToken[], from: number, to: number, base: number, problems: Problems): void {
  const where: Location = { param: key, in: 'value', text: value };
  for (let t = from; t < to; t++) {
    const token = tokens[t]!;
    if (!token.image.includes('\\')) continue;
    const start = token.startOffset;
    badEscapes(token.image, 0, token.image.length, (at, end) => {
      // Counted, not built, past the most that can be listed.
      if (problems.full) return problems.skip();
      const span = { start: start + at - base, end: start + end - base };
      problems.add(
        diagnostic(
          'INVALID_ESCAPE',
          `Parameter ${quote(key)} has the escape ${quote(value.slice(span.start, span.end))}, which is not one.`,
          where,
          span,
          'A backslash escapes only \\\\, \\%, \\; and \\"; write a literal backslash as \\\\.',
        ),
      );
    });
  }
}

/**
 * The diagnostic of a recognition error in a value whose tokens are `tokens[equals..end]`
 * (its `Equals` to its `End`): where the parser met a token it did not expect, after
 * the token before it.
 */
export function valueProblem(key: string, value: string, error: IRecognitionException, tokens: readonly IToken[], equals: number, end: number): Diagnostic {
  const base = tokens[equals]!.startOffset + 1;
  const where: Location = { param: key, in: 'value', text: value };
  const at = tokenAt(tokens, equals + 1, end, error.token.startOffset < 0 ? tokens[end]!.startOffset : error.token.startOffset);
  const token = tokens[at]!;
  const previous = tokens[at - 1]!;
  const is = (t: IToken, type: TokenType): boolean => t.tokenType === type;
  const startOf = (t: IToken): number => t.startOffset - base;
  const endOf = (t: IToken): number => t.startOffset + t.image.length - base;
  if (is(token, QuotedThenText)) {
    // The text after the closing quote, up to the end of its clause.
    const span = { start: startOf(token) + quotedLength(token.image), end: endOf(token) };
    return diagnostic(
      'UNEXPECTED_TEXT',
      `Parameter ${quote(key)} has text after a closing quote: ${quote(value.slice(span.start, span.end))}.`,
      where,
      span,
      'Only ";" or the end of the value may follow a closing quote; put all of the text inside the quotes.',
    );
  }
  if (is(token, Unterminated)) {
    return diagnostic(
      'UNTERMINATED_QUOTE',
      `Parameter ${quote(key)} has a quoted operand that is never closed.`,
      where,
      { start: startOf(token), end: endOf(token) },
      'Close the quote with ", and escape a quote inside it as \\".',
    );
  }
  if (is(previous, Operator)) {
    return diagnostic(
      'EMPTY_OPERAND',
      `Parameter ${quote(key)} has the operator ${quote(previous.image)} with nothing to compare with.`,
      where,
      { start: startOf(previous), end: endOf(previous) },
      `Give a value after the operator (${previous.image}100), or quote the text to match it literally: "${previous.image}".`,
    );
  }
  if (value === '') {
    return diagnostic(
      'EMPTY_VALUE',
      `Parameter ${quote(key)} has an empty value.`,
      where,
      { start: 0, end: 0 },
      `Give a value after the "=", or match the empty string with ${excerpt(key)}="".`,
    );
  }
  // A clause with nothing in it: a `;` or the end right after the `=` or another `;`.
  const gap = { start: endOf(previous), end: endOf(previous) };
  if (is(previous, Semi) || is(previous, Equals)) {
    return diagnostic('EMPTY_CLAUSE', `Parameter ${quote(key)} has an empty clause.`, where, gap, 'Remove the extra ";", or put a condition between the semicolons; match an empty string with "".');
  }
  // Not reached: every token after which the grammar wants more is named above. Should
  // one be missed, the value is still refused, with a diagnostic rather than an exception.
  return diagnostic('UNEXPECTED_TEXT', `Parameter ${quote(key)} has text the grammar does not allow: ${quote(token.image)}.`, where, { start: startOf(token), end: endOf(token) }, 'See the filter grammar (grammar/filter.abnf).');
}
