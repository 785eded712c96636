import { FIELD_NAME } from '../values/name';
import { createToken, Lexer, type IToken, type TokenType } from './chevrotain';

/**
 * The tokens of the filter language (reference §3), each a lexical unit: a name, a dot,
 * an operator with its colon, an operand's text (quotes, escapes and `%` included), a
 * `;`. The filter parameters of a query are lexed in one call, each written as
 * `NUL key NUL value NUL`: NUL cannot occur in decoded text (the decoder refuses it), so
 * it only ever separates, and the three NULs are the tokens `Start`, `Equals` (the `=`
 * of the query) and `End` that the parser's `param` rule reads. The modes follow that
 * structure: `between` parameters, a `key`, a `value`; the sort parameter's value (`sort`)
 * is lexed on its own.
 */
export const SEPARATOR = '\0';

// Every token is made by a call marked `/* @__PURE__ */`, with arguments free of side
// effects (no spread, no property read): an app that imports from the main entry
// something other than the parser (format, compile, toSql, the codes) then bundles
// none of these tokens, and none of Chevrotain behind them.

/**
 * A `start_chars_hint` for a complement set such as `[^;\\"\0]`: every char code below
 * 256 that is not excluded, and one char code from each bucket of 255 above, which is how
 * Chevrotain indexes first characters. With a hint on every token, the lexer keeps its
 * first-character optimization without analysing a pattern when it is built.
 */
function allCharsExcept(excluded: string): number[] {
  const codes: number[] = [];
  for (let c = 0; c < 256; c++) if (!excluded.includes(String.fromCharCode(c))) codes.push(c);
  for (let c = 256; c < 0x10000; c += 255) codes.push(c);
  codes.push(0xffff);
  return codes;
}

// Written out, not built with a template: a computed argument of a top-level call would
// keep the call, and Chevrotain with it, in every bundle.
/** The characters a name starts with. */
const NAME_START = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_';
/** The first characters of a key's tokens but `KeyJunk`: a name's, a dot, NUL. */
const KEY_STARTS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.\0';
/** The first characters of a sort value's tokens but `SortJunk` (and `Minus`, which it shares `-` with): a name's, a dot, a comma. */
const SORT_STARTS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.,';

/** Where `junk` goes: tokens the lexer recognises for the diagnostics and the parser never sees. */
export const JUNK = 'junk';

// between parameters
/** The NUL before a key: a parameter starts. */
export const Start = /* @__PURE__ */ createToken({ name: 'Start', pattern: SEPARATOR, push_mode: 'key' });

// key mode, and the sort parameter's paths
/** The pattern of a whole text without its anchors: what a token of that text matches. */
function unanchored(pattern: RegExp): RegExp {
  return new RegExp(pattern.source.slice(1, -1));
}

/** One name of a dot path (reference §3), in a filter key or a sort key. */
export const Name = /* @__PURE__ */ createToken({
  name: 'Name',
  pattern: /* @__PURE__ */ unanchored(FIELD_NAME),
  start_chars_hint: /* @__PURE__ */ Array.from(NAME_START),
  line_breaks: false,
});
export const Dot = /* @__PURE__ */ createToken({ name: 'Dot', pattern: '.' });
/** The NUL after a key, which stands for the query's `=`: the value starts. */
export const Equals = /* @__PURE__ */ createToken({ name: 'Equals', pattern: SEPARATOR, pop_mode: true, push_mode: 'value' });
/**
 * A run of characters that no name holds, as far as the next place a name or a dot could
 * start (`-`, `1`, `é`, `[`): a lexing error of the key, kept in the `junk` group, so the
 * parser reads the names and dots around it, and the key's diagnostic names this text.
 * Being a token rather than an unmatched character, it keeps Chevrotain's lexer from
 * retrying every pattern at each character of a long run.
 */
export const KeyJunk = /* @__PURE__ */ createToken({
  name: 'KeyJunk',
  pattern: /[^A-Za-z_.\0]+/,
  start_chars_hint: /* @__PURE__ */ allCharsExcept(KEY_STARTS),
  line_breaks: true,
  group: JUNK,
});

// value mode
/** The NUL after a value: the parameter ends. */
export const End = /* @__PURE__ */ createToken({ name: 'End', pattern: SEPARATOR, pop_mode: true });
export const Semi = /* @__PURE__ */ createToken({ name: 'Semi', pattern: ';' });

// The matches an operator can have, built once: its custom pattern returns one of these.
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

/**
 * `gt:` `gte:` `lt:` `lte:` are operators only at the start of a clause (right after the
 * value's `Equals` or a `;`): after an operator or inside an operand the same text is
 * literal (`gte:gte:5` compares with the text `gte:5`). A custom pattern sees the tokens
 * so far and can tell.
 */
export const Operator = /* @__PURE__ */ createToken({
  name: 'Operator',
  pattern: {
    exec(text: string, offset: number, tokens: IToken[]): [string] | null {
      const previous = tokens[tokens.length - 1];
      if (previous === undefined || previous.startOffset !== offset - 1) return null;
      const type = previous.tokenType;
      return type === Semi || type === Equals ? operatorAt(text, offset) : null;
    },
  },
  start_chars_hint: ['g', 'l'],
  line_breaks: false,
});

/** What a clause compares with: a quoted or a bare operand, one token whatever its length. */
export const Operand = /* @__PURE__ */ categoryToken('Operand');

/** A token that matches no text and stands for the tokens of its category (read in a function: a property read in a top-level call's arguments would keep Chevrotain in every bundle). */
function categoryToken(name: string): TokenType {
  return createToken({ name, pattern: Lexer.NA });
}

/**
 * A quoted operand, `"…"`: inside, anything but NUL, with `\` taking the character after
 * it (so `\"` does not close it). Which escapes are valid is the operand reader's
 * question (`operand.ts`): an invalid one (`\q`) stays inside its operand and is
 * reported there, so that the rest of the clause still parses.
 */
export const Quoted = /* @__PURE__ */ createToken({
  name: 'Quoted',
  pattern: /"(?:[^"\\\0]|\\[^\0])*"/,
  categories: [Operand],
  start_chars_hint: ['"'],
  line_breaks: true,
});

/**
 * A quoted operand with text after its closing quote, up to the next unescaped `;`
 * (`"ab"c`, `"a""b"`): an operand no rule takes (`UNEXPECTED_TEXT`), one token, so that
 * the clause it is in is refused and the parse goes on at the next `;`. Tried before
 * `Quoted`, which takes the quoted part alone.
 */
export const QuotedThenText = /* @__PURE__ */ createToken({
  name: 'QuotedThenText',
  pattern: /"(?:[^"\\\0]|\\[^\0])*"(?:[^;\\\0]|\\[^\0]?)+/,
  start_chars_hint: ['"'],
  line_breaks: true,
});

/**
 * A quote that is never closed: from the `"` to the end of the value, `;` included. No
 * rule takes it, so the parser refuses it where an operand belongs (`UNTERMINATED_QUOTE`),
 * or after a closing quote (`UNEXPECTED_TEXT`). Tried after `Quoted`, which takes every
 * quote that closes.
 */
export const Unterminated = /* @__PURE__ */ createToken({
  name: 'Unterminated',
  pattern: /"[^\0]*/,
  start_chars_hint: ['"'],
  line_breaks: true,
});

/**
 * A bare operand: anything up to the next `;` that is not escaped, not starting with a
 * `"` (which opens a quoted one); `\` takes the character after it, if any.
 */
export const Bare = /* @__PURE__ */ createToken({
  name: 'Bare',
  pattern: /(?:[^;\\"\0]|\\[^\0]?)(?:[^;\\\0]|\\[^\0]?)*/,
  categories: [Operand],
  start_chars_hint: /* @__PURE__ */ allCharsExcept(';"\0'),
  line_breaks: true,
});

// sort mode (reference §9): `-issueDate,totalAmount`
export const Comma = /* @__PURE__ */ createToken({ name: 'Comma', pattern: ',' });
const MINUS: [string] = ['-'];
/** The `-` that starts a sort key (at the value's start or right after a `,`): descending. Elsewhere a `-` is `SortJunk`. */
export const Minus = /* @__PURE__ */ createToken({
  name: 'Minus',
  pattern: {
    exec(text: string, offset: number, tokens: IToken[]): [string] | null {
      if (text.charCodeAt(offset) !== 45 /* - */) return null;
      const previous = tokens[tokens.length - 1];
      const atKeyStart = offset === 0 || (previous !== undefined && previous.tokenType === Comma && previous.startOffset === offset - 1);
      return atKeyStart ? MINUS : null;
    },
  },
  start_chars_hint: ['-'],
  line_breaks: false,
});
/** In a sort value, a run of characters that no path holds (a space, `+`, `:`, a `-` that starts no key), kept in the `junk` group as `KeyJunk` is. */
export const SortJunk = /* @__PURE__ */ createToken({
  name: 'SortJunk',
  pattern: /[^A-Za-z_.,]+/,
  start_chars_hint: /* @__PURE__ */ allCharsExcept(SORT_STARTS),
  line_breaks: true,
  group: JUNK,
});

/**
 * The modes and the order tokens are tried in. Order matters where two patterns can match
 * at the same place: `Name` before `KeyJunk` (which takes no letter anyway); `Operator`
 * (context-checked) before `Bare`, which would otherwise swallow it; `QuotedThenText`
 * before `Quoted`, which takes its quoted part, and both before `Unterminated`, which
 * takes any quote; `Minus` (context-checked) before `SortJunk`. No input is a lexing
 * error: every character of every mode starts some token.
 *
 * So the token after an operand is always a `;` or the value's end, and the token after a
 * sort key's path a `,` or the end: a repetition of the parser never meets anything else,
 * and Chevrotain's recovery never re-enters one (which recurses once per error).
 */
export const LEXER_DEFINITION = {
  defaultMode: 'between',
  modes: {
    between: [Start],
    key: [Name, Dot, Equals, KeyJunk],
    value: [End, Semi, Operator, QuotedThenText, Quoted, Unterminated, Bare],
    sort: [Name, Dot, Comma, Minus, SortJunk],
  },
};

/** Every token type the parser knows, the `Operand` category included. */
export const ALL_TOKENS: TokenType[] = [Start, Name, Dot, Equals, KeyJunk, End, Semi, Operator, Operand, QuotedThenText, Quoted, Unterminated, Bare, Minus, Comma, SortJunk];
