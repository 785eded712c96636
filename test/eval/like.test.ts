import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileLike } from '../../src/eval/like';
import { wildcardMatch } from '../support/reference';

describe('compileLike: % patterns by segments', () => {
  it.each<[string, string[], string, boolean]>([
    ['equality', ['acme'], 'acme', true],
    ['equality, not a prefix', ['acme'], 'acme corp', false],
    ['contains', ['', 'acme', ''], 'the acme co', true],
    ['contains, absent', ['', 'acme', ''], 'acne', false],
    ['starts with', ['acme', ''], 'acme corp', true],
    ['starts with, not at the start', ['acme', ''], 'an acme', false],
    ['ends with', ['', 'corp'], 'acme corp', true],
    ['ends with, not at the end', ['', 'corp'], 'corp.', false],
    ['both ends', ['a', 'z'], 'a…z', true],
    ['both ends may not overlap', ['ab', 'ba'], 'aba', false],
    ['only wildcards match anything', ['', ''], '', true],
    ['only wildcards, twice', ['', '', ''], 'x', true],
    ['middle segments in order', ['', 'a', 'b', ''], 'xaxbx', true],
    ['middle segments out of order', ['', 'b', 'a', ''], 'xaxbx', false],
    ['a middle segment may not eat the end', ['', 'ab', 'b'], 'ab', false],
    ['% _ and \\ inside segments are literal', ['', '50%_\\', ''], 'a 50%_\\ b', true],
    ['_ is no single-character wildcard', ['a_c'], 'abc', false],
    ['astral characters', ['', '😀', ''], 'a😀b', true],
  ])('%s', (_name, segments, text, expected) => {
    expect(compileLike(segments)(text)).toBe(expected);
    expect(wildcardMatch(text, segments)).toBe(expected);
  });

  it('agrees with the textbook matcher on random patterns over a small alphabet', () => {
    const alphabet = fc.constantFrom('a', 'b', '%', '😀');
    const textOf = fc.array(alphabet, { maxLength: 12 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(fc.array(textOf, { minLength: 1, maxLength: 5 }), textOf, (segments, text) => {
        expect(compileLike(segments)(text)).toBe(wildcardMatch(text, segments));
      }),
      { numRuns: 5000 },
    );
  });

  it('decides adversarial patterns correctly on long texts (the time is measured in bench/)', () => {
    const pattern = ['', ...Array<string>(15).fill('a'), 'b'];
    const many = 'a'.repeat(100_000);
    expect(compileLike(pattern)(many)).toBe(false);
    expect(compileLike(pattern)(`${many}b`)).toBe(true);
    expect(compileLike(pattern)(`b${many}`)).toBe(false);
    // The textbook matcher is quadratic: compare with it on a length it can afford.
    const short = `${'a'.repeat(300)}b`;
    for (const text of [short, short.slice(1), short.slice(0, -1), `${'ab'.repeat(150)}`]) {
      expect(compileLike(pattern)(text)).toBe(wildcardMatch(text, pattern));
    }
  });
});
