import { jsonQuote } from '../../text/quote';
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, isDigit, isSpace, LF, MINUS, OPEN_BRACE, OPEN_BRACKET, QUOTE } from './chars';

/**
 * The syntax of one JSON value, checked as its text streams past, without keeping any of
 * it: the members of a `--path` object that are not on the path (`"meta"`,
 * `"pagination"`), which may be of any size. Everything JSON.parse checks is checked:
 * brackets, strings with their escapes and no raw control character, numbers, literals,
 * commas and colons. Only the depth is kept (a bit per level), so memory is bounded by
 * the depth cap, never by the value. Items are not checked here: `JSON.parse` checks
 * each item's text as it builds it, and the splitter's own scan, which only tracks
 * brackets and strings, finds where an item ends at a fraction of this cost.
 */

/** A value that is not JSON: why, and the index in the text just fed where it shows. */
export class JsonSyntaxError extends Error {
  override readonly name = 'JsonSyntaxError';

  constructor(message: string, readonly index: number) {
    super(message);
  }
}

// States: what may come next.
const VALUE = 0;
const VALUE_OR_CLOSE = 1; // after `[`
const KEY_OR_CLOSE = 2; // after `{`
const KEY = 3; // after `,` in an object
const COLON_NEXT = 4;
const AFTER = 5; // after a value in an array or object
const STRING = 6;
const ESCAPE = 7;
const HEX = 8;
const NUMBER_SIGN = 9; // after `-`: a digit must come
const NUMBER_ZERO = 10; // after a leading `0`
const NUMBER_INT = 11;
const NUMBER_DOT = 12; // after `.`: a digit must come
const NUMBER_FRACTION = 13;
const NUMBER_E = 14; // after `e`: a sign or a digit
const NUMBER_E_SIGN = 15; // a digit must come
const NUMBER_EXPONENT = 16;
const LITERAL = 17;
const DONE = 18;

const IN_ARRAY = 1;
const IN_OBJECT = 2;

const ESCAPES = '"\\/bfnrtu';
const LITERALS: Readonly<Record<string, string>> = { t: 'true', f: 'false', n: 'null' };

/** Checks one JSON value fed piece by piece (see the file's comment). */
export class JsonSyntax {
  private state = VALUE;
  private readonly stack: Uint8Array;
  private depth = 0;
  private key = false;
  private hex = 0;
  private literal = '';
  private matched = 0;
  /** Line feeds passed over since `begin` (JSON has them only between tokens). */
  lines = 0;

  /** @param maxDepth the most levels of arrays and objects the value may nest. */
  constructor(private readonly maxDepth: number) {
    this.stack = new Uint8Array(maxDepth + 1);
  }

  /** Starts a new value. */
  begin(): void {
    this.state = VALUE;
    this.depth = 0;
    this.lines = 0;
  }

  /**
   * Reads the value's text from `start`: returns the index just past the value (for a
   * number, of the character after it, which is not read), or -1 when the text ends
   * first. Throws a `JsonSyntaxError` where the text stops being JSON.
   */
  feed(text: string, start: number): number {
    const n = text.length;
    let i = start;
    while (i < n) {
      const c = text.charCodeAt(i);
      switch (this.state) {
        case STRING:
          if (c === QUOTE) this.stringEnd();
          else if (c === BACKSLASH) this.state = ESCAPE;
          else if (c < 0x20) throw new JsonSyntaxError(c === LF ? 'a string is not closed before the end of its line' : `a raw control character (${jsonQuote(String.fromCharCode(c))}) in a string`, i);
          break;
        case ESCAPE:
          if (!ESCAPES.includes(String.fromCharCode(c))) throw new JsonSyntaxError(`${jsonQuote(`\\${String.fromCharCode(c)}`)} is not an escape`, i);
          if (c === 0x75 /* u */) {
            this.state = HEX;
            this.hex = 0;
          } else this.state = STRING;
          break;
        case HEX:
          if (!isHex(c)) throw new JsonSyntaxError(`"\\\\u" takes four hex digits, not ${jsonQuote(String.fromCharCode(c))}`, i);
          if (++this.hex === 4) this.state = STRING;
          break;
        case LITERAL:
          if (c !== this.literal.charCodeAt(this.matched)) throw new JsonSyntaxError(`${jsonQuote(String.fromCharCode(c))} where ${jsonQuote(this.literal)} goes on`, i);
          if (++this.matched === this.literal.length) this.valueEnd();
          break;
        case NUMBER_SIGN:
        case NUMBER_ZERO:
        case NUMBER_INT:
        case NUMBER_DOT:
        case NUMBER_FRACTION:
        case NUMBER_E:
        case NUMBER_E_SIGN:
        case NUMBER_EXPONENT:
          // A character that does not go on with the number ends it: read it again in the state after.
          if (!this.number(c, i)) {
            if ((this.state as number) === DONE) return i;
            continue;
          }
          break;
        default:
          if (isSpace(c)) {
            if (c === LF) this.lines++;
          } else this.structure(c, i);
      }
      i++;
      if ((this.state as number) === DONE) return i;
    }
    return -1;
  }

  /** The input has ended: a number that ends with it is whole; anything else is cut short. */
  end(): boolean {
    if (this.depth === 0 && (this.state === NUMBER_ZERO || this.state === NUMBER_INT || this.state === NUMBER_FRACTION || this.state === NUMBER_EXPONENT)) {
      this.state = DONE;
      return true;
    }
    return this.state === DONE;
  }

  /** A character outside strings, numbers and literals. */
  private structure(c: number, i: number): void {
    switch (this.state) {
      case VALUE:
      case VALUE_OR_CLOSE:
        if (c === CLOSE_BRACKET && this.state === VALUE_OR_CLOSE) return this.close();
        return this.value(c, i);
      case KEY_OR_CLOSE:
      case KEY:
        if (c === CLOSE_BRACE && this.state === KEY_OR_CLOSE) return this.close();
        if (c !== QUOTE) throw unexpected(c, 'a key in quotes', i);
        this.key = true;
        this.state = STRING;
        return;
      case COLON_NEXT:
        if (c !== COLON) throw unexpected(c, '":"', i);
        this.state = VALUE;
        return;
      default: {
        // AFTER: a comma, or the close of the array or object the value is in.
        const inside = this.stack[this.depth]!;
        if (c === COMMA) this.state = inside === IN_OBJECT ? KEY : VALUE;
        else if (c === (inside === IN_OBJECT ? CLOSE_BRACE : CLOSE_BRACKET)) this.close();
        else throw unexpected(c, inside === IN_OBJECT ? '"," or "}"' : '"," or "]"', i);
      }
    }
  }

  /** The first character of a value. */
  private value(c: number, i: number): void {
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (this.depth === this.maxDepth) throw new JsonSyntaxError(`it nests deeper than ${this.maxDepth} levels`, i);
      this.stack[++this.depth] = c === OPEN_BRACE ? IN_OBJECT : IN_ARRAY;
      this.state = c === OPEN_BRACE ? KEY_OR_CLOSE : VALUE_OR_CLOSE;
    } else if (c === QUOTE) {
      this.key = false;
      this.state = STRING;
    } else if (c === MINUS) this.state = NUMBER_SIGN;
    else if (c === 0x30) this.state = NUMBER_ZERO;
    else if (isDigit(c)) this.state = NUMBER_INT;
    else if (Object.hasOwn(LITERALS, String.fromCharCode(c))) {
      this.literal = LITERALS[String.fromCharCode(c)]!;
      this.matched = 1;
      this.state = LITERAL;
    } else throw unexpected(c, 'a value', i);
  }

  /**
   * One character in a number: whether it goes on with it. One that does not ends a
   * number that may end there, and is then read in the state after it.
   */
  private number(c: number, i: number): boolean {
    const digit = isDigit(c);
    switch (this.state) {
      case NUMBER_SIGN:
        if (!digit) throw unexpected(c, 'a digit', i);
        this.state = c === 0x30 ? NUMBER_ZERO : NUMBER_INT;
        return true;
      case NUMBER_DOT:
      case NUMBER_E_SIGN:
        if (!digit) throw unexpected(c, 'a digit', i);
        this.state = this.state === NUMBER_DOT ? NUMBER_FRACTION : NUMBER_EXPONENT;
        return true;
      case NUMBER_E:
        if (c === 0x2b || c === MINUS) this.state = NUMBER_E_SIGN;
        else if (digit) this.state = NUMBER_EXPONENT;
        else throw unexpected(c, 'a digit', i);
        return true;
      case NUMBER_ZERO:
      case NUMBER_INT:
        if (digit && this.state === NUMBER_INT) return true;
        if (digit) throw new JsonSyntaxError('a number starts with "0" and more digits', i);
        if (c === 0x2e /* . */) {
          this.state = NUMBER_DOT;
          return true;
        }
        break;
      case NUMBER_FRACTION:
        if (digit) return true;
        break;
      default: // NUMBER_EXPONENT
        if (digit) return true;
        this.valueEnd();
        return false;
    }
    if (c === 0x65 || c === 0x45 /* e E */) {
      this.state = NUMBER_E;
      return true;
    }
    this.valueEnd();
    return false;
  }

  private stringEnd(): void {
    if (this.key) this.state = COLON_NEXT;
    else this.valueEnd();
  }

  private close(): void {
    this.depth--;
    this.valueEnd();
  }

  private valueEnd(): void {
    this.state = this.depth === 0 ? DONE : AFTER;
  }
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

function unexpected(c: number, expected: string, index: number): JsonSyntaxError {
  return new JsonSyntaxError(`${jsonQuote(String.fromCharCode(c))} where ${expected} should come`, index);
}
