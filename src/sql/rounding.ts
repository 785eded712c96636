import type { NumberBounds } from '../filter/bounds';

/**
 * Which exact decimals round to a given double. The evaluator compares doubles (a
 * number in data is `Number(text)`, the correctly rounded double of its decimal
 * text); Postgres compares `numeric` values exactly. Rounding is monotone, so
 * "`Number(x)` ≥ q" is "x ≥ the lowest decimal that rounds to q": each comparison with
 * a double becomes one exact `numeric` comparison, with no float conversion in SQL.
 */

/** The reals that round to a double: from `low` to `high`, both ends included or both excluded. */
interface RoundingInterval {
  /** Exact decimal text of the midpoint to the next double down. */
  readonly low: string;
  /** Exact decimal text of the midpoint to the next double up (for the largest double, to 2^1024). */
  readonly high: string;
  /** Ties round to even: the midpoints belong to `q` when its last significand bit is 0. */
  readonly closed: boolean;
}

/** The interval of reals that round to the finite double `q` (round to nearest, ties to even). */
export function roundingInterval(q: number): RoundingInterval {
  return { low: midpoint(q, 'low'), high: midpoint(q, 'high'), closed: isEven(q) };
}

/**
 * The exact decimal ends of the reals whose doubles lie in a number condition's interval
 * (see `numberBounds`), and whether each end belongs to it: a closed end reaches out to
 * the midpoint on the far side of its double, an open one starts at the midpoint on
 * the near side; a midpoint belongs to the even double. Only those two are computed.
 */
export function decimalRange(bounds: NumberBounds): { from: string; to: string; fromClosed: boolean; toClosed: boolean } {
  return {
    from: midpoint(bounds.lo, bounds.loOpen ? 'high' : 'low'),
    to: midpoint(bounds.hi, bounds.hiOpen ? 'low' : 'high'),
    fromClosed: bounds.loOpen !== isEven(bounds.lo),
    toClosed: bounds.hiOpen !== isEven(bounds.hi),
  };
}

/** Whether the last significand bit of a finite double is 0: then both its midpoints round to it. */
function isEven(q: number): boolean {
  if (!Number.isFinite(q)) throw new TypeError(`toSql: a number literal must be finite, not ${q}.`);
  return (bitsOf(Math.abs(q)) & 1n) === 0n;
}

/**
 * Midpoints computed lately, by side and double: a server sees the same literals again
 * and again, and a midpoint's exact decimal of up to 1075 digits costs tens of
 * microseconds. Cleared when full, so it stays small.
 */
const recent = /* @__PURE__ */ new Map<string, string>();

/** The exact decimal text of the midpoint between the finite double `q` and its neighbour below (`low`) or above (`high`). */
function midpoint(q: number, side: 'low' | 'high'): string {
  if (!Number.isFinite(q)) throw new TypeError(`toSql: a number literal must be finite, not ${q}.`);
  if (q < 0) return negate(midpoint(-q, side === 'low' ? 'high' : 'low'));
  const key = `${side}${q}`;
  let text = recent.get(key);
  if (text === undefined) {
    // q = m·2^e (m the integer significand); its neighbours are q ± 2^e, except at the
    // bottom of a binade (above the subnormals), where the one below is q − 2^(e−1).
    // Each midpoint is an odd multiple of a power of two: no factor to cancel.
    const bits = bitsOf(q === 0 ? 0 : q); // -0 is 0
    const field = bits >> 52n;
    const fraction = bits & 0xfffffffffffffn;
    const m = field === 0n ? fraction : fraction | 0x10000000000000n;
    const e = (field === 0n ? 1 : Number(field)) - 1075;
    if (side === 'high') text = decimal(2n * m + 1n, e - 1);
    else if (fraction === 0n && field > 1n) text = decimal(4n * m - 1n, e - 2);
    else text = decimal(2n * m - 1n, e - 1);
    if (recent.size >= 1024) recent.clear();
    recent.set(key, text);
  }
  return text;
}

const view = /* @__PURE__ */ new DataView(/* @__PURE__ */ new ArrayBuffer(8));

function bitsOf(q: number): bigint {
  view.setFloat64(0, q);
  return view.getBigUint64(0);
}

/** Exact decimal text of `n` × 2^`p`, `n` odd (or ±1): written without an exponent, and without trailing zeros. */
function decimal(n: bigint, p: number): string {
  if (n < 0n) return `-${decimal(-n, p)}`;
  if (p >= 0) return (n << BigInt(p)).toString();
  // n / 2^s = n·5^s / 10^s: the digits of n·5^s with the point s places from the right.
  const shift = -p;
  const digits = (n * powerOfFive(shift)).toString().padStart(shift + 1, '0');
  const point = digits.length - shift;
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

const powersOfFive = /* @__PURE__ */ new Map<number, bigint>();

/** 5^s, kept once computed: a bound's midpoints use a few dozen exponents. */
function powerOfFive(s: number): bigint {
  let power = powersOfFive.get(s);
  if (power === undefined) powersOfFive.set(s, (power = 5n ** BigInt(s)));
  return power;
}

function negate(text: string): string {
  return text === '0' ? text : text.startsWith('-') ? text.slice(1) : `-${text}`;
}
