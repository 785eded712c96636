/**
 * Where UTF-8 stops being UTF-8. The decoding itself is `TextDecoder`'s (fatal, streamed);
 * these say what it does not: how many bytes at the end of what was read begin a
 * character not yet complete (so that each piece's text has its exact byte offset), and,
 * once the decoder refuses a piece, which byte it refused.
 */

/** The length of the UTF-8 sequence a lead byte begins: 1 to 4, or 0 for a byte no sequence begins with. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead < 0xc2) return 0; // a continuation byte, or C0/C1 (overlong)
  if (lead < 0xe0) return 2;
  if (lead < 0xf0) return 3;
  return lead < 0xf5 ? 4 : 0;
}

/** The bytes the second byte of a sequence may take after `lead` (Unicode's table 3-7: no overlong form, no surrogate, nothing past U+10FFFF). */
function secondRange(lead: number): readonly [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return [0x80, 0xbf];
}

/** The last bytes read, as many as begin a character that is not complete yet (at most three). */
export class Utf8Tail {
  private readonly last = new Uint8Array(3);
  private held = 0;
  /** How many of the last bytes begin a character not yet complete. */
  length = 0;

  /** Takes the next piece's bytes (already known to be UTF-8 but for an unfinished character at the end). */
  after(piece: Uint8Array): void {
    if (piece.length >= 3) {
      this.last.set(piece.subarray(piece.length - 3));
      this.held = 3;
    } else {
      const keep = Math.min(this.held, 3 - piece.length);
      this.last.copyWithin(0, this.held - keep, this.held);
      this.last.set(piece, keep);
      this.held = keep + piece.length;
    }
    this.length = 0;
    for (let j = 1; j <= this.held; j++) {
      const byte = this.last[this.held - j]!;
      if ((byte & 0xc0) === 0x80) continue;
      this.length = sequenceLength(byte) > j ? j : 0;
      return;
    }
  }

  /** The bytes of the unfinished character (a copy). */
  bytes(): Uint8Array {
    return this.last.slice(this.held - this.length, this.held);
  }
}

/**
 * The index in `piece` of the first byte of the first sequence that is not UTF-8, with
 * `carried` (an unfinished character from before) read in front of it: negative when that
 * sequence began in `carried`. A sequence that the piece's end cuts short is not wrong
 * (the next piece may finish it): when nothing else is, the answer is `piece.length`.
 */
export function firstInvalid(carried: Uint8Array, piece: Uint8Array): number {
  const start = -carried.length;
  const at = (i: number): number => (i < 0 ? carried[carried.length + i]! : piece[i]!);
  for (let i = start; i < piece.length;) {
    const lead = at(i);
    const length = sequenceLength(lead);
    if (length === 0) return i;
    if (length === 1) {
      i++;
      continue;
    }
    const [low, high] = secondRange(lead);
    for (let k = 1; k < length; k++) {
      if (i + k >= piece.length) return piece.length;
      const byte = at(i + k);
      if (k === 1 ? byte < low || byte > high : (byte & 0xc0) !== 0x80) return i;
    }
    i += length;
  }
  return piece.length;
}
