import { isDeepStrictEqual } from 'node:util';
import { matchSegments } from '../../src/eval/like';

/**
 * What the docs show a value to be, and whether a value is that. The docs write
 * values as JavaScript literals (`{ ok: true, value: { type: 'Filter', … } }`, keys
 * quoted or not) or JSON, and `…` for what it leaves out:
 *
 * - a member `…` of an object: the value may have more properties than those shown
 *   (without it, exactly those: a property whose value is `undefined` counts as absent);
 * - an element `…` of an array: any number of elements there (`[1, …]`, `[a, …, b]`);
 * - `…` inside a string or an output text, with the blanks around it: any text there
 *   (`'A "%" that is …'`);
 * - `…` alone: any value.
 *
 * Whatever follows the value in a comment is prose (`// [2, 4, 1, 3]: 3 comes last`).
 */

/** A parsed expectation. */
export type Pattern =
  | { readonly kind: 'any' }
  | { readonly kind: 'literal'; readonly value: string | number | boolean | null | undefined }
  | { readonly kind: 'text'; readonly segments: readonly string[] } // a string with `…`
  | { readonly kind: 'array'; readonly items: readonly Pattern[] } // `any` items are gaps
  | { readonly kind: 'object'; readonly members: ReadonlyMap<string, Pattern>; readonly open: boolean };

const ELLIPSIS = '…';

/** Parses the value at the start of `text`; `rest` is what follows it. Throws a SyntaxError that says where. */
export function parseValue(text: string): { pattern: Pattern; rest: string } {
  const parser = new ValueParser(text);
  const pattern = parser.value();
  return { pattern, rest: text.slice(parser.at) };
}

/** Parses a whole text as one value (a `json` output block): nothing may follow it. */
export function parseWholeValue(text: string): Pattern {
  const { pattern, rest } = parseValue(text);
  if (rest.trim() !== '') throw new SyntaxError(`text after the value: ${JSON.stringify(rest.trim().slice(0, 40))}`);
  return pattern;
}

class ValueParser {
  at = 0;
  constructor(private readonly text: string) {}

  value(): Pattern {
    this.space();
    const c = this.text[this.at];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === "'" || c === '"') return textPattern(this.string());
    if (c === ELLIPSIS) {
      this.at++;
      return { kind: 'any' };
    }
    const number = /^-?(?:\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|Infinity)|^NaN/.exec(this.text.slice(this.at));
    if (number) {
      this.at += number[0].length;
      return { kind: 'literal', value: Number(number[0]) };
    }
    for (const [word, value] of [['true', true], ['false', false], ['null', null], ['undefined', undefined]] as const) {
      if (this.text.startsWith(word, this.at) && !/[\w$]/.test(this.text[this.at + word.length] ?? '')) {
        this.at += word.length;
        return { kind: 'literal', value };
      }
    }
    return this.fail('a value');
  }

  private object(): Pattern {
    this.at++; // {
    const members = new Map<string, Pattern>();
    let open = false;
    this.list('}', () => {
      if (this.text[this.at] === ELLIPSIS) {
        this.at++;
        open = true;
        return;
      }
      const c = this.text[this.at];
      let key: string;
      if (c === "'" || c === '"') key = this.string();
      else {
        const name = /^[\w$]+/.exec(this.text.slice(this.at));
        if (!name) return this.fail('a property name');
        key = name[0];
        this.at += key.length;
      }
      this.space();
      if (this.text[this.at] !== ':') return this.fail('":"');
      this.at++;
      if (members.has(key)) return this.fail(`one property "${key}" (it is shown twice)`);
      members.set(key, this.value());
    });
    return { kind: 'object', members, open };
  }

  private array(): Pattern {
    this.at++; // [
    const items: Pattern[] = [];
    this.list(']', () => items.push(this.value()));
    return { kind: 'array', items };
  }

  /** Items separated by commas (a trailing one allowed) up to `close`. */
  private list(close: string, item: () => void): void {
    for (;;) {
      this.space();
      if (this.text[this.at] === close) break;
      item();
      this.space();
      if (this.text[this.at] === ',') this.at++;
      else if (this.text[this.at] !== close) this.fail(`"," or "${close}"`);
    }
    this.at++;
  }

  private string(): string {
    const quote = this.text[this.at]!;
    let out = '';
    for (this.at++; this.at < this.text.length; this.at++) {
      const c = this.text[this.at]!;
      if (c === quote) {
        this.at++;
        return out;
      }
      if (c === '\n') break;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = this.text[++this.at];
      const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0', '\\': '\\', "'": "'", '"': '"', '/': '/' };
      if (e !== undefined && e in simple) out += simple[e];
      else if (e === 'u') {
        const hex = /^\{([0-9a-fA-F]+)\}|^[0-9a-fA-F]{4}/.exec(this.text.slice(this.at + 1));
        if (!hex) return this.fail('a \\u escape');
        out += String.fromCodePoint(parseInt(hex[1] ?? hex[0], 16));
        this.at += hex[0].length;
      } else return this.fail('an escape');
    }
    return this.fail('the end of the string');
  }

  private space(): void {
    while (this.at < this.text.length && /\s/.test(this.text[this.at]!)) this.at++;
  }

  private fail(what: string): never {
    const before = this.text.slice(0, this.at);
    const line = before.split('\n').length;
    throw new SyntaxError(`expected ${what} at line ${line} of the value, before ${JSON.stringify(this.text.slice(this.at, this.at + 30))}`);
  }
}

/** The texts around each `…`, which with the blanks next to it stands for any text (`a … b` matches `a(b`). */
const ELIDED = /\s*…\s*/;

function textPattern(text: string): Pattern {
  return text.includes(ELLIPSIS) ? { kind: 'text', segments: text.split(ELIDED) } : { kind: 'literal', value: text };
}

/** Whether an output text is the text a block of the docs shows, `…` standing for any text. */
export function textMatches(shown: string, actual: string): boolean {
  return shown.includes(ELLIPSIS) ? matchSegments(actual, shown.split(ELIDED)) : shown === actual;
}

/**
 * Where `actual` differs from `pattern` (`at value.conditions[1].path: …`), or undefined
 * when it is what the pattern shows.
 */
export function mismatch(pattern: Pattern, actual: unknown, where = 'the value'): string | undefined {
  switch (pattern.kind) {
    case 'any':
      return undefined;
    case 'literal':
      return isDeepStrictEqual(actual, pattern.value) ? undefined : `${where} is ${show(actual)}, not ${show(pattern.value)}`;
    case 'text':
      return typeof actual === 'string' && matchSegments(actual, pattern.segments)
        ? undefined
        : `${where} is ${show(actual)}, not a string like ${show(pattern.segments.join(ELLIPSIS))}`;
    case 'array':
      return Array.isArray(actual) ? arrayMismatch(pattern.items, actual, where) : `${where} is ${show(actual)}, not an array`;
    case 'object': {
      if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return `${where} is ${show(actual)}, not an object`;
      const record = actual as Record<string, unknown>;
      for (const [key, member] of pattern.members) {
        const found = mismatch(member, Object.hasOwn(record, key) ? record[key] : undefined, `${where}.${key}`);
        if (found !== undefined) return found;
      }
      if (!pattern.open) {
        const extra = Object.keys(record).filter((key) => record[key] !== undefined && !pattern.members.has(key));
        if (extra.length > 0) return `${where} also has ${extra.join(', ')} (show it, or end the object with …)`;
      }
      return undefined;
    }
  }
}

/** Arrays with gaps: the shown items in order, each gap (`…`) standing for any number of items. */
function arrayMismatch(items: readonly Pattern[], actual: readonly unknown[], where: string): string | undefined {
  const gaps = items.some((item) => item.kind === 'any');
  if (!gaps) {
    if (actual.length !== items.length) return `${where} has ${actual.length} items, not ${items.length}: ${show(actual)}`;
    for (let i = 0; i < items.length; i++) {
      const found = mismatch(items[i]!, actual[i], `${where}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  // With gaps, the docs' arrays are short: try every placement.
  const fits = (p: number, a: number): boolean => {
    if (p === items.length) return a === actual.length;
    if (items[p]!.kind === 'any') {
      for (let next = a; next <= actual.length; next++) if (fits(p + 1, next)) return true;
      return false;
    }
    return a < actual.length && mismatch(items[p]!, actual[a]) === undefined && fits(p + 1, a + 1);
  };
  return fits(0, 0) ? undefined : `${where} does not hold the items shown, in that order: ${show(actual)}`;
}

function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  const text = JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ?? String(value);
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}
