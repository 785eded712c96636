import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ItemSplitter } from '../../src/cli/stream/split';
import { InputError } from '../../src/cli/usage';

interface Split {
  readonly items: unknown[];
  readonly texts: string[];
  readonly lines: number[];
  readonly ndjson: boolean;
}

/** Splits `text` fed in the given pieces (cut at these offsets), with small caps so that tests reach them. */
function split(text: string, options: { path?: string[] | undefined; cuts?: number[]; maxItemChars?: number; maxDepth?: number } = {}): Split {
  const items: unknown[] = [];
  const texts: string[] = [];
  const lines: number[] = [];
  const splitter = new ItemSplitter({
    path: options.path,
    maxItemChars: options.maxItemChars ?? 1000,
    maxDepth: options.maxDepth ?? 8,
    onItem: (value, number, line, json) => {
      expect(number).toBe(items.length + 1);
      items.push(value);
      texts.push(json);
      lines.push(line);
    },
  });
  let at = 0;
  for (const cut of [...(options.cuts ?? []), text.length]) {
    splitter.push(text.slice(at, cut), Buffer.byteLength(text.slice(0, at)));
    at = cut;
  }
  splitter.end();
  return { items, texts, lines, ndjson: splitter.ndjson };
}

function refusal(text: string, options: Parameters<typeof split>[1] = {}): string {
  try {
    split(text, options);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error(`accepted: ${text}`);
}

describe('ItemSplitter', () => {
  it('splits a JSON array, NDJSON, and the array at a path into the same items', () => {
    const items = [{ a: 1, b: '},]"\\' }, [1, [2]], 'x,y', 3.5e2, null, true, { c: { d: [] } }];
    expect(split(JSON.stringify(items))).toEqual({ items, texts: items.map((item) => JSON.stringify(item)), lines: [1, 1, 1, 1, 1, 1, 1], ndjson: false });
    expect(split(JSON.stringify(items, null, 2)).items).toEqual(items);
    expect(split(items.map((item) => JSON.stringify(item)).join('\n'))).toMatchObject({ items: [...items], ndjson: true });
    const ndjson = items.filter((item) => !Array.isArray(item)).map((item) => JSON.stringify(item)).join('\r\n');
    expect(split(`${ndjson}\n`)).toMatchObject({ items: items.filter((item) => !Array.isArray(item)), lines: [1, 2, 3, 4, 5, 6], ndjson: true });
    const answer = { meta: { note: 'data: [1]' }, data: items, pagination: { next: null } };
    expect(split(JSON.stringify(answer, null, 1), { path: ['data'] }).items).toEqual(items);
    expect(split(JSON.stringify({ result: { skipped: [[{}]], items } }), { path: ['result', 'items'] }).items).toEqual(items);
  });

  it('reads NDJSON values that span lines, or share one, as jq does', () => {
    expect(split('{\n  "a": 1\n}\n{"b": 2} {"c": 3}\n\n  7\n')).toMatchObject({ items: [{ a: 1 }, { b: 2 }, { c: 3 }, 7], lines: [1, 4, 4, 6] });
  });

  it('gives the same items however the text is cut into pieces', () => {
    const item = fc.oneof(fc.object(), fc.array(fc.jsonValue()), fc.jsonValue());
    fc.assert(
      fc.property(fc.array(item, { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 8 }), fc.boolean(), fc.constantFrom('array', 'ndjson', 'path'), (items, cuts, pretty, layout) => {
        const objects = items.filter((value) => typeof value === 'object' && value !== null && !Array.isArray(value));
        const text = layout === 'array' ? JSON.stringify(items, null, pretty ? 2 : undefined)
          : layout === 'path' ? JSON.stringify({ x: items, data: items, y: [] }, null, pretty ? 2 : undefined)
          : objects.map((value) => JSON.stringify(value)).join('\n');
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        const result = split(text, { cuts: points, maxItemChars: 1e6, maxDepth: 1000, path: layout === 'path' ? ['data'] : undefined });
        // JSON.parse turns -0 into 0 on the way out and in alike: compare the parsed whole.
        expect(result.items).toEqual(layout === 'ndjson' ? JSON.parse(`[${objects.map((v) => JSON.stringify(v)).join(',')}]`) : JSON.parse(JSON.stringify(items)));
        // Each item's text is its own, exactly as the input holds it.
        const written = layout === 'ndjson' ? objects : items;
        expect(result.texts).toEqual(written.map((value) => JSON.stringify(value, null, pretty && layout !== 'ndjson' ? 2 : undefined).replaceAll('\n', layout === 'path' ? '\n    ' : '\n  ')));
      }),
      { numRuns: 300 },
    );
  });

  it('holds no empty input against it: no items (as an empty NDJSON file)', () => {
    expect(split('').items).toEqual([]);
    expect(split(' \n\n').items).toEqual([]);
    expect(split('[]').items).toEqual([]);
    expect(split(' [ ] \n').items).toEqual([]);
  });

  it.each([
    // Cut short
    ['[1, 2', {}, 'the input ends at line 1, after item 2, before the array of items is closed: it is cut short'],
    ['[{"a": 1},\n{"b": ', {}, 'the input ends inside item 2 (line 2): it is cut short'],
    ['{"a": "x\n', {}, 'item 1 (line 1) is not JSON: a string is not closed before the end of line 1'],
    ['{"data": [1, 2]', { path: ['data'] }, 'the input ends at line 1, inside an object: it is cut short'],
    ['{"data": [1, 2', { path: ['data'] }, 'the input ends at line 1, after item 2, before the array of items is closed: it is cut short'],
    // Not JSON, named by line
    ['{"a": 1}\n{"a": 2}\n{"a": 3,}\n', {}, 'item 3 (line 3) is not JSON: '],
    ['{"a": 1}\nnope\n', {}, 'item 2 (line 2) is not JSON: '],
    ['[1, 2,]', {}, 'unexpected "]" at line 1 (byte 6), where an item should come'],
    ['[1 2]', {}, 'unexpected "2" at line 1 (byte 3), where "," or "]" should come'],
    ['[1], [2]', {}, 'unexpected "," at line 1 (byte 3), where nothing more should come'],
    ['[{"a":1}]\n[{"a":2}]', {}, 'unexpected "[" at line 2 (byte 10), where nothing more should come'],
    ['{"a": 1},\n{"a": 2}', {}, 'unexpected "," at line 1 (byte 8), where a JSON value should come'],
    ['[{"a": 1]', {}, 'item 1 (line 1) is not JSON: '],
    ['\u001b[1]', {}, 'item 1 (line 1) is not JSON: '],
    // --path
    ['[1]', { path: ['data'] }, 'the input is an array (line 1), where an object holding the array at --path "data" was expected'],
    ['', { path: ['data'] }, 'the input is empty, where an object holding the array at --path "data" was expected'],
    ['{"meta": {}}', { path: ['data'] }, 'the input has no array at --path "data": the input\'s object has no key "data" (it ends at line 1)'],
    ['{"data": {"items": 1}}', { path: ['data', 'items'] }, '--path "data.items" holds a number (line 1), not an array of items'],
    ['{"data": "x"}', { path: ['data', 'items'] }, '--path "data" holds a string (line 1), not an object'],
    ['{"data": [1],\n "data": [2]}', { path: ['data'] }, 'the key "data" appears twice in the input\'s object, the second time at line 2'],
    ['{"data\u202e": [1]}', { path: ['data'] }, 'has no key "data"'],
    ['{"data" [1]}', { path: ['data'] }, 'unexpected "[" at line 1 (byte 8), where ":" should come'],
    ['{"a": }', { path: ['data'] }, 'unexpected "}" at line 1 (byte 6), where a value should come'],
    // Caps
    [`[${JSON.stringify({ a: 'x'.repeat(1000) })}]`, {}, 'item 1 (line 1) is longer than 1000 characters, the most one item may hold'],
    [`{"a": 1}\n${JSON.stringify({ a: 'x'.repeat(1000) })}\n`, {}, 'item 2 (line 2) is longer than 1000 characters'],
    [`[1, ${'['.repeat(9)}${']'.repeat(9)}]`, {}, 'item 2 (line 1) nests deeper than 8 levels, the most one item may'],
    [`{"a": 1}\n\n${'['.repeat(9)}${']'.repeat(9)}\n`, {}, 'item 2 (line 3) nests deeper than 8 levels'],
  ])('refuses %j, naming where', (text, options, message) => {
    expect(refusal(text, options)).toContain(message);
    // The same, however the text is cut.
    for (const cut of [1, Math.floor(text.length / 2), text.length - 1]) {
      if (cut > 0 && cut < text.length) expect(refusal(text, { ...options, cuts: [cut] })).toContain(message.split(':')[0]);
    }
  });

  it('escapes what it quotes from the input and the command line', () => {
    expect(refusal('{"\u009b2J": 1, "\u009b2J": 2}', { path: ['\u009b2J'] })).toContain('--path "\\u009b2J" holds a number');
    expect(refusal('[1 \u202e]')).toBe('unexpected "\\u202e" at line 1 (byte 3), where "," or "]" should come');
  });

  it('gives each item\'s text as it stood in the input: numbers, escapes, key order and inner whitespace kept', () => {
    const array = '[ {"b": 1e400, "a": -0, "b": 1.50}\t, 123456789012345678901234567890 ,"\\u00e9\\/",\n{ }\n]';
    expect(split(array).texts).toEqual(['{"b": 1e400, "a": -0, "b": 1.50}', '123456789012345678901234567890', '"\\u00e9\\/"', '{ }']);
    // An NDJSON line's text ends where its value does: not its CR, nor spaces after it.
    expect(split('{"a": 1.0}\r\n  {"b":2} \t\r\n7\n').texts).toEqual(['{"a": 1.0}', '{"b":2}', '7']);
    expect(split('{\n  "a": 1\n}\n').texts).toEqual(['{\n  "a": 1\n}']);
    expect(split('{"meta": {"x": [1]}, "data": [ {"a":1.50} ]}', { path: ['data'] }).texts).toEqual(['{"a":1.50}']);
  });

  it.each([
    ['{"meta":[},"data":[1]}', 'the value of "meta" (line 1) is not JSON: "}" where a value should come, at line 1 (byte 9)'],
    ['{"méta":[},"data":[1]}', 'the value of "méta" (line 1) is not JSON: "}" where a value should come, at line 1 (byte 10)'],
    ['{"meta":"x\\q","data":[1]}', 'the value of "meta" (line 1) is not JSON: "\\\\q" is not an escape, at line 1 (byte 11)'],
    ['{"meta":[1,2,,3],"data":[1]}', 'the value of "meta" (line 1) is not JSON: "," where a value should come, at line 1 (byte 13)'],
    ['{"data":[1],"next":tru}', 'the value of "next" (line 1) is not JSON: "}" where "true" goes on, at line 1 (byte 22)'],
    ['{"data":[1],\n"p":{\n"n": 01}}', 'the value of "p" (line 2) is not JSON: a number starts with "0" and more digits, at line 3 (byte 25)'],
    ['{"r":{"skip":[1 2],"items":[]}}', 'the value of "skip" (line 1) is not JSON: "2" where "," or "]" should come, at line 1 (byte 16)'],
    ['{"meta":[[[[[[[[[[1]]]]]]]]]],"data":[]}', 'the value of "meta" (line 1) is not JSON: it nests deeper than 8 levels, at line 1 (byte 16)'],
    ['{"meta":[1', 'the input ends inside the value of "meta" (line 1): it is cut short'],
  ])('checks the members --path passes over as JSON: %j', (text, message) => {
    const path = text.startsWith('{"r"') ? ['r', 'items'] : ['data'];
    expect(refusal(text, { path })).toBe(message);
    for (const cut of [3, 9, 12, text.length - 2]) expect(refusal(text, { path, cuts: [cut] })).toBe(message);
  });

  it('counts the lines of the members it passes over', () => {
    expect(split('{"meta":\n[1,\n2],\n"data":[\n{"a":1}]}', { path: ['data'] }).lines).toEqual([5]);
  });

  it('takes an item right at the caps', () => {
    const deep = `${'['.repeat(8)}${']'.repeat(8)}`;
    expect(split(`[${deep}]`).items).toEqual([JSON.parse(deep)]);
    expect(split(`{}\n${deep}\n`).items).toEqual([{}, JSON.parse(deep)]);
    const long = JSON.stringify({ a: 'x'.repeat(992) });
    expect(long.length).toBe(1000);
    expect(split(`[${long}]`).items).toHaveLength(1);
    expect(split(`${long}\n${long}`).items).toHaveLength(2);
  });
});
