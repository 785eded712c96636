/**
 * The date syntax of reference §4, one scanner for both query literals and date strings in
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
  | 'offset-space' // ±hh:mm arrived as " hh:mm" (or " hhmm"): a "+" sent unencoded became a space
  | 'offset-colon' // ±hhmm: an offset without its colon
  | 'fraction' // a "." not followed by 1 to 9 digits
  | 'offset-range' // an offset past ±23:59
  | 'range'; // the instant falls outside the years 0000–9999

/** What a date that does not read is, as a parenthesis after the message: the diagnostics' and the client's TypeErrors'. */
export const DATE_PROBLEMS: Record<DateProblem, string> = {
  syntax: '',
  calendar: ' (no such day or time)',
  'offset-missing': ' (a date-time needs a time zone offset)',
  'offset-space': ' (the offset has a space where its "+" should be)',
  'offset-colon': ' (its offset has no colon)',
  fraction: ' (a fraction of a second has 1 to 9 digits)',
  'offset-range': ' (no such time zone offset)',
  range: ' (outside the years 0000 to 9999)',
};

export const DAY_MS = 86_400_000;
/** 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z: the first instant the date syntax can denote, and the end of the last. */
export const MIN_MS = /* @__PURE__ */ startOfDay(0, 1, 1);
export const MAX_MS = /* @__PURE__ */ startOfDay(10000, 1, 1);

/** Whether `t` is an instant a date can denote, in milliseconds: what `check` makes of a date, and a cursor holds. */
export const isInstant = (t: unknown): t is number => Number.isSafeInteger(t) && (t as number) >= MIN_MS && (t as number) <= MAX_MS;

/** Reads a date or date-time in the syntax of reference §4. */
export function readDate(text: string): DateRange | DateProblem {
  const start = scanDate(text, false);
  if (Number.isNaN(start)) return scanned.problem;
  return scanned.day ? { start, end: start + DAY_MS, unit: 'day' } : { start, end: start + 1, unit: 'instant' };
}

/**
 * An instant (epoch ms) from data: a valid `Date`, or a string in the date syntax (a
 * date is its day's start; a date-time without an offset, as the API returns them, is
 * UTC). Anything else is NaN, which fails every comparison. It allocates nothing: the
 * evaluator calls it for every item.
 *
 * A `Date` is recognised by its internal slot, not by `instanceof`: a `Date` made in
 * another realm (a `vm` context, an iframe) has another `Date.prototype`. Nothing of
 * the object itself is read, so an own or inherited `getTime` is never called.
 */
export function instantOf(value: unknown): number {
  if (typeof value === 'string') return scanDate(value, true);
  if (typeof value !== 'object' || value === null) return NaN;
  try {
    return getTime.call(value);
  } catch {
    // Not a Date (getTime checks the internal slot), or a proxy of one.
    return NaN;
  }
}

/**
 * `Date.prototype.getTime` as it was when this module loaded: a later patch of it is
 * never called. Read by a call marked pure, which a bundle that reads no data drops.
 */
const getTime = /* @__PURE__ */ dateGetTime();

function dateGetTime(): () => number {
  return Date.prototype.getTime;
}

/** An instant from data as `instantOf` reads it, or `undefined`. */
export function instantFromData(value: unknown): number | undefined {
  const t = instantOf(value);
  return Number.isNaN(t) ? undefined : t;
}

/**
 * What the last `scanDate` found besides the instant: whether it was a date-only
 * text, or why it failed. One shared record rather than a result object, so that
 * reading dates from data allocates nothing.
 */
const scanned: { day: boolean; problem: DateProblem } = { day: false, problem: 'syntax' };

function fail(problem: DateProblem): number {
  scanned.problem = problem;
  return NaN;
}

/**
 * The start of a date or date-time in epoch milliseconds, or NaN (then `scanned.problem`
 * says why). A query literal needs its offset; data (`fromData`) may leave it out, and
 * is then read as UTC.
 */
function scanDate(text: string, fromData: boolean): number {
  const y = digits(text, 0, 4);
  const m = digits(text, 5, 2);
  const d = digits(text, 8, 2);
  if (y < 0 || m < 0 || d < 0 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return fail('syntax');
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return fail('calendar');
  const day = startOfDay(y, m, d);
  scanned.day = text.length === 10;
  if (scanned.day) return day;
  if (text.charCodeAt(10) !== 84 /* T */) return fail('syntax');
  const hh = digits(text, 11, 2);
  const mm = digits(text, 14, 2);
  if (hh < 0 || mm < 0 || text.charCodeAt(13) !== 58) return fail('syntax');
  let i = 16;
  let ss = 0;
  let ms = 0;
  if (text.charCodeAt(i) === 58 /* : */) {
    ss = digits(text, i + 1, 2);
    if (ss < 0) return fail('syntax');
    i += 3;
    if (text.charCodeAt(i) === 46 /* . */) {
      const from = ++i;
      while (i < text.length && i - from < 10 && isDigit(text.charCodeAt(i))) i++;
      const count = i - from;
      if (count < 1 || count > 9) return fail('fraction');
      // Milliseconds: the first three digits, the rest truncated.
      const kept = Math.min(count, 3);
      ms = digits(text, from, kept) * (kept === 1 ? 100 : kept === 2 ? 10 : 1);
    }
  }
  if (hh > 23 || mm > 59 || ss > 59) return fail('calendar');
  const zone = text.charCodeAt(i);
  let offset = 0;
  if (zone === 90 /* Z */) {
    i++;
  } else if (zone === 43 || zone === 45 || zone === 32 /* + - space */) {
    // ±hh:mm; ±hhmm is read too, to be refused with its own reason.
    const colon = text.charCodeAt(i + 3) === 58 ? 1 : 0;
    const oh = digits(text, i + 1, 2);
    const om = digits(text, i + 3 + colon, 2);
    if (oh < 0 || om < 0 || i + 5 + colon !== text.length) return fail('syntax');
    if (zone === 32) return fail('offset-space');
    if (colon === 0) return fail('offset-colon');
    if (oh > 23 || om > 59) return fail('offset-range');
    offset = (zone === 45 ? -1 : 1) * (oh * 60 + om) * 60_000;
    i += 6;
  } else if (i === text.length) {
    if (!fromData) return fail('offset-missing');
  } else {
    return fail('syntax');
  }
  if (i !== text.length) return fail('syntax');
  const at = day + hh * 3_600_000 + mm * 60_000 + ss * 1000 + ms - offset;
  if (at < MIN_MS || at >= MAX_MS) return fail('range');
  return at;
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

/**
 * The epoch ms of the start (UTC) of a proleptic Gregorian date, from its days since
 * 1970-01-01 (H. Hinnant's days_from_civil); no two-digit-year surprises.
 */
function startOfDay(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return (era * 146097 + doe - 719468) * DAY_MS;
}
