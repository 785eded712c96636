import { createToken, Lexer, type IToken, type TokenType } from './chevrotain';

/**
 * The tokens of keys and values, lexed in one `tokenize` call per query: the filter
 * parameters are joined as `key NUL value NUL key NUL value NUL …`. NUL cannot occur
 * in decoded text (the decoder refuses it), so it only ever separates. Three lexer
 * modes follow the structure: `key` (dot paths), `value` (clauses) and `quoted` (the
 * inside of a quoted operand).
 */
export const SEPARATOR = '\0';

// Every token is made by a call marked `/* @__PURE__ */`, with arguments free of side
// effects (no spread, no property read): an app that imports from the main entry
// something other than the parser (format, compile, toSql, the codes) then bundles
// none of these tokens, and none of Chevrotain behind them.

/**
 * A `start_chars_hint` for a complement set such as `[^;\\%\0]`: every char code
 * below 256 that is not excluded, and one char code from each bucket of 255 above,
 * which is how chevrotain indexes first characters. Without it the first-character
 * optimization of the whole lexer is lost.
 */
function allCharsExcept(excluded: string): number[] {
  const codes: number[] = [];
  for (let c = 0; c < 256; c++) if (!excluded.includes(String.fromCharCode(c))) codes.push(c);
  for (let c = 256; c < 0x10000; c += 255) codes.push(c);
  codes.push(0xffff);
  return codes;
}

/** The characters a name starts with: the first characters of a `Key` and of a `SortPath`. */
const NAME_START = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_';

/** Anything an operand is made of: the parser consumes the category, the AST builder looks at the kind. */
export const Piece = /* @__PURE__ */ categoryToken('Piece');

/** A token that matches no text and stands for the tokens of its category. */
function categoryToken(name: string): TokenType {
  return createToken({ name, pattern: Lexer.NA });
}

// key mode
/**
 * A `SimpleParam`: a key that is a path (as `Key` reads it) and its separator, then one
 * or more clauses joined by `;`, and the separator after them. A clause is an optional
 * operator and an operand, either quoted (`"`, then anything but `"` `\` NUL, or an
 * escape, then `"`), or bare: anything but `;` `\` NUL, or an escape, not opening a
 * quote. An escape is one that `Escape` takes; `%` is a wildcard in either.
 * The lookahead `(?=(op)?)` takes the operator once and for all (a lookahead does not
 * backtrack: `gt:` alone is no operand) and `\1` (`\2`) consumes it. Each repetition
 * starts with a character no other way of going on could take, so a failed match
 * gives characters back one at a time at most: linear in the text.
 */
const SIMPLE_PARAM = /[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\0(?=((?:g|l)te?:)?)\1(?:"(?:[^"\\\0]|\\[\\%;"])*"|(?:[^;\\"\0]|\\[\\%;"])(?:[^;\\\0]|\\[\\%;"])*)(?:;(?=((?:g|l)te?:)?)\2(?:"(?:[^"\\\0]|\\[\\%;"])*"|(?:[^;\\"\0]|\\[\\%;"])(?:[^;\\\0]|\\[\\%;"])*))*\0/y;

/**
 * A whole well-formed parameter as one token (`customerRef.id NUL 42 NUL`,
 * `totalAmount NUL gte:100;lte:200 NUL`, `vendorName NUL "%acme\%%" NUL`): nearly every
 * parameter is, and every token costs the lexer and the parser about the same whatever
 * its length. Its node is built from the parameter's text (`simpleParam` in
 * `grammar.ts`); any other parameter is an `OtherParam`. Only the fast lexer has it: the
 * error path and the token limits read the tokens of the full lexer, in which every
 * clause has its own. (A run of such parameters as one token measured no faster.)
 */
export const SimpleParam = /* @__PURE__ */ createToken({
  name: 'SimpleParam',
  pattern: {
    exec(text: string, offset: number): [string] | null {
      SIMPLE_PARAM.lastIndex = offset;
      return SIMPLE_PARAM.test(text) ? [text.slice(offset, SIMPLE_PARAM.lastIndex)] : null;
    },
  },
  line_breaks: false,
});

/**
 * In the fast lexer, a whole parameter that is not a `SimpleParam`, `key NUL value NUL`:
 * a query that holds one is lexed again by the full lexer, which says what is wrong with
 * it. Only malformed parameters are (`test/syntax/simple-param.test.ts`).
 */
export const OtherParam = /* @__PURE__ */ createToken({
  name: 'OtherParam',
  pattern: /[^\0]*\0[^\0]*\0/,
  line_breaks: true,
});

/**
 * A whole well-formed key, `name *( "." name )`, with the separator that ends it: one
 * token per key, since every token costs the lexer and the parser about the same
 * whatever its length (bench/RESULTS.md). A key that is not a path does not match,
 * and `BadKey` takes it whole.
 */
export const Key = /* @__PURE__ */ createToken({
  name: 'Key',
  pattern: /[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\0/,
  // An explicit start_chars_hint spares the lexer's constructor analysing the pattern.
  start_chars_hint: /* @__PURE__ */ Array.from(NAME_START),
  line_breaks: false,
  push_mode: 'value',
});
/**
 * A key that is not a path, up to its separator, as one token: the parser refuses it
 * and `parse` says what is wrong from the key's text. Without it the key would be a
 * lexing error, and chevrotain's error recovery retries every pattern at each
 * following offset: `Key` would rescan the rest of the key every time, which made
 * refusing a long key quadratic (`'a'.repeat(8000) + '-'`).
 */
export const BadKey = /* @__PURE__ */ createToken({
  name: 'BadKey',
  pattern: /[^\0]+/,
  start_chars_hint: /* @__PURE__ */ allCharsExcept('\0'),
  line_breaks: true,
});
/** The separator after a key that is not a path (an empty key, or a `BadKey`). */
export const KeyEnd = /* @__PURE__ */ createToken({ name: 'KeyEnd', pattern: SEPARATOR, push_mode: 'value' });

// value mode
export const ValueEnd = /* @__PURE__ */ createToken({ name: 'ValueEnd', pattern: SEPARATOR, pop_mode: true });
export const Semi = /* @__PURE__ */ createToken({ name: 'Semi', pattern: ';' });

/** The type of the token that ends right at `offset`, if any. */
function typeBefore(tokens: IToken[], offset: number): TokenType | undefined {
  const previous = tokens[tokens.length - 1];
  if (previous === undefined || previous.startOffset + previous.image.length !== offset) return undefined;
  return previous.tokenType;
}

/** True when the next token starts a clause: first in a value, or right after `;`. */
function atClauseStart(tokens: IToken[], offset: number): boolean {
  const previous = typeBefore(tokens, offset);
  return previous === Key || previous === Semi || previous === KeyEnd;
}

// The matches an operator can have, built once: a custom pattern returns one of these.
const GT: [string] = ['gt:'];
const GTE: [string] = ['gte:'];
const LT: [string] = ['lt:'];
const LTE: [string] = ['lte:'];

/** The operator (`gt:` `gte:` `lt:` `lte:`) that `text` holds at `offset`, if any, as its one-element match. */
function operatorAt(text: string, offset: number): [string] | null {
  const first = text.charCodeAt(offset);
  if ((first !== 103 /* g */ && first !== 108) /* l */ || text.charCodeAt(offset + 1) !== 116 /* t */) return null;
  const third = text.charCodeAt(offset + 2);
  const gt = first === 103;
  if (third === 58 /* : */) return gt ? GT : LT;
  if (third === 101 /* e */ && text.charCodeAt(offset + 3) === 58) return gt ? GTE : LTE;
  return null;
}

/** The length of the operator at `offset` (0 when there is none), for the AST builder of `SimpleParam`. */
export function operatorLength(text: string, offset: number): number {
  return operatorAt(text, offset)?.[0].length ?? 0;
}

/**
 * `gt:` `gte:` `lt:` `lte:` are operators only at the start of a clause: after an
 * operator or inside an operand the same text is literal (`gte:gte:5` compares with
 * the text `gte:5`). A custom pattern sees the tokens so far and can tell.
 */
export const Operator = /* @__PURE__ */ createToken({
  name: 'Operator',
  pattern: {
    exec(text: string, offset: number, tokens: IToken[]): [string] | null {
      return atClauseStart(tokens, offset) ? operatorAt(text, offset) : null;
    },
  },
  start_chars_hint: ['g', 'l'],
  line_breaks: false,
});

const QUOTE: [string] = ['"'];

/** A `"` opens a quoted operand only where an operand starts; elsewhere it is literal text. */
export const OpenQuote = /* @__PURE__ */ createToken({
  name: 'OpenQuote',
  pattern: {
    exec(text: string, offset: number, tokens: IToken[]): [string] | null {
      if (text.charCodeAt(offset) !== 34) return null;
      return atClauseStart(tokens, offset) || typeBefore(tokens, offset) === Operator ? QUOTE : null;
    },
  },
  start_chars_hint: ['"'],
  line_breaks: false,
  push_mode: 'quoted',
});

export const Escape = /* @__PURE__ */ createToken({ name: 'Escape', pattern: /\\[\\%;"]/, categories: [Piece], start_chars_hint: ['\\'] });
/**
 * A backslash that starts no escape (`INVALID_ESCAPE`), as a token of its own rather
 * than a lexing error: chevrotain builds an error object with a message for each lexing
 * error and retries every pattern one character on, which made a value of thousands of
 * bad escapes the dearest input to refuse. It is in no category: the parser refuses it,
 * and `parse` explains the clause without it, as if the backslash were not there.
 */
export const BadEscape = /* @__PURE__ */ createToken({ name: 'BadEscape', pattern: '\\' });
export const Wildcard = /* @__PURE__ */ createToken({ name: 'Wildcard', pattern: '%', categories: [Piece] });
export const Text = /* @__PURE__ */ createToken({
  name: 'Text',
  pattern: /[^;\\%\0]+/,
  categories: [Piece],
  start_chars_hint: /* @__PURE__ */ allCharsExcept(';\\%\0'),
  line_breaks: true,
});

// quoted mode
/** NUL inside quotes: the value ended with the quote still open. Back to the key mode. */
export const QuotedEnd = /* @__PURE__ */ createToken({
  name: 'QuotedEnd',
  pattern: SEPARATOR,
  categories: [ValueEnd],
  pop_mode: true,
  push_mode: 'key',
});
export const CloseQuote = /* @__PURE__ */ createToken({ name: 'CloseQuote', pattern: '"', pop_mode: true });
export const QuotedText = /* @__PURE__ */ createToken({
  name: 'QuotedText',
  pattern: /[^"\\%\0]+/,
  categories: [Piece],
  start_chars_hint: /* @__PURE__ */ allCharsExcept('"\\%\0'),
  line_breaks: true,
});

// The value and quoted modes, the same in both lexers.
const VALUE_MODE = [ValueEnd, Semi, Operator, OpenQuote, Escape, BadEscape, Wildcard, Text];
const QUOTED_MODE = [QuotedEnd, CloseQuote, Escape, BadEscape, Wildcard, QuotedText];

/**
 * The modes and the order tokens are tried in. Order matters where two patterns can
 * match at the same place: `Key` comes before `BadKey`, which matches any key;
 * `Operator` and `OpenQuote` (context-checked) come before `Text`, which would
 * otherwise swallow them; `Escape` comes before `BadEscape`, which takes any backslash
 * that no `Escape` matches. No input is a lexing error: every character of every mode
 * starts some token.
 */
export const LEXER_DEFINITION = {
  defaultMode: 'key',
  modes: { key: [Key, BadKey, KeyEnd], value: VALUE_MODE, quoted: QUOTED_MODE },
};

/**
 * The lexer of the first try at a query: a token for each parameter, a `SimpleParam` or
 * else an `OtherParam`. A query of `SimpleParam`s within the limits gets from their texts
 * the syntax tree the full lexer's tokens give (`test/syntax/simple-param.test.ts`); its
 * one mode of two tokens costs a cold start far less to build than the full lexer.
 */
export const FAST_LEXER_DEFINITION: TokenType[] = [SimpleParam, OtherParam];

// The sort parameter's value (reference §9), lexed on its own: `-issueDate,totalAmount`.
/** The `-` before a sort key: descending. */
export const Minus = /* @__PURE__ */ createToken({ name: 'Minus', pattern: '-' });
export const Comma = /* @__PURE__ */ createToken({ name: 'Comma', pattern: ',' });
/** A path in a sort key. A character no path may hold is a lexing error: the key is then explained on its own. */
export const SortPath = /* @__PURE__ */ createToken({
  name: 'SortPath',
  pattern: /[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/,
  start_chars_hint: /* @__PURE__ */ Array.from(NAME_START),
  line_breaks: false,
});

/** The sort lexer's tokens: one mode, since a path, `-` and `,` never overlap. */
export const SORT_LEXER_DEFINITION: TokenType[] = [SortPath, Minus, Comma];

/** Every token type the filter parser knows, categories included (the sort parser knows `SORT_LEXER_DEFINITION`'s). */
export const ALL_TOKENS: TokenType[] = [
  Piece,
  Key,
  BadKey,
  KeyEnd,
  ValueEnd,
  Semi,
  Operator,
  OpenQuote,
  Escape,
  BadEscape,
  Wildcard,
  Text,
  QuotedEnd,
  CloseQuote,
  QuotedText,
];
