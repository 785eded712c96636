/**
 * Which exact decimals round to a given double. The evaluator compares doubles (a
 * number in data is `Number(text)`, the correctly rounded double of its decimal
 * text); Postgres compares `numeric` values exactly. Rounding is monotone, so
 * "`Number(x)` ≥ q" is "x ≥ the lowest decimal that rounds to q": each comparison with
 * a double becomes one exact `numeric` comparison, with no float conversion in SQL.
 */

/** The reals that round to a double: from `low` to `high`, both ends included or both excluded. */
export interface RoundingInterval {
  /** Exact decimal text of the midpoint to the next double down. */
  readonly low: string;
  /** Exact decimal text of the midpoint to the next double up (for the largest double, to 2^1024). */
  readonly high: string;
  /** Ties round to even: the midpoints belong to `q` when its last significand bit is 0. */
  readonly closed: boolean;
}

/** The interval of reals that round to the finite double `q` (round to nearest, ties to even). */
export function roundingInterval(q: number): RoundingInterval {
  if (!Number.isFinite(q)) throw new TypeError(`toSql: a number literal must be finite, not ${q}.`);
  if (q < 0) {
    const { low, high, closed } = roundingInterval(-q);
    return { low: negate(high), high: negate(low), closed };
  }
  const bits = bitsOf(q === 0 ? 0 : q); // -0 is 0
  // In units of 2^-1075 every double, and every midpoint of two neighbours, is an integer.
  const at = units(bits);
  const below = bits === 0n ? -units(1n) : units(bits - 1n);
  return {
    low: decimal((below + at) / 2n),
    high: decimal((at + units(bits + 1n)) / 2n),
    closed: (bits & 1n) === 0n,
  };
}

const view = /* @__PURE__ */ new DataView(/* @__PURE__ */ new ArrayBuffer(8));

function bitsOf(q: number): bigint {
  view.setFloat64(0, q);
  return view.getBigUint64(0);
}

/** The value of a non-negative double's bit pattern in units of 2^-1075 (the pattern after the largest is 2^1024). */
function units(bits: bigint): bigint {
  const exponent = bits >> 52n;
  const fraction = bits & 0xfffffffffffffn;
  return exponent === 0n ? fraction << 1n : (fraction | 0x10000000000000n) << exponent;
}

/** Exact decimal text of `n` × 2^-1075. */
function decimal(n: bigint): string {
  if (n < 0n) return `-${decimal(-n)}`;
  if (n === 0n) return '0';
  // Cancel the factors of 2 a word at a time: bit by bit, over these 1000-bit numbers,
  // cost a hundred microseconds a bound.
  let shift = 1075;
  while (shift >= 32 && (n & 0xffffffffn) === 0n) {
    n >>= 32n;
    shift -= 32;
  }
  while (shift > 0 && (n & 1n) === 0n) {
    n >>= 1n;
    shift--;
  }
  if (shift === 0) return n.toString();
  // n / 2^s = n·5^s / 10^s: the digits of n·5^s with the point s places from the right.
  const digits = (n * powerOfFive(shift)).toString().padStart(shift + 1, '0');
  const point = digits.length - shift;
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

const powersOfFive = new Map<number, bigint>();

/** 5^s, kept once computed: a bound's midpoints use a few dozen exponents. */
function powerOfFive(s: number): bigint {
  let power = powersOfFive.get(s);
  if (power === undefined) powersOfFive.set(s, (power = 5n ** BigInt(s)));
  return power;
}

function negate(text: string): string {
  return text === '0' ? text : text.startsWith('-') ? text.slice(1) : `-${text}`;
}
