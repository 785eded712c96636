import { open, type FileHandle } from 'node:fs/promises';
import { InputError, reason, UsageError } from '../usage';

/** The input of `qsfilter filter`, opened: its text piece by piece, and what a message or a progress bar says of it. */
export interface Input {
  /** `standard input`, or the file name as given: for messages. */
  readonly source: string;
  /** The size in bytes of a regular file; absent for standard input, a pipe or a device. */
  readonly size?: number | undefined;
  /** The input's text, strictly UTF-8 (a byte order mark dropped), in pieces; `bytes` is how many were read so far. */
  readonly texts: AsyncIterable<{ readonly text: string; readonly bytes: number }>;
}

/**
 * Bytes read at once from a file. Small pieces keep memory flat: whatever is alive when
 * V8 scavenges (the piece, the output not yet written) counts towards growing its young
 * generation, and over gigabytes that added up to 180 MB resident with 64 KiB pieces
 * (120 MB with 32 KiB, same as 16 KiB). A 1 MiB piece is worse: it is allocated in the
 * large-object space and lives until a full collection. 32 KiB costs about 15% more CPU
 * than 64 KiB in reads and decodes.
 */
const PIECE_BYTES = 32 * 1024;

/**
 * Opens the input: the file, or standard input when there is none or it is `-`. A file
 * that cannot be opened is a usage error; standard input left on a terminal is one too
 * (waiting for JSON typed by hand is never what was meant).
 */
export async function openInput(file: string | undefined): Promise<Input> {
  if (file === undefined || file === '-') {
    if (process.stdin.isTTY === true) throw new UsageError('no input: give a file, or pipe JSON or NDJSON to standard input');
    return { source: 'standard input', texts: decode(process.stdin as AsyncIterable<Uint8Array>, 'standard input') };
  }
  let handle: FileHandle;
  let size: number | undefined;
  try {
    handle = await open(file, 'r');
    const stat = await handle.stat();
    if (stat.isDirectory()) {
      await handle.close();
      throw new Error('it is a directory');
    }
    if (stat.isFile()) size = stat.size;
  } catch (error) {
    throw new UsageError(`cannot read the input file ${JSON.stringify(file)}: ${reason(error)}`);
  }
  return { source: file, size, texts: decode(pieces(handle), file) };
}

/** A file's bytes in pieces, read into one buffer again and again: each piece is decoded before the next read. */
async function* pieces(handle: FileHandle): AsyncGenerator<Uint8Array> {
  const buffer = Buffer.allocUnsafe(PIECE_BYTES);
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, PIECE_BYTES, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/**
 * Bytes to text, strictly: a byte that is not UTF-8 is refused (naming where), not
 * turned into U+FFFD and written out changed; a character split between two pieces is
 * joined; a byte order mark at the start is dropped.
 */
async function* decode(bytes: AsyncIterable<Uint8Array>, source: string): AsyncGenerator<{ text: string; bytes: number }> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let read = 0;
  for await (const piece of bytes) {
    const start = read;
    read += piece.length;
    yield { text: utf8(() => decoder.decode(piece, { stream: true }), source, start, read), bytes: read };
  }
  const rest = utf8(() => decoder.decode(), source, read, read);
  if (rest !== '') yield { text: rest, bytes: read };
}

function utf8(decode: () => string, source: string, start: number, end: number): string {
  try {
    return decode();
  } catch {
    throw new InputError(`the input (${source}) is not UTF-8 text (a byte from offset ${start} to ${end} is not)`);
  }
}
