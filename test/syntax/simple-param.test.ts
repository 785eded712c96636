import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/index';
import { DEFAULT_LIMITS } from '../../src/input/limits';
import { createFilterLexer, FilterParser, simpleParam } from '../../src/syntax/grammar';
import { withinLimits } from '../../src/syntax/token-limits';
import { SEPARATOR } from '../../src/syntax/tokens';
import { CORPUS, HARD_CORPUS } from '../../bench/corpus';

/** The parameters of every query of grammar/vectors, valid or not, decoded as URLSearchParams does (NUL left out: the lexed text cannot hold it). */
function vectorPairs(): Pair[][] {
  const dir = new URL('../../grammar/vectors/', import.meta.url);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => (JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as { vectors: { query?: string }[] }).vectors)
    .flatMap((v) => (v.query === undefined ? [] : [[...new URLSearchParams(v.query)].map(([key, value]) => ({ key, value }))]))
    .filter((pairs) => pairs.length > 0 && pairs.every((p) => !(p.key + p.value).includes('\0')));
}

// `parse` first lexes a query with the fast lexer, in which a well-formed parameter is
// one `SimpleParam` token whose node is built from its text (any other is an
// `OtherParam`); only a query that is not all SimpleParams, or is past a limit, goes
// over the full lexer's tokens and the parser. These tests hold the two paths to one
// answer: wherever the fast path builds a tree, the full tokens parse to the very same
// tree, spans and all; and wherever the full tokens parse, the fast path builds one.

const full = createFilterLexer(true);
const fast = createFilterLexer(true, true);
const parser = new FilterParser(true);

type Pair = { key: string; value: string };

const text = (pairs: readonly Pair[]): string => pairs.map((p) => p.key + SEPARATOR + p.value + SEPARATOR).join('');

/** The tree the full lexer's tokens parse to, or undefined when they do not parse. */
function fullTree(pairs: readonly Pair[]): unknown {
  const lexed = full.tokenize(text(pairs));
  if (lexed.errors.length > 0) return undefined;
  const tree = parser.parseQuery(lexed.tokens, pairs);
  return parser.errors.length > 0 ? undefined : tree;
}

/** The fast lexer's token names. */
function fastTokens(pairs: readonly Pair[]): string[] {
  const lexed = fast.tokenize(text(pairs));
  expect(lexed.errors).toEqual([]);
  return lexed.tokens.map((t) => t.tokenType.name);
}

/** Asserts the paths agree on these parameters; true when the fast one took them all as SimpleParam. */
function agree(pairs: readonly Pair[]): boolean {
  const tokens = fastTokens(pairs);
  expect(tokens).toHaveLength(pairs.length);
  const simple = tokens.every((t) => t === 'SimpleParam');
  const slow = fullTree(pairs);
  if (simple) expect(pairs.map(simpleParam), JSON.stringify(pairs)).toStrictEqual(slow);
  // Every parameter the grammar accepts is a SimpleParam: the other path is for malformed ones.
  else expect(slow, JSON.stringify(pairs)).toBeUndefined();
  return simple;
}

/** Keys and values made of what decides between the two paths: names, dots, operators, and the characters that end or change a clause. */
const KEY = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('a', 'a.b', 'customerRef.id', 'lines.amount', '_x9.y_') },
  { weight: 1, arbitrary: fc.constantFrom('a.', '.a', '1a', 'a..b', 'a-b', 'é', '') },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('a', 'Z', '_', '0', '9', '.', '-', ' ', 'é'), maxLength: 8 }) },
);
/** Mostly what a bare clause is made of, sometimes a quote, an escape, a bad escape or a wildcard. */
const BARE_UNIT = fc.constantFrom('a', 'Z', '0', ' ', ':', ';', 'gt:', 'gte:', 'lt:', 'lte:', 'gt', 'l', 'é', '😀', '=', '&', '+', '"');
const ANY_UNIT = fc.constantFrom('"', '%', '\\', '\\;', '\\%', '\\"', '\\\\', ';;');
const VALUE = fc.string({ unit: fc.oneof({ weight: 8, arbitrary: BARE_UNIT }, { weight: 2, arbitrary: ANY_UNIT }), maxLength: 10 });
const PAIRS = fc.array(fc.record({ key: KEY, value: VALUE }), { minLength: 1, maxLength: 3 });

describe('the fast lexer (SimpleParam) against the full lexer', () => {
  it('builds the tree the full tokens parse to, and takes every valid parameter whole, on generated parameters', () => {
    let simple = 0;
    let escaped = 0;
    fc.assert(
      fc.property(PAIRS, (pairs) => {
        if (!agree(pairs)) return;
        simple++;
        if (pairs.some((p) => /["\\]/.test(p.value))) escaped++;
      }),
      { numRuns: 20_000 },
    );
    // The generator reaches the fast path often, quotes and escapes included, or the test would prove little.
    expect(simple).toBeGreaterThan(2_000);
    expect(escaped).toBeGreaterThan(500);
  });

  it('gives the same tree on the queries of grammar/vectors', () => {
    const all = vectorPairs();
    expect(all.length).toBeGreaterThan(100);
    for (const pairs of all) agree(pairs);
  });

  it('takes every parameter of the bench corpora whole, and builds each query as the full lexer\'s tokens parse', () => {
    const shapes: string[] = [];
    for (const { query } of [...CORPUS, ...HARD_CORPUS]) {
      const pairs = [...new URLSearchParams(query)].map(([key, value]) => ({ key, value }));
      agree(pairs);
      shapes.push(...fastTokens(pairs));
    }
    expect(shapes.length).toBeGreaterThan(100);
    expect(new Set(shapes)).toEqual(new Set(['SimpleParam']));
  });

  it.each([
    ['totalAmount', 'gte:100;lte:200', true],
    ['a', 'gte:gte:5', true],
    ['a', 'x"y', true],
    ['a', 'gte:', false],
    ['a', '"x"', true],
    ['a', 'gt:"x";lt:"y;\\"z"', true],
    ['a', '""', true],
    ['a', '"x"y', false],
    ['a', '"x', false],
    ['a', 'x;', false],
    ['a', ';x', false],
    ['a', '', false],
    ['a', 'x%', true],
    ['vendorName', '%acme%;gt:%', true],
    ['a', 'x\\%', true],
    ['a', 'x\\;y;"\\%%"', true],
    ['a', 'x\\q', false],
    ['a', '"x\\q"', false],
    ['a', 'x\\', false],
    ['a.', 'x', false],
    ['a-b', 'x', false],
  ])('lexes %s=%s as one SimpleParam: %s', (key, value, whole) => {
    expect(fastTokens([{ key, value }])).toEqual([whole ? 'SimpleParam' : 'OtherParam']);
  });
});

describe('withinLimits', () => {
  // The fast path's check of the limits must agree with checkTokenLimits: parse reports
  // the same diagnostics for a query past a limit whether its parameters are simple or not.
  it.each([
    ['a=1;2;3', { maxClauses: 2 }],
    ['a=12345', { maxOperandLength: 4 }],
    ['a=gte:12345', { maxOperandLength: 4 }],
    ['a="1234"', { maxOperandLength: 5 }],
    ['a=%251%252%25', { maxWildcards: 2 }],
  ])('sends %s past %j to the full tokens, which report it', (query, limits) => {
    const result = parse(query, { limits });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.map((d) => d.code)).toEqual(['LIMIT_EXCEEDED']);
  });

  it('lets every limit be reached exactly', () => {
    const limits = { ...DEFAULT_LIMITS, maxClauses: 3, maxOperandLength: 6, maxWildcards: 2 };
    const result = parse('a=gte:123456;"1234";%25x%25&b=1;2;3', { limits });
    expect(result.ok).toBe(true);
    if (result.ok) expect(withinLimits(result.value.filters, limits)).toBe(true);
  });
});
