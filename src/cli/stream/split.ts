import { jsonQuote } from '../../text/quote';
import { InputError, reason } from '../usage';
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, isPunctuation, isSpace, LF, OPEN_BRACE, OPEN_BRACKET, QUOTE } from './chars';
import { JsonSyntax, JsonSyntaxError } from './json-syntax';
import { describeItem, kindOf, objectAt, pathText } from './messages';

export type { ItemPosition } from './messages';

/**
 * Splits JSON text, fed in pieces of any size, into its items, without ever holding
 * more than one item's text: the items of a JSON array, of the array at a path of an
 * object (`--path data`), or the values of NDJSON (whitespace-separated JSON values,
 * one a line as a rule). Only the structure around the items is read here: brackets,
 * strings, commas and colons. Each item's text is then `JSON.parse`d whole, which is
 * both the strict check of its syntax and, in V8, the fastest way to build it: a
 * streaming parser of every token in JavaScript is slower than finding the item's end
 * and handing the text over. An NDJSON line is first tried whole, with no scan at all.
 * Each item comes with its text, exactly as it stood in the input (what the command
 * writes out). The members of a `--path` object that are not on the path are checked as
 * JSON as they pass (json-syntax.ts), and not kept.
 */

/** What `ItemSplitter` is told. */
export interface SplitOptions {
  /** The array's path in the input's one object (`['data']`); absent: the input is the array or NDJSON. */
  readonly path?: readonly string[] | undefined;
  /** The most characters one item may hold. */
  readonly maxItemChars: number;
  /** The most levels of arrays and objects one item may nest (the item itself is level 1). */
  readonly maxDepth: number;
  /** Called with each item, in input order, with its number (from 1), its line and its text as it stood in the input. */
  readonly onItem: (value: unknown, item: number, line: number, text: string) => void;
}

// Navigation states: what may come next outside an item.
const ROOT = 0; // the one value of the input (an array, or with a path the object)
const SEQUENCE = 1; // NDJSON: any number of values
const KEY_OR_END = 2; // just after `{`
const KEY = 3; // after a `,` in an object
const COLON_NEXT = 4;
const MEMBER = 5; // an object member's value
const COMMA_OR_OBJECT_END = 6;
const ITEM_OR_END = 7; // just after the items' `[`
const ITEM = 8; // after a `,` between items
const COMMA_OR_ARRAY_END = 9;
const DONE = 10;

// What a capture is for.
const AS_ITEM = 0;
const AS_KEY = 1;

/** One object on the way to the items: how deep on the path it is, the key just read, whether the path's key came. */
interface PathFrame {
  readonly depth: number;
  key: string;
  found: boolean;
}

/**
 * The item splitter (see the file's comment). `push` the input's text piece by piece,
 * then `end`. Bad input (a truncated array, a stray character, an item over the cap)
 * is an `InputError` that names the line, and the item when there is one.
 */
export class ItemSplitter {
  private state = ROOT;
  private line = 1;
  private items = 0;
  /** The objects on the path, outermost first; the items' array, once entered, is below the last. */
  private readonly frames: PathFrame[] = [];
  private inItems = false;

  // The value being captured (capturing === true): its parts so far, and the scan's state.
  private capturing = false;
  private purpose = AS_ITEM;
  private parts: string[] = [];
  private size = 0;
  private startLine = 0;
  private scalar = false;
  private depth = 0;
  private inString = false;
  private escaped = false;

  // A member passed over (skipping === true, its key the last frame's, its line `startLine`): its syntax checked as it passes.
  private skipping = false;
  private readonly syntax: JsonSyntax;

  // The piece being read, and the byte offset of its first character: for messages.
  private text = '';
  private offset = 0;

  constructor(private readonly options: SplitOptions) {
    this.syntax = new JsonSyntax(options.maxDepth);
  }

  /** The number of items split so far. */
  get count(): number {
    return this.items;
  }

  /** Whether the input was read as NDJSON (it did not start with `[`, and no --path was given). */
  get ndjson(): boolean {
    return this.options.path === undefined && !this.inItems && this.state === SEQUENCE;
  }

  /**
   * Where the reading stands, for a message: `line 3, in item 12`, `line 3, after item
   * 11`, or `line 1`.
   */
  where(): string {
    if (this.capturing && this.purpose === AS_ITEM) return `line ${this.line}, in item ${this.items}`;
    return this.items > 0 ? `line ${this.line}, after item ${this.items}` : `line ${this.line}`;
  }

  /** Reads the next piece of the input's text, which starts at byte `offset` of the input. */
  push(text: string, offset: number): void {
    this.text = text;
    this.offset = offset;
    let i = 0;
    const n = text.length;
    while (i < n) {
      if (this.skipping) {
        const end = this.skip(text, i);
        if (end < 0) return;
        i = end;
      } else if (this.capturing) {
        const end = this.scan(text, i);
        if (end < 0) {
          this.keep(text.slice(i));
          return;
        }
        this.keep(text.slice(i, end));
        this.finish();
        i = end;
      } else {
        i = this.navigate(text, i);
      }
    }
  }

  /** The input has ended: a value cut short, or an array or object left open, is an error. */
  end(): void {
    if (this.skipping && !this.syntax.end()) throw this.error(`the input ends inside ${this.skipped()}: it is cut short`);
    if (this.capturing) {
      // Only a number, `true`, `false` or `null` ends with the input; anything else is cut short.
      if (!this.scalar) throw this.error(`the input ends inside ${this.what()}: it is cut short`);
      this.finish();
    }
    if (this.state === SEQUENCE || this.state === DONE) return;
    if (this.state === ROOT) {
      // Empty input: no items (as an empty NDJSON file); but an object was asked for.
      if (this.options.path === undefined) return;
      throw this.error(`the input is empty, where an object holding the array at --path ${pathText(this.options.path)} was expected`);
    }
    throw this.error(this.inItems
      ? `the input ends at line ${this.line}, after item ${this.items}, before the array of items is closed: it is cut short`
      : `the input ends at line ${this.line}, inside an object: it is cut short`);
  }

  /** Moves through the text outside an item; returns where the next capture (or the text's end) is. */
  private navigate(text: string, start: number): number {
    const n = text.length;
    for (let i = start; i < n; i++) {
      const c = text.charCodeAt(i);
      if (isSpace(c)) {
        if (c === LF) this.line++;
        continue;
      }
      switch (this.state) {
        case SEQUENCE: {
          if (isPunctuation(c)) throw this.unexpected(c, 'a JSON value', i);
          const next = this.wholeLine(text, i);
          if (next >= 0) {
            i = next;
            continue;
          }
          this.begin(c, AS_ITEM);
          return i;
        }
        case ROOT:
          if (isPunctuation(c)) throw this.unexpected(c, 'a JSON value', i);
          this.root(c);
          if (this.capturing) return i;
          break;
        case KEY_OR_END:
        case KEY:
          if (c === QUOTE) {
            this.begin(c, AS_KEY);
            return i;
          }
          if (c === CLOSE_BRACE && this.state === KEY_OR_END) this.closeObject();
          else throw this.unexpected(c, 'a key in quotes', i);
          break;
        case COLON_NEXT:
          if (c !== COLON) throw this.unexpected(c, '":"', i);
          this.state = MEMBER;
          break;
        case MEMBER:
          if (isPunctuation(c)) throw this.unexpected(c, 'a value', i);
          if (this.member(c)) return i;
          break;
        case COMMA_OR_OBJECT_END:
          if (c === COMMA) this.state = KEY;
          else if (c === CLOSE_BRACE) this.closeObject();
          else throw this.unexpected(c, '"," or "}"', i);
          break;
        case ITEM_OR_END:
        case ITEM:
          if (c === CLOSE_BRACKET && this.state === ITEM_OR_END) {
            this.closeItems();
            break;
          }
          if (isPunctuation(c)) throw this.unexpected(c, 'an item', i);
          this.begin(c, AS_ITEM);
          return i;
        case COMMA_OR_ARRAY_END:
          if (c === COMMA) this.state = ITEM;
          else if (c === CLOSE_BRACKET) this.closeItems();
          else throw this.unexpected(c, '"," or "]"', i);
          break;
        default:
          throw this.unexpected(c, 'nothing more', i);
      }
    }
    return n;
  }

  /**
   * NDJSON's fast path: the rest of the line from `start`, when it is there whole and
   * is one JSON value, is an item; returns the index of its line break, or -1 to scan
   * instead (a value across lines or pieces, two values on a line, or bad JSON, which
   * the scan then names).
   */
  private wholeLine(text: string, start: number): number {
    const end = text.indexOf('\n', start);
    // A line of 2n + 1 characters or fewer cannot nest deeper than n: only longer ones need the scan's count.
    if (end < 0 || end - start > 2 * this.options.maxDepth + 1) return -1;
    // The item's text is the line's without the whitespace at its end (a CR before the LF).
    let last = end;
    while (last > start && isSpace(text.charCodeAt(last - 1))) last--;
    const line = text.slice(start, last);
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return -1;
    }
    this.options.onItem(value, ++this.items, this.line, line);
    return end - 1;
  }

  /** The first character of the input decides what it is. */
  private root(c: number): void {
    const path = this.options.path;
    if (path !== undefined) {
      if (c !== OPEN_BRACE) throw this.error(`the input is ${kindOf(c)} (line ${this.line}), where an object holding the array at --path ${pathText(path)} was expected`);
      this.frames.push({ depth: 0, key: '', found: false });
      this.state = KEY_OR_END;
    } else if (c === OPEN_BRACKET) {
      this.inItems = true;
      this.state = ITEM_OR_END;
    } else {
      this.state = SEQUENCE;
      this.begin(c, AS_ITEM);
    }
  }

  /** A member's value: the next object or the array on the path, or a value passed over. Returns whether a capture began. */
  private member(c: number): boolean {
    const path = this.options.path!;
    const frame = this.frames[this.frames.length - 1]!;
    if (frame.key !== path[frame.depth]) {
      this.skipping = true;
      this.startLine = this.line;
      this.syntax.begin();
      return true;
    }
    const at = pathText(path.slice(0, frame.depth + 1));
    // JSON.parse keeps the last of repeated keys; a stream cannot take back what it wrote.
    if (frame.found) throw this.error(`the key ${jsonQuote(frame.key)} appears twice in ${objectAt(path, frame.depth)}, the second time at line ${this.line}`);
    frame.found = true;
    if (frame.depth === path.length - 1) {
      if (c !== OPEN_BRACKET) throw this.error(`--path ${at} holds ${kindOf(c)} (line ${this.line}), not an array of items`);
      this.inItems = true;
      this.state = ITEM_OR_END;
    } else {
      if (c !== OPEN_BRACE) throw this.error(`--path ${at} holds ${kindOf(c)} (line ${this.line}), not an object`);
      this.frames.push({ depth: frame.depth + 1, key: '', found: false });
      this.state = KEY_OR_END;
    }
    return false;
  }

  private closeObject(): void {
    const frame = this.frames.pop()!;
    const path = this.options.path!;
    if (!frame.found) throw this.error(`the input has no array at --path ${pathText(path)}: ${objectAt(path, frame.depth)} has no key ${jsonQuote(path[frame.depth]!)} (it ends at line ${this.line})`);
    this.state = this.frames.length === 0 ? DONE : COMMA_OR_OBJECT_END;
  }

  private closeItems(): void {
    this.inItems = false;
    this.state = this.frames.length === 0 ? DONE : COMMA_OR_OBJECT_END;
  }

  private begin(c: number, purpose: number): void {
    this.capturing = true;
    this.purpose = purpose;
    this.parts = [];
    this.size = 0;
    this.startLine = this.line;
    this.scalar = c !== OPEN_BRACE && c !== OPEN_BRACKET && c !== QUOTE;
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
    if (purpose === AS_ITEM) this.items++;
  }

  /**
   * Scans the captured value from `start`: returns the index just past its end, or -1
   * when the text ends first. The loop is the command's hot path: one comparison chain
   * per character, state in locals.
   */
  private scan(text: string, start: number): number {
    const n = text.length;
    if (this.scalar) {
      for (let i = start; i < n; i++) {
        const c = text.charCodeAt(i);
        if (isSpace(c) || c === COMMA || c === CLOSE_BRACKET || c === CLOSE_BRACE) return i;
      }
      return -1;
    }
    let depth = this.depth;
    let inString = this.inString;
    let escaped = this.escaped;
    let end = -1;
    for (let i = start; i < n; i++) {
      const c = text.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) {
          inString = false;
          if (depth === 0) {
            end = i + 1;
            break;
          }
        } else if (c === LF) {
          // JSON has no line break inside a string: the quote was never closed.
          throw this.error(`${this.what()} is not JSON: a string is not closed before the end of line ${this.line}`);
        }
      } else if (c === QUOTE) inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (++depth > this.options.maxDepth) throw this.error(`${this.what()} nests deeper than ${this.options.maxDepth} levels, the most one item may`);
      }
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (--depth === 0) {
          end = i + 1;
          break;
        }
      } else if (c === LF) this.line++;
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    return end;
  }

  /** Keeps a part of the captured value, within the cap. */
  private keep(part: string): void {
    if (part.length === 0) return;
    this.size += part.length;
    if (this.size > this.options.maxItemChars) {
      throw this.error(`${this.what()} is longer than ${this.options.maxItemChars} characters, the most one item may hold`);
    }
    this.parts.push(part);
  }

  private finish(): void {
    this.capturing = false;
    const text = this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
    this.parts = [];
    if (this.purpose === AS_KEY) {
      const frame = this.frames[this.frames.length - 1]!;
      try {
        frame.key = JSON.parse(text) as string;
      } catch (error) {
        throw this.error(`the key at line ${this.startLine} is not JSON: ${reason(error)}`);
      }
      this.state = COLON_NEXT;
      return;
    }
    if (this.inItems) this.state = COMMA_OR_ARRAY_END;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw this.error(`${this.what()} is not JSON: ${reason(error)}`);
    }
    this.options.onItem(value, this.items, this.startLine, text);
  }

  /**
   * Checks the member passed over from `start`: returns where it ends, or -1 when the
   * text ends first. Its text is not kept, whatever its size.
   */
  private skip(text: string, start: number): number {
    let end: number;
    try {
      end = this.syntax.feed(text, start);
    } catch (error) {
      if (!(error instanceof JsonSyntaxError)) throw error;
      this.line += this.syntax.lines;
      throw this.error(`${this.skipped()} is not JSON: ${error.message}, at line ${this.line} (byte ${this.byteAt(error.index)})`);
    }
    this.line += this.syntax.lines;
    this.syntax.lines = 0;
    if (end >= 0) {
      this.skipping = false;
      this.state = COMMA_OR_OBJECT_END;
    }
    return end;
  }

  /** The member being passed over, for a message: `the value of "meta" (line 1)`. */
  private skipped(): string {
    return `the value of ${jsonQuote(this.frames[this.frames.length - 1]!.key)} (line ${this.startLine})`;
  }

  /** The byte offset in the input of the character at `index` of the piece being read. */
  private byteAt(index: number): number {
    return this.offset + Buffer.byteLength(this.text.slice(0, index));
  }

  /** The value being captured, for a message: `item 12 (line 3)`, or a key or member. */
  private what(): string {
    return this.purpose === AS_ITEM ? describeItem({ item: this.items, line: this.startLine }) : `the value at line ${this.startLine}`;
  }

  private unexpected(c: number, expected: string, index: number): InputError {
    return this.error(`unexpected ${jsonQuote(String.fromCharCode(c))} at line ${this.line} (byte ${this.byteAt(index)}), where ${expected} should come`);
  }

  private error(message: string): InputError {
    return new InputError(message);
  }
}
