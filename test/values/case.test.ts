import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldCase } from '../../src/values/case';

/** The definition, spelled out: each code point on its own, İ to its simple mapping `i`. */
function perCodePoint(text: string): string {
  let out = '';
  for (const c of text) out += c === '\u0130' ? 'i' : c.toLowerCase();
  return out;
}

/** Text rich in the characters that matter: ASCII, Latin-1, Greek (with Σ), Cyrillic, İ, astral letters. */
const mixedText = fc.string({
  unit: fc.oneof(
    fc.constantFrom('A', 'z', 'Σ', 'σ', 'ς', 'İ', 'ı', 'I', 'ß', 'ẞ', 'Ä', 'Ж', 'ж', 'ǅ', '𐐀', ' ', '%'),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 20,
});

describe('foldCase', () => {
  it('lowers ASCII, Latin, Greek and Cyrillic text as toLowerCase does', () => {
    expect(foldCase('ACME Corp.')).toBe('acme corp.');
    expect(foldCase('MÜLLER GmbH & Ço')).toBe('müller gmbh & ço');
    expect(foldCase('ΑΘΗΝΑ')).toBe('αθηνα');
    expect(foldCase('ПРИВЕТ Мир')).toBe('привет мир');
  });

  it('maps Σ to σ whatever follows it, unlike the final-sigma rule of toLowerCase', () => {
    expect('ΣΑΣ'.toLowerCase()).toBe('σας');
    expect(foldCase('ΣΑΣ')).toBe('σασ');
    expect(foldCase('ΟΔΟΣ ΑΘΗΝΑΣ')).toBe('οδοσ αθηνασ');
    // ς in the data is its own letter: it is already lower case.
    expect(foldCase('οδός')).toBe('οδός');
  });

  it('maps İ to i, one code point, where toLowerCase gives i + combining dot', () => {
    expect('İ'.toLowerCase()).toBe('i\u0307');
    expect(foldCase('İSTANBUL')).toBe('istanbul');
  });

  it('gives one code point for each code point, so lengths in code points never change', () => {
    const longer: number[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const folded = foldCase(String.fromCodePoint(cp));
      if ([...folded].length !== 1) longer.push(cp);
    }
    expect(longer).toEqual([]);
  });

  it('is the per-code-point simple mapping for any text', () => {
    fc.assert(fc.property(mixedText, (text) => foldCase(text) === perCodePoint(text)), { numRuns: 2000 });
  });

  it('equals toLowerCase on text without Σ and İ', () => {
    const plain = mixedText.filter((t) => !/[\u0130\u03a3]/.test(t));
    fc.assert(fc.property(plain, (text) => foldCase(text) === text.toLowerCase()), { numRuns: 2000 });
  });

  it('is idempotent', () => {
    fc.assert(fc.property(mixedText, (text) => foldCase(foldCase(text)) === foldCase(text)), { numRuns: 2000 });
  });
});
