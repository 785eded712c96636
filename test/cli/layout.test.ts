import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { layOut, spansLines } from '../../src/cli/stream/layout';
import { ItemWriter, type OutputFormat } from '../../src/cli/stream/output';

function laidOut(json: string, indent: boolean, level = 0): string {
  const pieces: string[] = [];
  layOut(json, indent, level, (piece) => pieces.push(piece));
  return pieces.join('');
}

describe('layOut', () => {
  it('indents as JSON.stringify(value, null, 2) does, and compacts as JSON.stringify(value), whatever the layout it is given', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 1, 2, 4, '\t', ' \r\n'), (value, layout) => {
        const text = JSON.stringify(value, null, layout);
        expect(laidOut(text, true)).toBe(JSON.stringify(value, null, 2));
        expect(laidOut(text, false)).toBe(JSON.stringify(value));
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps everything but the whitespace between tokens: numbers as spelled, escapes, key order, repeated keys', () => {
    const text = '{ "b" : 1e400, "a":[ -0 , 1.50,123456789012345678901234567890 ] ,"e":{ },"f":[\n],"s":"\\u00e9\\/ \\"{[,:", "b": true }';
    expect(laidOut(text, false)).toBe('{"b":1e400,"a":[-0,1.50,123456789012345678901234567890],"e":{},"f":[],"s":"\\u00e9\\/ \\"{[,:","b":true}');
    expect(laidOut(text, true)).toBe('{\n  "b": 1e400,\n  "a": [\n    -0,\n    1.50,\n    123456789012345678901234567890\n  ],\n  "e": {},\n  "f": [],\n  "s": "\\u00e9\\/ \\"{[,:",\n  "b": true\n}');
    expect(laidOut('"a\\\\"', true)).toBe('"a\\\\"');
  });

  it('indents from a level, for an item inside the output\'s array', () => {
    expect(laidOut('{"a":[1]}', true, 1)).toBe('{\n    "a": [\n      1\n    ]\n  }');
  });

  it('hands the text on in pieces, so that an item indented deep needs no string longer than a piece', () => {
    const deep = `${'['.repeat(1000)}1${']'.repeat(1000)}`;
    const pieces: string[] = [];
    layOut(deep, true, 0, (piece) => pieces.push(piece));
    expect(pieces.join('')).toBe(JSON.stringify(JSON.parse(deep), null, 2));
    expect(pieces.length).toBeGreaterThan(100);
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThan(8192 + 2 * 1001 + 2);
  });

  it('tells text that spans lines', () => {
    expect(spansLines('{"a": 1}')).toBe(false);
    expect(spansLines('{"a":\n1}')).toBe(true);
    expect(spansLines('{"a":\r1}')).toBe(true);
  });
});

/** What the writer gives stdout for these items' texts. */
async function written(format: OutputFormat, pretty: boolean, texts: readonly string[], complete = true): Promise<string> {
  let out = '';
  const writer = new ItemWriter(format, pretty, { write: (bytes, done) => ((out += Buffer.from(bytes).toString()), done(), true), once: () => undefined });
  for (const text of texts) writer.add(text);
  await writer.end(complete);
  return out;
}

describe('ItemWriter', () => {
  const texts = ['{"n": 1e400, "z": -0}', '{\n  "f": 1.50\n}', '"\\u00e9\\/"'];

  it('writes each item as it came; an item that spans lines goes on one, --pretty indents', async () => {
    expect(await written('ndjson', false, texts)).toBe('{"n": 1e400, "z": -0}\n{"f":1.50}\n"\\u00e9\\/"\n');
    expect(await written('array', false, texts)).toBe('[{"n": 1e400, "z": -0},{"f":1.50},"\\u00e9\\/"]\n');
    expect(await written('array', true, texts)).toBe('[\n  {\n    "n": 1e400,\n    "z": -0\n  },\n  {\n    "f": 1.50\n  },\n  "\\u00e9\\/"\n]\n');
    expect(await written('count', false, texts)).toBe('3\n');
    expect(await written('array', false, [])).toBe('[]\n');
  });

  it('escapes what would act on a terminal, as the same JSON', async () => {
    const raw = '{"v":"a\u009b2J\u202e\u007f\u2028b","w":"\u{1f600}"}';
    const out = await written('ndjson', false, [raw]);
    expect(out).toBe('{"v":"a\\u009b2J\\u202e\\u007f\\u2028b","w":"\u{1f600}"}\n');
    expect(JSON.parse(out)).toEqual(JSON.parse(raw));
  });

  it('after an input error, leaves the array open (its line ended), and writes the count so far', async () => {
    expect(await written('array', false, texts.slice(0, 1), false)).toBe('[{"n": 1e400, "z": -0}\n');
    expect(await written('array', true, texts.slice(0, 1), false)).toBe('[\n  {\n    "n": 1e400,\n    "z": -0\n  }\n');
    expect(await written('array', false, [], false)).toBe('');
    expect(await written('ndjson', false, texts.slice(0, 2), false)).toBe('{"n": 1e400, "z": -0}\n{"f":1.50}\n');
    expect(await written('count', false, texts.slice(0, 2), false)).toBe('2\n');
  });
});
