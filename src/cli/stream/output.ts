import { jsonText } from '../../text/quote';
import { InputError, reason } from '../usage';
import { describeItem, type ItemPosition } from './split';

/** What `qsfilter filter` writes: one JSON array (the default), one item a line (`--ndjson`), or the number of items (`--count`). */
export type OutputFormat = 'array' | 'ndjson' | 'count';

/** Where the output goes: stdout, as far as the writer needs it. */
export interface Sink {
  write(text: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

/**
 * Text gathered before one write: few enough writes to cost little, and short-lived: text
 * held across V8's scavenges makes its young generation grow (see PIECE_BYTES in read.ts).
 */
const FLUSH_CHARS = 1 << 13;

/**
 * Writes the items as they come, never the whole output at once: the JSON array is
 * opened before the first item and closed after the last, so a gigabyte of matches
 * costs one item's text, not a gigabyte's. Every item is written as `jsonText` writes
 * it (controls and bidi overrides escaped), and the array's text is exactly
 * `jsonText(items, indent)`'s.
 */
export class ItemWriter {
  private buffer = '';
  private written = 0;
  private blocked = false;

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

  /** Writes one item; its position names it if it cannot be written. */
  add(item: unknown, position: ItemPosition): void {
    this.written++;
    if (this.format === 'count') return;
    const text = this.text(item, position);
    if (this.format === 'ndjson') this.buffer += `${text}\n`;
    else if (this.pretty) this.buffer += `${this.written === 1 ? '[\n  ' : ',\n  '}${text.replaceAll('\n', '\n  ')}`;
    else this.buffer += `${this.written === 1 ? '[' : ','}${text}`;
    if (this.buffer.length >= FLUSH_CHARS) this.flush();
  }

  /** Resolves once stdout has taken what it was given: a slow reader slows the reading, memory does not grow. */
  async drained(): Promise<void> {
    if (!this.blocked) return;
    await new Promise<void>((resolve) => this.sink.once('drain', resolve));
    this.blocked = false;
  }

  /** Writes the end: the array's close (or `[]`), or the count. */
  async end(): Promise<void> {
    if (this.format === 'count') this.buffer += `${this.written}\n`;
    else if (this.format === 'array') this.buffer += this.written === 0 ? '[]\n' : this.pretty ? '\n]\n' : ']\n';
    this.flush();
    await this.drained();
  }

  private flush(): void {
    if (this.buffer === '') return;
    this.beforeWrite();
    if (!this.sink.write(this.buffer)) this.blocked = true;
    this.buffer = '';
  }

  /**
   * One item as JSON. Its depth is capped on input, but an item near the caps, indented,
   * can still pass the longest string: the input's doing, an input error that names it.
   */
  private text(item: unknown, position: ItemPosition): string {
    try {
      return jsonText(item, this.pretty && this.format === 'array' ? 2 : undefined);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      throw new InputError(`${describeItem(position)} matches but cannot be written as JSON (${reason(error)})`);
    }
  }
}
