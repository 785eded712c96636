import type { ItemPosition } from './split';

/** Where the matches go: what `finish` hands on, in output order. */
export interface Collector {
  /** Takes one match: its value, its JSON text as it came, and where it stood. */
  add(value: unknown, text: string, position: ItemPosition): void;
  /** Whether no later match can change the output: reading may stop. */
  readonly full: boolean;
  /** After the input (or an input error): writes what is held, in order. */
  finish(out: Output): Promise<void>;
  /** Lets go of what is held (temporary files included): after `finish`, or instead of it. */
  close(): void;
}

/** Where a collector writes: the item writer, as far as it needs it. */
export interface Output {
  add(json: string): void;
  /** Whether the output has more than it takes at once: time to wait for `drained`. */
  readonly blocked: boolean;
  /** Resolves once the output has taken what it was given. */
  drained(): Promise<void>;
}

/** The page a query asks for: skip `offset` matches, then take at most `limit` (Infinity: all). */
export interface PageBounds {
  readonly offset: number;
  readonly limit: number;
}

/**
 * In input order, the page is known as the matches come: the first `offset` are passed
 * over, the next `limit` go straight out, and after those the input need not be read
 * any further.
 */
export class InputOrder implements Collector {
  private seen = 0;

  constructor(
    private readonly page: PageBounds,
    private readonly out: Output,
  ) {}

  get full(): boolean {
    return this.seen >= this.page.offset + this.page.limit;
  }

  add(_value: unknown, text: string): void {
    const index = this.seen++;
    // Matches later in the same piece of input come after the page is full: not written.
    if (index >= this.page.offset && index < this.page.offset + this.page.limit) this.out.add(text);
  }

  async finish(): Promise<void> {}

  close(): void {}
}
