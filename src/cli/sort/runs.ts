import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import type { ItemOrder } from '../../eval/sort';
import { reason, UsageError } from '../usage';

/**
 * Sorted runs on disk: the records of the command's sort, each an item's sort keys, its
 * number in the input (which breaks ties, so the order is stable), and its JSON text as
 * it came. A record is the byte lengths of its head and of its text (4 bytes each), the
 * head, and the text in UTF-8. The head is binary: a tag byte per key (missing, a number
 * in the 8 bytes of a double, or a string: 4 bytes of length and its UTF-8), then the
 * item's number as a double; all little-endian. Numbers are never written as text: V8
 * keeps the last numbers turned into strings in a cache, and those strings then outlive
 * its young collections, which makes it grow its young generation.
 */

/** One of an item's sort keys, as `itemOrder` reads them: a number, a text, or `undefined` (missing). */
export type Key = ReturnType<ItemOrder['keys']>[number];

/** One sorted run on disk. */
export interface Run {
  readonly path: string;
  readonly records: number;
}

/** A record read back: its keys and number, and where its text's bytes stand (until the next record is read). */
export interface RunRecord {
  readonly keys: Key[];
  index: number;
  buffer: Buffer;
  start: number;
  end: number;
}

const LENGTHS = 8;
const MISSING = 0;
const NUMBER = 1;
const STRING = 2;

/** The bytes of a record's head for these keys. */
export function headSize(keys: readonly Key[]): number {
  let size = 8;
  for (const key of keys) size += key === undefined ? 1 : typeof key === 'number' ? 9 : 5 + Buffer.byteLength(key);
  return size;
}

/** Writes a record's head at `at`: its `headSize(keys)` bytes. */
export function writeHead(keys: readonly Key[], index: number, buffer: Buffer, at: number): void {
  let i = at;
  for (const key of keys) {
    if (key === undefined) buffer[i++] = MISSING;
    else if (typeof key === 'number') {
      buffer[i] = NUMBER;
      buffer.writeDoubleLE(key, i + 1);
      i += 9;
    } else {
      buffer[i] = STRING;
      const length = buffer.write(key, i + 5);
      buffer.writeUInt32LE(length, i + 1);
      i += 5 + length;
    }
  }
  buffer.writeDoubleLE(index, i);
}

/** Reads a record's head from `at` to `end` into `record` (its keys array is reused). */
export function readHead(buffer: Buffer, at: number, end: number, record: RunRecord): void {
  let i = at;
  let k = 0;
  while (i < end - 8) {
    const tag = buffer[i]!;
    if (tag === MISSING) {
      record.keys[k++] = undefined;
      i++;
    } else if (tag === NUMBER) {
      record.keys[k++] = buffer.readDoubleLE(i + 1);
      i += 9;
    } else {
      const length = buffer.readUInt32LE(i + 1);
      record.keys[k++] = buffer.toString('utf8', i + 5, i + 5 + length);
      i += 5 + length;
    }
  }
  record.keys.length = k;
  record.index = buffer.readDoubleLE(i);
}

/** What a failed read or write of a temporary file says. */
function trouble(path: string, error: unknown): UsageError {
  return new UsageError(`cannot use the sort's temporary file ${JSON.stringify(path)}: ${reason(error)}; give --temp-dir a directory with room for the matches`, { synopsis: false });
}

/** Writes one run, record by record, through a buffer (the caller's: one for every run, not one each). */
export class RunWriter {
  private readonly fd: number;
  private used = 0;
  private records = 0;

  constructor(readonly path: string, private readonly buffer: Buffer) {
    try {
      this.fd = openSync(path, 'w');
    } catch (error) {
      throw trouble(path, error);
    }
  }

  /** Appends a record: its keys and number, and its text's bytes, `texts[start, end)`. */
  add(keys: readonly Key[], index: number, texts: Buffer, start: number, end: number): void {
    const headBytes = headSize(keys);
    const size = LENGTHS + headBytes + end - start;
    if (this.used + size > this.buffer.length) this.flush();
    this.records++;
    // A record larger than the buffer: its lengths and head in a buffer of their own, its text straight from where it is.
    const into = size > this.buffer.length ? Buffer.allocUnsafe(LENGTHS + headBytes) : this.buffer;
    const at = into === this.buffer ? this.used : 0;
    into.writeUInt32LE(headBytes, at);
    into.writeUInt32LE(end - start, at + 4);
    writeHead(keys, index, into, at + LENGTHS);
    if (into !== this.buffer) {
      this.write(into, 0, into.length);
      this.write(texts, start, end);
      return;
    }
    texts.copy(this.buffer, at + LENGTHS + headBytes, start, end);
    this.used += size;
  }

  /** Writes what is left and closes the file. */
  close(): Run {
    this.flush();
    closeSync(this.fd);
    return { path: this.path, records: this.records };
  }

  private flush(): void {
    this.write(this.buffer, 0, this.used);
    this.used = 0;
  }

  private write(bytes: Buffer, start: number, end: number): void {
    try {
      for (let at = start; at < end;) at += writeSync(this.fd, bytes, at, end - at);
    } catch (error) {
      closeSync(this.fd);
      throw trouble(this.path, error);
    }
  }
}

/** Reads one run back, record by record, through a buffer; a record larger than it is read into one of its own. */
export class RunReader {
  private readonly fd: number;
  private buffer: Buffer;
  private start = 0;
  private end = 0;
  private left: number;
  /** The record read last (its bytes are overwritten by the next read). */
  readonly record: RunRecord = { keys: [], index: 0, buffer: Buffer.alloc(0), start: 0, end: 0 };

  constructor(private readonly run: Run, private readonly bufferBytes: number) {
    this.buffer = Buffer.allocUnsafe(bufferBytes);
    this.left = run.records;
    try {
      this.fd = openSync(run.path, 'r');
    } catch (error) {
      throw trouble(run.path, error);
    }
  }

  /** How many records the run holds. */
  get size(): number {
    return this.run.records;
  }

  /** Reads the next record into `record`: false at the end of the run (the file is then closed and removed). */
  next(): boolean {
    if (this.left === 0) {
      this.close();
      return false;
    }
    this.left--;
    this.fill(LENGTHS);
    const headBytes = this.buffer.readUInt32LE(this.start);
    const textBytes = this.buffer.readUInt32LE(this.start + 4);
    this.start += LENGTHS;
    this.fill(headBytes + textBytes);
    readHead(this.buffer, this.start, this.start + headBytes, this.record);
    this.start += headBytes;
    this.record.buffer = this.buffer;
    this.record.start = this.start;
    this.record.end = this.start + textBytes;
    this.start += textBytes;
    return true;
  }

  /** Closes and removes the run's file (again: nothing). */
  close(): void {
    if (this.left < 0) return;
    this.left = -1;
    closeSync(this.fd);
    rmSync(this.run.path, { force: true });
  }

  /** Makes the next `count` bytes of the file stand in the buffer from `start`: in a buffer of their own when they do not fit the usual one. */
  private fill(count: number): void {
    if (this.end - this.start >= count) return;
    const kept = this.end - this.start;
    const size = Math.max(count, this.bufferBytes);
    if (size !== this.buffer.length) {
      const next = Buffer.allocUnsafe(size);
      this.buffer.copy(next, 0, this.start, this.end);
      this.buffer = next;
    } else this.buffer.copy(this.buffer, 0, this.start, this.end);
    this.start = 0;
    this.end = kept;
    while (this.end < count) {
      let read: number;
      try {
        read = readSync(this.fd, this.buffer, this.end, this.buffer.length - this.end, null);
      } catch (error) {
        throw trouble(this.run.path, error);
      }
      if (read === 0) throw trouble(this.run.path, new Error('it ends before its last record'));
      this.end += read;
    }
  }
}
