import { escapedJson } from '../../text/quote';
import { layOut, spansLines } from './layout';

/** What `qsfilter filter` writes: one JSON array (the default), one item a line (`--ndjson`), or the number of items (`--count`). */
export type OutputFormat = 'array' | 'ndjson' | 'count';

/** Where the output goes: stdout, as far as the writer needs it. */
export interface Sink {
  /** Takes the bytes, and calls `done` once it has let go of them. */
  write(chunk: Uint8Array, done: () => void): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

/**
 * Output gathered before one write, as bytes: few enough writes to cost little. Bytes, not
 * text: an item's text is a slice of the input's piece it came in, and text held until
 * the write would hold those pieces, which then outlive V8's young collections and make
 * its young generation grow (to 32 MB: 130 MB resident instead of 75 on 200 MB). The
 * buffers are used again once written: a new one for each write was 60 MB more resident
 * on a 1 GB sort, garbage outside V8's heap that it collects late.
 */
const FLUSH_BYTES = 1 << 14;

/**
 * Writes the items as they come, never the whole output at once: the JSON array is
 * opened before the first item and closed after the last, so a gigabyte of matches
 * costs one item's text, not a gigabyte's. An item is written as the text it came as
 * (layout.ts: `--pretty` indents it, and an item that spans lines is put on one), with
 * the characters that act on a terminal escaped (`escapedJson`), which parses to the
 * same value.
 */
export class ItemWriter {
  private buffer: Buffer = Buffer.allocUnsafe(FLUSH_BYTES);
  private used = 0;
  /** Buffers written out, free again. */
  private readonly spare: Buffer[] = [];
  private written = 0;
  private waiting = false;
  private readonly append = (piece: string): void => {
    // A piece that may not fit (3 bytes a UTF-16 unit at most) goes after what is gathered, in a buffer of its own.
    if (this.used + 3 * piece.length > this.buffer.length) {
      this.flush();
      if (3 * piece.length > this.buffer.length) {
        this.send(Buffer.from(piece), () => {});
        return;
      }
    }
    this.used += this.buffer.write(piece, this.used);
  };

  /**
   * @param beforeWrite called before each write: the progress bar clears its line there when stdout shares its terminal.
   */
  constructor(
    private readonly format: OutputFormat,
    private readonly pretty: boolean,
    private readonly sink: Sink,
    private readonly beforeWrite: () => void = () => {},
  ) {}

  /** The number of items written (or counted) so far. */
  get count(): number {
    return this.written;
  }

  /** Writes one item, given as its JSON text. */
  add(json: string): void {
    this.written++;
    if (this.format === 'count') return;
    const text = escapedJson(json);
    if (this.format === 'array') this.append(this.pretty ? (this.written === 1 ? '[\n  ' : ',\n  ') : this.written === 1 ? '[' : ',');
    if (this.pretty) layOut(text, true, 1, this.append);
    else if (spansLines(text)) layOut(text, false, 0, this.append);
    else this.append(text);
    if (this.format === 'ndjson') this.append('\n');
  }

  /** Whether stdout has more than it takes at once: time to wait for `drained`. */
  get blocked(): boolean {
    return this.waiting;
  }

  /** Resolves once stdout has taken what it was given: a slow reader slows the reading, memory does not grow. */
  async drained(): Promise<void> {
    if (!this.waiting) return;
    await new Promise<void>((resolve) => this.sink.once('drain', resolve));
    this.waiting = false;
  }

  /**
   * Writes the end: the array's close (or `[]`), or the count. After an input error
   * (`complete` false) the array is left open, so that what was written never parses as
   * a whole answer (its line ended); a count is written all the same.
   */
  async end(complete = true): Promise<void> {
    if (this.format === 'count') this.append(`${this.written}\n`);
    else if (this.format === 'array' && complete) this.append(this.written === 0 ? '[]\n' : this.pretty ? '\n]\n' : ']\n');
    // Left open, it still ends its line, so that a message on the terminal starts on its own.
    else if (this.format === 'array' && this.written > 0) this.append('\n');
    this.flush();
    await this.drained();
  }

  private flush(): void {
    if (this.used === 0) return;
    // The sink keeps the bytes until they are written: the next ones go to another buffer.
    const full = this.buffer;
    const bytes = full.subarray(0, this.used);
    this.buffer = this.spare.pop() ?? Buffer.allocUnsafe(full.length);
    this.used = 0;
    this.send(bytes, () => this.spare.push(full));
  }

  private send(bytes: Uint8Array, done: () => void): void {
    this.beforeWrite();
    if (!this.sink.write(bytes, done)) this.waiting = true;
  }
}
