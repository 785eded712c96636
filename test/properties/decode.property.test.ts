import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeComponent, findEncodingError } from '../../src/input/decode';

/**
 * A reference decoder built on other parts of the platform: bytes from the `%XX`
 * escapes and the UTF-8 of the other characters, checked by a fatal TextDecoder.
 */
function referenceDecode(raw: string): string | undefined {
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < raw.length; ) {
    if (raw[i] === '%') {
      const hex = raw.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return undefined;
      bytes.push(Number.parseInt(hex, 16));
      i += 3;
      continue;
    }
    const char = String.fromCodePoint(raw.codePointAt(i)!);
    if (!char.isWellFormed()) return undefined;
    bytes.push(...encoder.encode(char === '+' ? ' ' : char));
    i += char.length;
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(new Uint8Array(bytes));
  } catch {
    return undefined;
  }
  return text.includes('\0') ? undefined : text;
}

const byteEscape = fc.integer({ min: 0, max: 255 }).map((b) => `%${b.toString(16).padStart(2, '0')}`);
const hexOrNot = fc.constantFrom(...'0123456789abcdefABCDEF', 'g', 'Z', '%', '+', '');
const piece = fc.oneof(
  { weight: 4, arbitrary: byteEscape },
  // Pieces of real UTF-8 sequences, so that valid multi-byte sequences come up often.
  { weight: 3, arbitrary: fc.constantFrom('%C3', '%A9', '%E2', '%82', '%AC', '%F0', '%9F', '%98', '%80', '%BF', '%ED', '%A0', '%F4', '%8F', '%90') },
  { weight: 2, arbitrary: fc.tuple(hexOrNot, hexOrNot).map(([a, b]) => `%${a}${b}`) },
  { weight: 2, arbitrary: fc.constantFrom('a', '+', ' ', 'é', '😀', '\0', '\uD800', '\uDC00') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
);

describe('decodeComponent', () => {
  it('agrees with a fatal TextDecoder on every sequence of escapes and characters', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }).map((p) => p.join('')), (raw) => {
        expect(decodeComponent(raw)).toBe(referenceDecode(raw));
      }),
      { numRuns: 5000 },
    );
  });

  it('is explained by findEncodingError whenever it refuses: a span at a %, a NUL or a lone surrogate', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }).map((p) => p.join('')), (raw) => {
        if (decodeComponent(raw) !== undefined) return;
        const { span, problem } = findEncodingError(raw);
        expect(problem).not.toBe('is not valid');
        expect(0 <= span.start && span.start < span.end && span.end <= raw.length).toBe(true);
        const first = raw.charCodeAt(span.start);
        expect(first === 37 || first === 0 || (first >= 0xd800 && first <= 0xdfff)).toBe(true);
        // Everything before the span decodes: the span is the first problem.
        expect(referenceDecode(raw.slice(0, span.start))).toBeDefined();
      }),
      { numRuns: 5000 },
    );
  });
});
