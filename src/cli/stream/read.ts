import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { UsageError, reason } from '../usage';
import { Utf8Tail, firstInvalid } from './utf8';

/** One piece of the input's text, and where it stands in the input's bytes. */
export interface Piece {
  /** Text decoded from the input, strictly UTF-8 (a byte order mark at the start dropped). */
  readonly text: string;
  /** The byte offset in the input of the text's first character. */
  readonly offset: number;
  /** How many bytes were read so far. */
  readonly bytes: number;
  /**
   * Set on the last piece when the input is not UTF-8: the offset and value of the first
   * byte that is not, `text` being everything before it.
   */
  readonly invalid?: { readonly offset: number; readonly byte: number };
}

/** The input of `qsfilter filter`, opened: its text piece by piece, and what a message or a progress bar says of it. */
export interface Input {
  /** `standard input`, or the file name as given: for messages. */
  readonly source: string;
  /** The size in bytes of a regular file; absent for standard input, a pipe or a device. */
  readonly size?: number | undefined;
  /** The input's text in pieces. */
  readonly pieces: AsyncIterable<Piece>;
}

/**
 * Bytes read at once. Small pieces keep memory flat: whatever is alive when V8 scavenges
 * (the piece being split, two bytes a character once one is not Latin-1) counts towards
 * growing its young generation, which over gigabytes grows to 32 MB and more. Measured
 * with blocking reads (Node 24, 200 MB of NDJSON and a 1 GB sort): 16 KiB pieces keep
 * 70 MB and 130 MB resident where 32 KiB ones took 77 MB and 165 MB, for no more CPU. A
 * 1 MiB piece is worse still: it is allocated in the large-object space and lives until a
 * full collection.
 */
const PIECE_BYTES = 16 * 1024;

/**
 * A file is read with blocking reads, which cost a fifth less CPU than the thread pool's
 * (measured on 200 MB of NDJSON: 2.1 s against 2.6 s, most of it JSON.parse either way),
 * this many bytes at once (then decoded piece by piece); every `TURN_BYTES` the event
 * loop gets a turn, for SIGINT and stdout's drain.
 */
const READ_BYTES = 16 * PIECE_BYTES;
const TURN_BYTES = 2 * 1024 * 1024;

/**
 * Opens the input: the file, or standard input when there is none or it is `-`. A file
 * that cannot be opened is a usage error; standard input left on a terminal is one too
 * (waiting for JSON typed by hand is never what was meant).
 */
export function openInput(file: string | undefined): Input {
  if (file === undefined || file === '-') {
    if (process.stdin.isTTY === true) throw new UsageError('no input: give a file, or pipe JSON or NDJSON to standard input');
    return { source: 'standard input', pieces: decode(process.stdin as AsyncIterable<Uint8Array>) };
  }
  let fd: number | undefined;
  let size: number | undefined;
  try {
    fd = openSync(file, 'r');
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new Error('it is a directory');
    if (stat.isFile()) size = stat.size;
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    throw new UsageError(`cannot read the input file ${JSON.stringify(file)}: ${reason(error)}`);
  }
  return { source: file, size, pieces: decode(fileBytes(fd)) };
}

/** A file's bytes in pieces, read into one buffer again and again: each piece is decoded before the next read. */
async function* fileBytes(fd: number): AsyncGenerator<Uint8Array> {
  const buffer = Buffer.allocUnsafe(READ_BYTES);
  let sinceTurn = 0;
  try {
    for (;;) {
      const read = readSync(fd, buffer, 0, READ_BYTES, null);
      if (read === 0) return;
      for (let at = 0; at < read; at += PIECE_BYTES) yield buffer.subarray(at, Math.min(at + PIECE_BYTES, read));
      sinceTurn += read;
      if (sinceTurn >= TURN_BYTES) {
        sinceTurn = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Bytes to text, strictly: a byte that is not UTF-8 ends the text (the piece that holds
 * it says where), rather than turning into U+FFFD and being written out changed; a
 * character split between two pieces is joined; a byte order mark at the start is dropped.
 */
export async function* decode(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<Piece> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const tail = new Utf8Tail();
  let read = 0;
  let first = true;
  for await (const piece of bytes) {
    // The text of this piece starts with the bytes of a character begun in the last one.
    let offset = read - tail.length;
    const carried = tail.bytes();
    read += piece.length;
    let text: string;
    try {
      text = decoder.decode(piece, { stream: true });
    } catch {
      // The text before the byte the decoder refused is still the input's: its items count.
      const at = firstInvalid(carried, piece);
      const valid = at < 0 ? carried.subarray(0, carried.length + at) : Buffer.concat([carried, piece.subarray(0, at)]);
      const before = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(valid);
      const byte = at < 0 ? carried[carried.length + at]! : (piece[at] ?? 0);
      yield { ...withoutBom(before, offset, first), bytes: read, invalid: { offset: offset + carried.length + at, byte } };
      return;
    }
    tail.after(piece);
    if (text === '') continue;
    ({ text, offset } = withoutBom(text, offset, first));
    first = false;
    if (text !== '') yield { text, offset, bytes: read };
  }
  try {
    decoder.decode();
  } catch {
    // The input ends inside a character: its first byte is the one that is not UTF-8.
    yield { text: '', offset: read - tail.length, bytes: read, invalid: { offset: read - tail.length, byte: tail.bytes()[0]! } };
  }
}

/** The first text of the input without its byte order mark (three bytes), if it has one. */
function withoutBom(text: string, offset: number, first: boolean): { text: string; offset: number } {
  return first && text.charCodeAt(0) === 0xfeff ? { text: text.slice(1), offset: offset + 3 } : { text, offset };
}
