import type { Filter } from '../../filter/filter';
import { sortItems, type SortOptions } from '../../eval/sort';
import { InputError } from '../usage';
import type { ItemPosition } from './split';

/** Where the matches go, in input order; the page's items come out in output order. */
export interface Collector {
  /** Takes one match; `size` is the length of its JSON text. */
  add(item: unknown, position: ItemPosition, size: number): void;
  /** Whether no later match can change the output: reading may stop. */
  readonly full: boolean;
  /** The items to write, in order, with their positions; after the input's end. */
  finish(): Iterable<readonly [unknown, ItemPosition]>;
}

/** The page a query asks for: skip `offset` matches, then take at most `limit` (Infinity: all). */
export interface PageBounds {
  readonly offset: number;
  readonly limit: number;
}

/**
 * In input order, the page is known as the matches come: the first `offset` are passed
 * over, the next `limit` go straight out (`emit`), and after those the input need not
 * be read any further.
 */
export class InputOrder implements Collector {
  private seen = 0;

  constructor(
    private readonly page: PageBounds,
    private readonly emit: (item: unknown, position: ItemPosition) => void,
  ) {}

  get full(): boolean {
    return this.seen >= this.page.offset + this.page.limit;
  }

  add(item: unknown, position: ItemPosition): void {
    const index = this.seen++;
    // Matches later in the same piece of input come after the page is full: not written.
    if (index >= this.page.offset && index < this.page.offset + this.page.limit) this.emit(item, position);
  }

  finish(): Iterable<readonly [unknown, ItemPosition]> {
    return [];
  }
}

/** The most characters of JSON text the matches held for a sort may add up to: beyond, the command stops (exit 2) rather than run out of memory. */
export const MAX_HELD_CHARS = 64 * 1024 * 1024;

/**
 * The best `offset + limit` matches of a sort, never more than about twice as many:
 * matches gather in a buffer, and when it fills it is sorted with `sortItems` and cut
 * back to the best. `sortItems` is stable and the kept items stay ahead of later ones,
 * so ties keep their input order and the page is exactly `sortItems(all matches)`'s.
 * Sorting a buffer of 2k every k matches costs O(n log k) in all.
 */
export class SortedPage implements Collector {
  private buffer: unknown[] = [];
  private held = 0;
  /** Once the buffer has been cut back to a full page: its last item, which a match must beat to count. */
  private worst: unknown[] | undefined;
  /** Objects' positions and sizes, to name an item that cannot be written and to count what is held. */
  private readonly meta = new Map<unknown, { readonly position: ItemPosition; readonly size: number }>();
  private readonly keep: number;
  private readonly capacity: number;

  constructor(
    private readonly page: PageBounds,
    private readonly filter: Filter,
    private readonly options: SortOptions,
    private readonly maxHeld = MAX_HELD_CHARS,
  ) {
    this.keep = page.offset + page.limit;
    this.capacity = this.keep + Math.max(Math.min(this.keep, 1 << 20), 1024);
  }

  readonly full = false;

  add(item: unknown, position: ItemPosition, size: number): void {
    // A match that does not beat the page's worst never makes it: dropped at once, it dies young
    // (buffered, it would outlive a collection or two and fill the old generation with garbage).
    // A tie goes to the earlier item, as sortItems' stable order has it.
    if (this.worst !== undefined) {
      this.worst.push(item);
      const beats = sortItems(this.worst, this.filter, this.options)[0] === item;
      this.worst.pop();
      if (!beats) return;
    }
    this.buffer.push(item);
    // A number, string or null is never deep and has no identity to look it up by: it is weighed as it is written.
    if (typeof item === 'object' && item !== null) this.meta.set(item, { position, size });
    this.held += weight(item, this.meta);
    if (this.buffer.length >= this.capacity) this.trim();
    if (this.held > this.maxHeld) {
      throw new InputError(
        `the matches kept for orderBy pass ${this.maxHeld} characters of JSON at item ${position.item} (line ${position.line}): `
        + (this.page.limit === Infinity ? 'give limit (and offset) to keep only a page of them' : 'ask for a smaller offset or limit'),
      );
    }
  }

  finish(): Iterable<readonly [unknown, ItemPosition]> {
    this.trim();
    const { offset } = this.page;
    return this.buffer.slice(offset).map((item) => [item, this.meta.get(item)?.position ?? { item: 0, line: 0 }] as const);
  }

  private trim(): void {
    const sorted = sortItems(this.buffer, this.filter, this.options);
    this.buffer = sorted.length > this.keep ? sorted.slice(0, this.keep) : sorted;
    if (sorted.length < this.keep) return;
    this.worst = [sorted[this.keep - 1]];
    for (let i = this.keep; i < sorted.length; i++) {
      const item = sorted[i];
      this.held -= weight(item, this.meta);
      this.meta.delete(item);
    }
  }
}

function weight(item: unknown, meta: ReadonlyMap<unknown, { readonly size: number }>): number {
  return meta.get(item)?.size ?? JSON.stringify(item).length;
}
