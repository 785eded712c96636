/**
 * The date syntax of SPEC §4, one scanner for both query literals and date strings in
 * data: `YYYY-MM-DD`, or `YYYY-MM-DDThh:mm[:ss[.f]](Z|±hh:mm)` with 1–9 fraction
 * digits, truncated to milliseconds. Only real calendar dates and times are accepted.
 */

/**
 * A date as a half-open interval of epoch milliseconds: a date-only literal is its
 * whole UTC day, a date-time is the one millisecond `[t, t + 1)`. With that, every
 * operator has one meaning for both: `=` is `start ≤ x < end`, `gt` is `x ≥ end`,
 * `gte` is `x ≥ start`, `lt` is `x < start`, `lte` is `x < end`.
 */
export interface DateRange {
  readonly start: number;
  readonly end: number;
  /** Whether the literal was a date (`day`) or a date-time (`instant`). */
  readonly unit: 'day' | 'instant';
}

/** Why a text is not an acceptable date. */
export type DateProblem =
  | 'syntax'
  | 'calendar' // a month, day, hour, minute or second that does not exist
  | 'offset-missing' // a date-time without Z or ±hh:mm
  | 'offset-space' // ±hh:mm arrived as " hh:mm": a "+" sent unencoded became a space
  | 'range'; // the instant falls outside the years 0000–9999

export const DAY_MS = 86_400_000;
/** 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z. */
const MIN_MS = daysFromCivil(0, 1, 1) * DAY_MS;
const MAX_MS = daysFromCivil(10000, 1, 1) * DAY_MS;

/** Reads a date or date-time in the syntax of SPEC §4. */
export function readDate(text: string): DateRange | DateProblem {
  const y = digits(text, 0, 4);
  const m = digits(text, 5, 2);
  const d = digits(text, 8, 2);
  if (y < 0 || m < 0 || d < 0 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return 'syntax';
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return 'calendar';
  const day = daysFromCivil(y, m, d) * DAY_MS;
  if (text.length === 10) return { start: day, end: day + DAY_MS, unit: 'day' };
  if (text.charCodeAt(10) !== 84 /* T */) return 'syntax';
  const hh = digits(text, 11, 2);
  const mm = digits(text, 14, 2);
  if (hh < 0 || mm < 0 || text.charCodeAt(13) !== 58) return 'syntax';
  let i = 16;
  let ss = 0;
  let ms = 0;
  if (text.charCodeAt(i) === 58 /* : */) {
    ss = digits(text, i + 1, 2);
    if (ss < 0) return 'syntax';
    i += 3;
    if (text.charCodeAt(i) === 46 /* . */) {
      const from = ++i;
      while (i < text.length && i - from < 10 && isDigit(text.charCodeAt(i))) i++;
      const count = i - from;
      if (count < 1 || count > 9) return 'syntax';
      ms = Number(text.slice(from, from + Math.min(count, 3)).padEnd(3, '0'));
    }
  }
  if (hh > 23 || mm > 59 || ss > 59) return 'calendar';
  const zone = text.charCodeAt(i);
  let offset = 0;
  if (zone === 90 /* Z */) {
    i++;
  } else if (zone === 43 || zone === 45 || zone === 32 /* + - space */) {
    const oh = digits(text, i + 1, 2);
    const om = digits(text, i + 4, 2);
    if (oh < 0 || om < 0 || text.charCodeAt(i + 3) !== 58 || i + 6 !== text.length) return 'syntax';
    if (zone === 32) return 'offset-space';
    if (oh > 23 || om > 59) return 'calendar';
    offset = (zone === 45 ? -1 : 1) * (oh * 60 + om) * 60_000;
    i += 6;
  } else if (i === text.length) {
    return 'offset-missing';
  } else {
    return 'syntax';
  }
  if (i !== text.length) return 'syntax';
  const at = day + hh * 3_600_000 + mm * 60_000 + ss * 1000 + ms - offset;
  if (at < MIN_MS || at >= MAX_MS) return 'range';
  return { start: at, end: at + 1, unit: 'instant' };
}

/** An instant (epoch ms) from data: a valid `Date`, or a string in the date syntax (a date is its day's start). */
export function instantFromData(value: unknown): number | undefined {
  if (typeof value === 'string') {
    const range = readDate(value);
    return typeof range === 'string' ? undefined : range.start;
  }
  if (value instanceof Date) {
    const t = value.getTime();
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}

/** Prints a range back as the literal it came from: `YYYY-MM-DD`, or an ISO date-time in UTC. */
export function formatDate(range: DateRange): string {
  const iso = new Date(range.start).toISOString();
  return range.unit === 'day' ? iso.slice(0, 10) : iso;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** The value of `count` decimal digits at `at`, or -1. */
function digits(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const c = text.charCodeAt(i);
    if (!isDigit(c)) return -1;
    value = value * 10 + (c - 48);
  }
  return value;
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function daysInMonth(y: number, m: number): number {
  return m === 2 ? (isLeap(y) ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil); no two-digit-year surprises. */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}
