import type { DateTest, NumberTest } from './filter';

/**
 * The tests of one condition as one interval: what every back end compares with, so
 * that `gte:1;lte:5;gt:2` is one range test (and one range of SQL parameters), not
 * three. AND is an intersection, so the order of the tests never matters.
 */

/** The interval of a number condition: both ends finite, each open or closed. */
export interface NumberBounds {
  readonly lo: number;
  readonly loOpen: boolean;
  readonly hi: number;
  readonly hiOpen: boolean;
}

/**
 * All comparisons of one number condition as one interval, or `undefined` when none
 * can hold. An unbounded side ends at the largest finite double, closed, so that the
 * interval test alone keeps ±Infinity out: no per-item finiteness check.
 */
export function numberBounds(tests: readonly NumberTest[]): NumberBounds | undefined {
  let lo = -Number.MAX_VALUE;
  let loOpen = false;
  let hi = Number.MAX_VALUE;
  let hiOpen = false;
  for (const { op, value } of tests) {
    if (op === 'eq' || op === 'gt' || op === 'gte') {
      const open = op === 'gt';
      if (value > lo || (value === lo && open)) [lo, loOpen] = [value, open];
    }
    if (op === 'eq' || op === 'lt' || op === 'lte') {
      const open = op === 'lt';
      if (value < hi || (value === hi && open)) [hi, hiOpen] = [value, open];
    }
  }
  if (lo > hi || (lo === hi && (loOpen || hiOpen))) return undefined;
  return { lo, loOpen, hi, hiOpen };
}

/** The interval of a date condition: instants `lo ≤ t < hi`, an unbounded side infinite. */
interface DateBounds {
  readonly lo: number;
  readonly hi: number;
}

/** All comparisons of one date condition as one half-open interval of instants, or `undefined` when empty. */
export function dateBounds(tests: readonly DateTest[]): DateBounds | undefined {
  let lo = -Infinity;
  let hi = Infinity;
  for (const { op, value } of tests) {
    // See DateRange: every operator is a bound on [start, end).
    if (op === 'eq' || op === 'gte') lo = Math.max(lo, value.start);
    if (op === 'gt') lo = Math.max(lo, value.end);
    if (op === 'eq' || op === 'lte') hi = Math.min(hi, value.end);
    if (op === 'lt') hi = Math.min(hi, value.start);
  }
  return lo < hi ? { lo, hi } : undefined;
}
