import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decode, type Piece } from '../../src/cli/stream/read';

async function* chunks(bytes: Uint8Array, cuts: readonly number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    yield bytes.subarray(at, cut);
    at = cut;
  }
}

async function pieces(bytes: Uint8Array, cuts: readonly number[]): Promise<Piece[]> {
  const out: Piece[] = [];
  for await (const piece of decode(chunks(bytes, cuts))) out.push(piece);
  return out;
}

/** Where lenient decoding puts its first U+FFFD (the text has none of its own): the offset of the first byte that is not UTF-8. */
function firstBad(bytes: Uint8Array): number | undefined {
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  const at = text.indexOf('\ufffd');
  return at < 0 ? undefined : Buffer.byteLength(text.slice(0, at));
}

/** UTF-8 text (no U+FFFD of its own), maybe after a BOM, with bytes changed, added or removed. */
const nearUtf8 = fc
  .tuple(fc.boolean(), fc.string({ unit: 'binary', maxLength: 40 }), fc.array(fc.tuple(fc.nat(), fc.nat(2), fc.integer({ min: 0, max: 255 })), { maxLength: 2 }))
  .map(([bom, text, edits]) => {
    const bytes = [...Buffer.from(`${bom ? '\ufeff' : ''}${text.replaceAll('\ufffd', '?')}`)];
    for (const [where, kind, byte] of edits) {
      const i = where % (bytes.length + 1);
      if (kind === 0) bytes.splice(i, 0, byte);
      else if (kind === 1) bytes.splice(i, 1);
      else bytes[i] = byte;
    }
    return Uint8Array.from(bytes);
  });

describe('decoding the input', () => {
  it('gives the text, each piece with the byte offset of its first character, up to the first byte that is not UTF-8, which it names; however the bytes are cut', async () => {
    await fc.assert(
      fc.asyncProperty(nearUtf8, fc.array(fc.nat(), { maxLength: 6 }), async (bytes, cuts) => {
        const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
        const got = await pieces(bytes, points);
        const bad = firstBad(bytes);
        const end = bad ?? bytes.length;
        const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf && end >= 3 ? 3 : 0;
        expect(got.map((piece) => piece.text).join('')).toBe(Buffer.from(bytes.subarray(bom, end)).toString('utf8'));
        let text = '';
        for (const piece of got) {
          expect(piece.offset).toBe(bom + Buffer.byteLength(text));
          text += piece.text;
        }
        const last = got.at(-1);
        if (bad === undefined) expect(last?.invalid).toBeUndefined();
        else expect(last?.invalid).toEqual({ offset: bad, byte: bytes[bad] });
        expect(got.slice(0, -1).every((piece) => piece.invalid === undefined)).toBe(true);
      }),
      { numRuns: 600 },
    );
  });
});
