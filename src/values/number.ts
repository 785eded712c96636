/**
 * The number syntax of reference §4, one scanner for both query literals and numeric
 * strings in data: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, finite.
 */

/** Why a text is not an acceptable number. */
export type NumberProblem = 'syntax' | 'range' | 'precision';

/** The largest magnitude a plain integer literal may have: beyond it doubles skip integers. */
const MAX_EXACT_VALUE = 2 ** 53;
/** The same, as the digits a literal is compared with. */
const MAX_EXACT = /* @__PURE__ */ String(MAX_EXACT_VALUE); // '9007199254740992'

/**
 * Reads a number in the syntax of reference §4. With `exactIntegers`, a plain integer
 * (no fraction, no exponent) beyond ±2^53 is refused, since it would silently compare
 * as a neighbouring value; query literals are read this way, data is not.
 */
export function readNumber(text: string, exactIntegers: boolean): number | NumberProblem {
  const n = text.length;
  let i = text.charCodeAt(0) === 45 /* - */ ? 1 : 0;
  const digitsStart = i;
  const first = text.charCodeAt(i);
  if (first === 48 /* 0 */) i++;
  else if (first >= 49 && first <= 57) while (isDigit(text.charCodeAt(i))) i++;
  else return 'syntax';
  let plain = true;
  if (text.charCodeAt(i) === 46 /* . */) {
    plain = false;
    if (!isDigit(text.charCodeAt(++i))) return 'syntax';
    while (isDigit(text.charCodeAt(i))) i++;
  }
  const e = text.charCodeAt(i);
  if (e === 101 || e === 69 /* e E */) {
    plain = false;
    const sign = text.charCodeAt(++i);
    if (sign === 43 || sign === 45) i++;
    if (!isDigit(text.charCodeAt(i))) return 'syntax';
    while (isDigit(text.charCodeAt(i))) i++;
  }
  if (i !== n) return 'syntax';
  if (exactIntegers && plain) {
    const digits = n - digitsStart;
    if (digits > MAX_EXACT.length || (digits === MAX_EXACT.length && text.slice(digitsStart) > MAX_EXACT)) return 'precision';
  }
  const value = Number(text);
  if (!Number.isFinite(value)) return 'range';
  return value + 0; // -0 is 0
}

/**
 * Prints a finite number as a literal that `readNumber(text, true)` reads back as the
 * same value. `String(1e16)` would be `10000000000000000`, a plain integer beyond 2^53
 * that is refused as inexact: such values get the exponent form of the same shortest
 * digits (`1e+16`).
 */
export function formatNumber(value: number): string {
  return Number.isInteger(value) && Math.abs(value) > MAX_EXACT_VALUE ? value.toExponential() : String(value);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** A finite number from data: a JS number, or a string in the number syntax. Anything else is `undefined`. */
export function numberFromData(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const n = readNumber(value, false);
  return typeof n === 'number' ? n : undefined;
}

/**
 * The double next to a finite `q` towards +∞ (`step` 1) or −∞ (−1), by its bit pattern:
 * "greater than q" is "at least the next double up" for any value that is a double.
 */
export function nextDouble(q: number, step: 1 | -1): number {
  if (q === 0) return step * Number.MIN_VALUE;
  nextView.setFloat64(0, Math.abs(q));
  nextView.setBigUint64(0, nextView.getBigUint64(0) + (Math.sign(q) === step ? 1n : -1n));
  return Math.sign(q) * nextView.getFloat64(0);
}

const nextView = /* @__PURE__ */ new DataView(/* @__PURE__ */ new ArrayBuffer(8));
