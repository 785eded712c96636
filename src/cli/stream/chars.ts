/** The characters of JSON's structure, as UTF-16 code units: what the splitter, the syntax check and the layout read. */

export const TAB = 0x09;
export const LF = 0x0a;
export const CR = 0x0d;
export const SPACE = 0x20;
export const QUOTE = 0x22;
export const COMMA = 0x2c;
export const MINUS = 0x2d;
export const COLON = 0x3a;
export const OPEN_BRACKET = 0x5b;
export const BACKSLASH = 0x5c;
export const CLOSE_BRACKET = 0x5d;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;

/** JSON's whitespace: space, tab, line feed, carriage return. */
export function isSpace(c: number): boolean {
  return c === SPACE || c === LF || c === CR || c === TAB;
}

/** Whether `c` is an ASCII digit. */
export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Whether `c` can start no value: a separator or a closing bracket. */
export function isPunctuation(c: number): boolean {
  return c === COMMA || c === COLON || c === CLOSE_BRACE || c === CLOSE_BRACKET;
}
