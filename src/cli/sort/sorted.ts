import type { ItemOrder } from '../../eval/sort';
import type { Collector, Output, PageBounds } from '../stream/page';
import type { ItemPosition } from '../stream/split';
import { Held } from './held';
import { RunReader, RunWriter, type Key, type Run, type RunRecord } from './runs';
import type { TempDir } from './temp';

/**
 * The matches of a query with `orderBy`, in `sortItems`' order, at any size: an external
 * merge sort. Matches are held in memory as their text (UTF-8, in one buffer) and sort
 * keys, up to `memory` bytes; when that is full they are sorted (`itemOrder`'s comparison,
 * then the input order) and written to a temporary file as a sorted run, or, with a
 * page, cut back to its `offset + limit` best, which may stay in memory. At the end the
 * runs and what is in memory are merged, `fanIn` at a time (in more passes when there
 * are more runs), and the page is written. Ties are broken by the item's number in the
 * input everywhere, so the order is stable and exactly `sortItems(all matches)`'s.
 *
 * With a page, a match that does not beat the page's worst so far (the `offset + limit`-th
 * best of some set of earlier matches) never makes it and is dropped at once, and each
 * run keeps only its `offset + limit` first.
 */

/** What the sort is given besides the page and the order. */
export interface SortSettings {
  /** The most bytes of matches (text and keys) held in memory before a run is written. */
  readonly memory: number;
  /** Where the runs are written. */
  readonly temp: TempDir;
  /** The most runs merged at once (by default as many as `memory` has buffers for, 2 to 64). */
  readonly fanIn?: number | undefined;
  /** Called as the merge goes: matches merged of those in this pass, how many runs, the pass and how many passes. */
  readonly onMerge?: ((done: number, total: number, runs: number, pass: number, passes: number) => void) | undefined;
}

/**
 * The default of `memory`. With Node itself (about 45 MB), its heap while reading (its
 * young generation grows to 16 or 32 MB over gigabytes) and the merge's buffers, the
 * command stays under 150 MB resident: 130 MB on a 1 GB sort, 150 MB with 32 MiB here.
 */
export const SORT_MEMORY = 16 * 1024 * 1024;

/** What a held match costs in memory beyond its text and keys: its number and place in three typed arrays. */
const ENTRY_BYTES = 24;

/** Records merged between two turns of the event loop (SIGINT, stdout's drain). */
const TURN_RECORDS = 1024;

/** The next record of a sorted source (a run on disk, or what is in memory), and how to get the one after. */
interface Source {
  readonly record: RunRecord;
  /** How many records it holds. */
  readonly size: number;
  next(): boolean;
  close(): void;
}

/** The matches of a sorted query, held, spilled and merged (see the file's comment). */
export class SortedMatches implements Collector {
  readonly full = false;
  private readonly held: Held;
  private weight = 0;
  /** Once known: a match that does not beat these keys (a tie loses: it came later) is not in the page. */
  private worst: Key[] | undefined;
  private runs: Run[] = [];
  private readonly keep: number;
  private readonly fanIn: number;
  private readonly readBytes: number;
  /** The buffer every run is written through. */
  private readonly writing: Buffer;

  constructor(
    private readonly page: PageBounds,
    private readonly order: ItemOrder,
    private readonly settings: SortSettings,
  ) {
    this.keep = page.offset + page.limit;
    this.held = new Held(Buffer.allocUnsafe(settings.memory));
    this.readBytes = Math.min(64 * 1024, Math.max(4096, Math.floor(settings.memory / 128)));
    this.writing = Buffer.allocUnsafe(Math.min(256 * 1024, Math.max(4096, Math.floor(settings.memory / 8))));
    this.fanIn = settings.fanIn ?? Math.min(64, Math.max(2, Math.floor(settings.memory / (2 * this.readBytes))));
  }

  add(value: unknown, text: string, position: ItemPosition): void {
    const keys = this.order.keys(value);
    if (this.worst !== undefined && this.order.compare(keys, this.worst) >= 0) return;
    const extra = ENTRY_BYTES + keyBytes(keys);
    // A text of n characters is n to 3n bytes of UTF-8: counted exactly only near the limit.
    let bytes = 3 * text.length;
    if (this.weight + bytes + extra > this.settings.memory) {
      bytes = Buffer.byteLength(text);
      if (this.weight + bytes + extra > this.settings.memory) this.makeRoom();
      if (this.weight + bytes + extra > this.settings.memory) {
        // Too large to share the memory with the matches kept: a run of its own.
        const writer = new RunWriter(this.settings.temp.file(), this.writing);
        const own = Buffer.from(text);
        writer.add(keys, position.item, own, 0, own.length);
        this.runs.push(writer.close());
        return;
      }
    }
    const before = this.held.used;
    this.held.add(keys, position.item, text);
    this.weight += this.held.used - before + extra;
  }

  async finish(out: Output): Promise<void> {
    const memory = new MemorySource(this.held, this.best());
    const write = (record: RunRecord): void => out.add(record.buffer.toString('utf8', record.start, record.end));
    // Each pass before the last merges `fanIn` runs into one, until the rest and memory can be merged at once.
    const passes = 1 + Math.max(0, Math.ceil((this.runs.length + 1 - this.fanIn) / (this.fanIn - 1)));
    for (let pass = 1; this.runs.length + 1 > this.fanIn; pass++) {
      const group = this.runs.splice(0, this.fanIn);
      const writer = new RunWriter(this.settings.temp.file(), this.writing);
      await this.merge(group.map((run) => new RunReader(run, this.readBytes)), (record) => writer.add(record.keys, record.index, record.buffer, record.start, record.end), undefined, pass, passes);
      this.runs.push(writer.close());
    }
    const sources = [...this.runs.map((run) => new RunReader(run, this.readBytes)), memory];
    this.runs = [];
    await this.merge(sources, write, out, passes, passes);
  }

  close(): void {
    this.held.clear();
    this.runs = [];
    this.settings.temp.remove();
  }

  /** The places of the matches in memory, sorted (`sortItems`' order: keys, then input order) and cut to the page's best. */
  private best(): Uint32Array {
    const sorted = this.held.sorted(this.order);
    return sorted.length > this.keep ? sorted.subarray(0, this.keep) : sorted;
  }

  /**
   * Frees memory: the matches held are sorted and cut to the page's best; when those take
   * no more than half the memory they stay (moved to its start), else they are written
   * as a run.
   */
  private makeRoom(): void {
    const best = this.best();
    const keys: Key[] = [];
    // The page's worst so far: among these alone, nothing past it can be in the page.
    if (best.length === this.keep) this.tighten(this.held.keys(best[best.length - 1]!, []));
    let weight = 0;
    for (const i of best) {
      const [start, end] = this.held.textOf(i);
      weight += end - start + ENTRY_BYTES + keyBytes(this.held.keys(i, keys));
    }
    if (weight <= this.settings.memory / 2) {
      this.held.keepOnly(best);
      this.weight = weight;
      return;
    }
    const writer = new RunWriter(this.settings.temp.file(), this.writing);
    for (const i of best) {
      const [start, end] = this.held.textOf(i);
      writer.add(this.held.keys(i, keys), this.held.numberOf(i), this.held.buffer, start, end);
    }
    this.runs.push(writer.close());
    this.held.clear();
    this.weight = 0;
  }

  private tighten(keys: Key[]): void {
    if (this.worst === undefined || this.order.compare(keys, this.worst) < 0) this.worst = keys;
  }

  /**
   * Merges sorted sources into `emit`, at most `offset + limit` records, passing over the
   * first `offset` when `out` is the output (the last pass). The event loop gets a turn
   * every few thousand records, and the output is let drain.
   */
  private async merge(sources: Source[], emit: (record: RunRecord) => void, out: Output | undefined, pass = 1, passes = 1): Promise<void> {
    const heap = new SourceHeap(this.order);
    let total = 0;
    for (const source of sources) {
      if (source.next()) heap.push(source);
      total += source.size;
    }
    total = Math.min(total, this.keep);
    const skip = out === undefined ? 0 : this.page.offset;
    try {
      for (let done = 0; done < this.keep && heap.size > 0; done++) {
        if (done % TURN_RECORDS === 0) {
          // Matches that never left memory are not merged, only written: no progress to show.
          if (sources.length > 1) this.settings.onMerge?.(done, total, sources.length, pass, passes);
          await new Promise((resolve) => setImmediate(resolve));
        }
        const source = heap.top();
        if (done >= skip) {
          emit(source.record);
          // Text waiting for a slow reader outlives V8's young collections: wait with it.
          if (out?.blocked === true) await out.drained();
        }
        if (source.next()) heap.fix();
        else heap.pop();
      }
    } finally {
      for (const source of sources) source.close();
    }
  }
}

function keyBytes(keys: readonly Key[]): number {
  let bytes = 0;
  for (const key of keys) if (typeof key === 'string') bytes += 16 + 2 * key.length;
  return bytes;
}

/** The matches held in memory, in their sorted places, as a source of the merge. */
class MemorySource implements Source {
  readonly record: RunRecord;
  private at = 0;

  constructor(
    private readonly held: Held,
    private readonly places: Uint32Array,
  ) {
    this.record = { keys: [], index: 0, buffer: held.buffer, start: 0, end: 0 };
  }

  get size(): number {
    return this.places.length;
  }

  next(): boolean {
    if (this.at === this.places.length) return false;
    const i = this.places[this.at++]!;
    this.held.keys(i, this.record.keys);
    this.record.index = this.held.numberOf(i);
    [this.record.start, this.record.end] = this.held.textOf(i);
    return true;
  }

  close(): void {}
}

/** A binary heap of sources, by their current records' order (keys, then the input order). */
class SourceHeap {
  private readonly items: Source[] = [];

  constructor(private readonly order: ItemOrder) {}

  get size(): number {
    return this.items.length;
  }

  top(): Source {
    return this.items[0]!;
  }

  push(source: Source): void {
    const items = this.items;
    items.push(source);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.before(items[parent]!, items[i]!)) break;
      [items[parent], items[i]] = [items[i]!, items[parent]!];
      i = parent;
    }
  }

  /** The top's record changed: moves it down to its place. */
  fix(): void {
    const items = this.items;
    const n = items.length;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) return;
      const right = left + 1;
      const child = right < n && this.before(items[right]!, items[left]!) ? right : left;
      if (this.before(items[i]!, items[child]!)) return;
      [items[i], items[child]] = [items[child]!, items[i]!];
      i = child;
    }
  }

  /** The top ran out: takes it away. */
  pop(): void {
    const last = this.items.pop()!;
    if (this.items.length === 0) return;
    this.items[0] = last;
    this.fix();
  }

  private before(a: Source, b: Source): boolean {
    return (this.order.compare(a.record.keys, b.record.keys) || a.record.index - b.record.index) < 0;
  }
}
