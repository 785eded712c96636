import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonSyntax, JsonSyntaxError } from '../../src/cli/stream/json-syntax';

/**
 * Checks `text` as one JSON value fed in pieces cut at `cuts`: 'ok' when it is one value
 * followed by whitespace only, else the error's message and the index (in the whole text)
 * where it shows.
 */
function verdict(text: string, cuts: readonly number[] = [], maxDepth = 1000): 'ok' | { message: string; at: number } {
  const syntax = new JsonSyntax(maxDepth);
  syntax.begin();
  let at = 0;
  let end = -1;
  try {
    for (const cut of [...cuts, text.length]) {
      const piece = text.slice(at, cut);
      const found = syntax.feed(piece, 0);
      if (found >= 0) {
        end = at + found;
        break;
      }
      at = cut;
    }
    if (end < 0) {
      if (!syntax.end()) return { message: 'cut short', at: text.length };
      end = text.length;
    }
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    return { message: error.message, at: at + error.index };
  }
  return /^[ \t\r\n]*$/.test(text.slice(end)) ? 'ok' : { message: 'more after the value', at: end };
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Text near JSON: JSON values, then characters inserted, deleted or replaced, from those JSON is made of. */
const nearJson = fc
  .tuple(
    fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value, null, 1)),
    fc.array(fc.tuple(fc.nat(), fc.nat(2), fc.constantFrom(...'{}[]",:0123456789-+.eEtrufalsn \\/bu\n\t\u0001\u00e9x')), { maxLength: 3 }),
  )
  .map(([text, edits]) => {
    let out = text;
    for (const [where, kind, c] of edits) {
      const i = where % (out.length + 1);
      out = kind === 0 ? out.slice(0, i) + c + out.slice(i) : kind === 1 ? out.slice(0, i) + out.slice(i + 1) : out.slice(0, i) + c + out.slice(i + 1);
    }
    return out.trimStart();
  });

describe('JsonSyntax', () => {
  it('accepts every JSON value, however laid out and cut', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 1, 2, '\t'), fc.array(fc.nat(), { maxLength: 5 }), (value, indent, cuts) => {
        const text = JSON.stringify(value, null, indent);
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        expect(verdict(text, points)).toBe('ok');
      }),
      { numRuns: 500 },
    );
  });

  it('accepts exactly what JSON.parse accepts, however cut', () => {
    fc.assert(
      fc.property(nearJson, fc.array(fc.nat(), { maxLength: 4 }), (text, cuts) => {
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        const whole = verdict(text);
        expect(whole === 'ok', text).toBe(parses(text));
        expect(verdict(text, points)).toEqual(whole);
      }),
      { numRuns: 1500 },
    );
  });

  it.each([
    ['[}', '"}" where a value should come', 1],
    ['"x\\q"', '"\\\\q" is not an escape', 3],
    ['[1,2,,3]', '"," where a value should come', 5],
    ['[1,]', '"]" where a value should come', 3],
    ['{"a" 1}', '"1" where ":" should come', 5],
    ['{"a":1,}', '"}" where a key in quotes should come', 7],
    ['{1:2}', '"1" where a key in quotes should come', 1],
    ['[1 2]', '"2" where "," or "]" should come', 3],
    ['{"a":1]', '"]" where "," or "}" should come', 6],
    ['"a\nb"', 'a string is not closed before the end of its line', 2],
    ['"a\tb"', 'a raw control character ("\\t") in a string', 2],
    ['"\\u12g4"', '"\\\\u" takes four hex digits, not "g"', 5],
    ['01', 'a number starts with "0" and more digits', 1],
    ['-x', '"x" where a digit should come', 1],
    ['1.e5', '"e" where a digit should come', 2],
    ['1e+', 'cut short', 3],
    ['tru', 'cut short', 3],
    ['trux', '"x" where "true" goes on', 3],
    ['nul1', '"1" where "null" goes on', 3],
    ['[[[1]]]', 'it nests deeper than 2 levels', 2],
    ['{"a":[', 'cut short', 6],
  ])('refuses %j: %s', (text, message, at) => {
    expect(verdict(text, [], 2)).toEqual({ message, at });
  });

  it('counts the line feeds between tokens', () => {
    const syntax = new JsonSyntax(10);
    syntax.begin();
    expect(syntax.feed('{\n"a":\n[1,\n2]\n}', 0)).toBe(15);
    expect(syntax.lines).toBe(4);
  });

  it('ends a number at the first character that is not part of it, which it leaves', () => {
    const syntax = new JsonSyntax(10);
    syntax.begin();
    expect(syntax.feed('-12.5e3,', 0)).toBe(7);
    syntax.begin();
    expect(syntax.feed('12', 0)).toBe(-1);
    expect(syntax.feed('34}', 0)).toBe(2);
  });
});
