import { describe, expect, it } from 'vitest';
import { fromData, toData } from './data';
import { mismatch, parseValue, parseWholeValue, textMatches } from './expected';
import { blocksOf, snippetsOf } from './markdown';

// The docs' test is only as strict as its reading of the docs: these hold it to it.

const matches = (shown: string, actual: unknown) => mismatch(parseWholeValue(shown), actual) === undefined;

describe('values in the docs', () => {
  it('reads JavaScript literals and JSON alike, and leaves the prose after a value', () => {
    expect(matches(`{ ok: true, 'a b': [1, -2.5e3, "x\\"y"], c: null, d: undefined }`, { ok: true, 'a b': [1, -2500, 'x"y'], c: null })).toBe(true);
    expect(parseValue(`[2, 4, 1, 3]: 3 has no amount`).rest).toBe(': 3 has no amount');
    expect(() => parseWholeValue('{ a: 1 } and more')).toThrow(SyntaxError);
    expect(() => parseValue('memo=%22gte')).toThrow(/expected a value/);
    expect(() => parseValue('{ a: 1, a: 2 }')).toThrow(/shown twice/);
  });

  it('compares objects exactly, unless they end with …', () => {
    expect(matches('{ a: 1 }', { a: 1, b: 2 })).toBe(false);
    expect(mismatch(parseWholeValue('{ a: 1 }'), { a: 1, b: 2 })).toMatch(/also has b/);
    expect(matches('{ a: 1, … }', { a: 1, b: 2 })).toBe(true);
    expect(matches('{ a: 1, … }', { b: 2 })).toBe(false);
    expect(matches('{ a: 1 }', { a: 1, b: undefined })).toBe(true);
    expect(matches('{ a: { b: [1] } }', { a: { b: [2] } })).toBe(false);
    expect(mismatch(parseWholeValue('{ a: { b: [1] } }'), { a: { b: [2] } })).toBe('the value.a.b[0] is 2, not 1');
  });

  it('takes … in an array for any number of items there, in order', () => {
    expect(matches('[1, 2]', [1, 2, 3])).toBe(false);
    expect(matches('[1, …]', [1, 2, 3])).toBe(true);
    expect(matches('[…, 3]', [1, 2, 3])).toBe(true);
    expect(matches('[1, …, 3, …]', [1, 3])).toBe(true);
    expect(matches('[1, …, 3]', [3, 1])).toBe(false);
    expect(matches('[…]', [])).toBe(true);
  });

  it('takes … in a text for any text, with the blanks around it', () => {
    expect(matches(`'A "%" that is …'`, 'A "%" that is meant as the wildcard')).toBe(true);
    expect(matches(`'A "%" that is …'`, 'The "%"')).toBe(false);
    expect(textMatches('a … b', 'a(x)b')).toBe(true);
    expect(textMatches('a … b', 'b a')).toBe(false);
    expect(textMatches('exact', 'exact ')).toBe(false);
  });

  it('tells numbers, strings and missing values apart', () => {
    expect(matches('1', '1')).toBe(false);
    expect(matches('undefined', null)).toBe(false);
    expect(matches('NaN', Number.NaN)).toBe(true);
  });

  it('keeps what JSON loses on the way from the runner', () => {
    const value = { a: undefined, n: Number.NaN, z: -0, big: 10n, d: new Date(0), list: [undefined, 1], m: new Map([[1, 2]]) };
    expect(fromData(JSON.parse(JSON.stringify(toData(value))))).toEqual(value);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(toData(cycle)).toEqual({ self: '[circular]' });
  });
});

describe('blocks of the docs', () => {
  const markdown = [
    '## One',
    '<!-- id: a; given: pool, kysely as db -->',
    '```ts',
    'const x = 1;',
    '```',
    '',
    '```json',
    '1',
    '```',
    'Text between.',
    '```',
    'not an output',
    '```',
    '## Two',
    '<!-- fragment: it shows a shape, not code -->',
    '```ts',
    '{ … }',
    '```',
    '```sh',
    'npm test',
    '```',
  ].join('\n');

  it('finds snippets, their marks, their sections and the outputs right after them', () => {
    const [a, b] = snippetsOf(markdown, 'docs/page.md');
    expect(a).toMatchObject({ page: 'docs/page.md', line: 4, end: 5, section: 'One', marks: { id: 'a', given: ['pool', 'kysely as db'] } });
    expect(a!.outputs.map((o) => o.text)).toEqual(['1']);
    expect(b).toMatchObject({ line: 17, section: 'Two', marks: { fragment: 'it shows a shape, not code' }, outputs: [] });
    expect(blocksOf(markdown, 'docs/page.md').map((block) => block.info)).toEqual(['ts', 'json', '', 'ts', 'sh']);
  });

  it('refuses a mark it does not know, or one given twice', () => {
    expect(() => blocksOf('<!-- id: a; id: b -->\n```ts\n```', 'docs/page.md')).toThrow(/^docs\/page\.md:1: the mark "id" is given twice/);
    expect(() => blocksOf('<!-- after: a; afer: b -->\n```ts\n```', 'docs/page.md')).toThrow(/is not a mark/);
    expect(() => blocksOf('```ts\nunclosed', 'docs/page.md')).toThrow(/never closed/);
  });

  it('reads a file mark, for the transcripts of the page', () => {
    const [block] = blocksOf('<!-- file: vendors.json -->\n```json\n[]\n```', 'docs/cli.md');
    expect(block).toMatchObject({ info: 'json', text: '[]', marks: { file: 'vendors.json' } });
  });
});
