import { omission, type Diagnostic } from '../diagnostics/diagnostic';
import type { Param, PassThroughParams, Path, Sort } from './ast';

/** One filter parameter, or the sort parameter, after parsing: its node, or what is wrong with it. */
export interface ParsedParam {
  readonly key: string;
  readonly value: string;
  /** Set when a filter parameter parsed without problems. */
  readonly param: Param | undefined;
  /** Set for the sort parameter: all its keys, or with `problems` the well-formed ones. */
  readonly sort: Sort | undefined;
  /** Set when it did not parse: at most the query's `maxDiagnostics` of them. */
  readonly problems: readonly Diagnostic[] | undefined;
  /**
   * The key's path, on a parameter with problems whose key is a path nonetheless: `check`
   * still checks it against the schema (`nosuchfield=%acme%` is an unknown field too).
   */
  readonly path: Path | undefined;
}

/** Every filter parameter of a query in order, parsed or not, and the pass-through ones. */
export type ParsedQuery =
  | { readonly filters: readonly ParsedParam[]; readonly params: PassThroughParams; readonly stopped?: undefined }
  | { readonly filters?: undefined; readonly params?: undefined; readonly stopped: Diagnostic };

/**
 * The problems of one parameter as they are found, at most `max` of them (the query's
 * `maxDiagnostics`: no more of one parameter can be listed), the others counted: a value
 * of thousands of bad escapes keeps no thousands of diagnostics alive. `list` ends with
 * the one that says how many were left out.
 */
export class Problems {
  private readonly found: Diagnostic[] = [];
  private omitted = 0;

  constructor(private readonly max: number) {}

  /** Whether one more problem would be counted rather than kept: its diagnostic need not be built. */
  get full(): boolean {
    return this.found.length >= this.max;
  }

  get empty(): boolean {
    return this.found.length === 0;
  }

  add(problem: Diagnostic): void {
    if (this.full) this.omitted++;
    else this.found.push(problem);
  }

  /** Counts a problem without its diagnostic, when `full`. */
  skip(): void {
    this.omitted++;
  }

  /** The problems, or `undefined` when there are none. */
  list(): Diagnostic[] | undefined {
    if (this.found.length === 0) return undefined;
    if (this.omitted > 0) this.found.push(omission(this.omitted, this.max));
    return this.found;
  }
}

/**
 * A parameter's record, every property its own: its optional properties are read
 * whether set or not, and one added to `Object.prototype` (`param`, `problems`) must not
 * read as set. (One shape for all records, too.)
 */
export function parsedParam(key: string, value: string, param: Param | undefined, sort: Sort | undefined, problems: readonly Diagnostic[] | undefined, path?: Path): ParsedParam {
  return { key, value, param, sort, problems, path };
}

/**
 * Items of a parse (recognition errors, tokens, nodes) by the part of the text they are
 * in: the last of `starts` (ascending offsets) at or before each item's offset. Each part
 * keeps its items in their order. A parameter's errors and junk (filters.ts), a sort
 * key's (sort.ts).
 */
export function byStart<T>(items: readonly T[], starts: readonly number[], offsetOf: (item: T) => number): T[][] {
  const parts: T[][] = starts.map(() => []);
  for (const item of items) {
    const offset = offsetOf(item);
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    parts[low]!.push(item);
  }
  return parts;
}
