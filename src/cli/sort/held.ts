import type { ItemOrder } from '../../eval/sort';
import type { Key } from './runs';

/**
 * The matches a sort holds in memory: their texts in one buffer (UTF-8), and for each its
 * number in the input, where its text stands, and its sort keys, in columns: typed arrays
 * for numbers (where a missing key is NaN: a key is never NaN), plain arrays for other
 * keys. Not an object per match: objects that live across V8's young collections make it
 * grow its young generation (to 64 MB on Node 24), which cost 100 MB more resident on a
 * 1 GB sort than the matches themselves.
 */
export class Held {
  /** How many matches are held. */
  count = 0;
  /** Bytes of text in the buffer. */
  used = 0;
  private index = new Float64Array(64);
  private start = new Float64Array(64);
  private end = new Float64Array(64);
  private readonly columns: Column[] = [];

  constructor(readonly buffer: Buffer) {}

  /** Adds a match: its keys, its number in the input, and its text, which the caller made room for. */
  add(keys: readonly Key[], index: number, text: string): void {
    const i = this.count++;
    if (i === this.index.length) this.grow();
    this.index[i] = index;
    this.start[i] = this.used;
    this.used += this.buffer.write(text, this.used);
    this.end[i] = this.used;
    while (this.columns.length < keys.length) this.columns.push(new Column());
    for (let k = 0; k < keys.length; k++) this.columns[k]!.set(i, keys[k]);
  }

  /** The keys of match `i`, written into `into`. */
  keys(i: number, into: Key[]): Key[] {
    for (let k = 0; k < this.columns.length; k++) into[k] = this.columns[k]!.get(i);
    return into;
  }

  /** The number in the input of match `i`. */
  numberOf(i: number): number {
    return this.index[i]!;
  }

  /** Where the text of match `i` stands in the buffer: `[start, end)`. */
  textOf(i: number): readonly [number, number] {
    return [this.start[i]!, this.end[i]!];
  }

  /** The matches' places, in `order` and then input order (the order of `sortItems`). */
  sorted(order: ItemOrder): Uint32Array {
    const a: Key[] = [];
    const b: Key[] = [];
    const places = new Uint32Array(this.count);
    for (let i = 0; i < places.length; i++) places[i] = i;
    return sortPlaces(places, (x, y) => order.compare(this.keys(x, a), this.keys(y, b)) || this.index[x]! - this.index[y]!);
  }

  /**
   * Keeps only the matches at `kept` (places, in the order they are to have), their texts
   * moved to the buffer's start: in the order they stand in it, so that each moves down
   * and never over a text not yet moved.
   */
  keepOnly(kept: Uint32Array): void {
    const byStart = sortPlaces(Uint32Array.from(kept), (x, y) => this.start[x]! - this.start[y]!);
    const moved = new Float64Array(this.index.length);
    let at = 0;
    for (const i of byStart) {
      this.buffer.copy(this.buffer, at, this.start[i]!, this.end[i]!);
      moved[i] = at;
      at += this.end[i]! - this.start[i]!;
    }
    const index = new Float64Array(this.index.length);
    const start = new Float64Array(this.index.length);
    const end = new Float64Array(this.index.length);
    kept.forEach((i, j) => {
      index[j] = this.index[i]!;
      start[j] = moved[i]!;
      end[j] = moved[i]! + this.end[i]! - this.start[i]!;
    });
    for (const column of this.columns) column.reorder(kept);
    this.index = index;
    this.start = start;
    this.end = end;
    this.count = kept.length;
    this.used = at;
  }

  /** Lets go of every match. */
  clear(): void {
    this.count = 0;
    this.used = 0;
    for (const column of this.columns) column.clear();
  }

  private grow(): void {
    const size = this.index.length * 2;
    this.index = larger(this.index, size);
    this.start = larger(this.start, size);
    this.end = larger(this.end, size);
  }
}

/** One sort key of every match held: numbers in a typed array while they are numbers, else a plain array. */
class Column {
  private numbers = new Float64Array(64);
  private others: Key[] | undefined;

  set(i: number, key: Key): void {
    if (this.others !== undefined) {
      this.others[i] = key;
      return;
    }
    if (key !== undefined && (typeof key !== 'number' || Number.isNaN(key))) {
      // A key that is not a number: this column becomes a plain array, from here on.
      this.others = Array.from(this.numbers.subarray(0, i), (n) => (Number.isNaN(n) ? undefined : n));
      this.others[i] = key;
      return;
    }
    if (i >= this.numbers.length) this.numbers = larger(this.numbers, Math.max(2 * this.numbers.length, i + 1));
    this.numbers[i] = key ?? Number.NaN;
  }

  get(i: number): Key {
    if (this.others !== undefined) return this.others[i];
    const n = this.numbers[i]!;
    return Number.isNaN(n) ? undefined : n;
  }

  /** Keeps the keys at `kept`, in that order. */
  reorder(kept: Uint32Array): void {
    if (this.others !== undefined) {
      const others = this.others;
      this.others = Array.from(kept, (i) => others[i]);
      return;
    }
    const numbers = new Float64Array(this.numbers.length);
    kept.forEach((i, j) => (numbers[j] = this.numbers[i]!));
    this.numbers = numbers;
  }

  clear(): void {
    if (this.others !== undefined) this.others = [];
  }
}

/**
 * Sorts places by `compare`, stably: a merge sort from runs of one up, between two typed
 * arrays. `TypedArray#sort` with a comparison copies the array into one of V8's heap for
 * the sort, and a young collection during it (the comparison allocates numbers) finds it
 * alive: over a gigabyte, enough to grow the young generation to its largest.
 */
function sortPlaces(places: Uint32Array, compare: (x: number, y: number) => number): Uint32Array {
  let from: Uint32Array = places;
  let to: Uint32Array = new Uint32Array(places.length);
  const n = places.length;
  for (let width = 1; width < n; width *= 2) {
    for (let left = 0; left < n; left += 2 * width) {
      const middle = Math.min(left + width, n);
      const right = Math.min(left + 2 * width, n);
      let i = left;
      let j = middle;
      let k = left;
      while (i < middle && j < right) to[k++] = compare(from[j]!, from[i]!) < 0 ? from[j++]! : from[i++]!;
      while (i < middle) to[k++] = from[i++]!;
      while (j < right) to[k++] = from[j++]!;
    }
    [from, to] = [to, from];
  }
  return from;
}

function larger(array: Float64Array, size: number): Float64Array<ArrayBuffer> {
  const next = new Float64Array(size);
  next.set(array);
  return next;
}
