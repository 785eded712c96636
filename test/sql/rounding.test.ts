import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roundingInterval } from '../../src/sql/rounding';

/** The double next to `q` towards +∞ (step 1) or −∞ (step −1), by its bit pattern; past the largest it is Infinity. */
function next(q: number, step: 1 | -1): number {
  if (q === 0) return step * 5e-324;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(q));
  view.setBigUint64(0, view.getBigUint64(0) + BigInt(Math.sign(q) * step));
  return Math.sign(q) * view.getFloat64(0);
}

/** A decimal a hair beyond another, in the direction of `step`, far below any double's spacing at that size. */
function nudge(decimal: string, step: 1 | -1): string {
  const withPoint = decimal.includes('.') ? decimal : `${decimal}.`;
  const hair = `${'0'.repeat(1200)}1`;
  // Moving away from zero appends digits; moving towards it subtracts a hair, done via BigInt on the scaled digits.
  const negative = withPoint.startsWith('-');
  const [int, frac] = withPoint.replace('-', '').split('.') as [string, string];
  const scale = frac.length + hair.length;
  const scaled = BigInt(int + frac.padEnd(scale, '0')) * (negative ? -1n : 1n) + BigInt(step);
  const digits = (scaled < 0n ? -scaled : scaled).toString().padStart(scale + 1, '0');
  return `${scaled < 0n ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

const finite = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, 5e-324, -5e-324, 2.2250738585072014e-308, 1, 0.1, 100, 2 ** 53, Number.MAX_VALUE, -Number.MAX_VALUE),
);

describe('roundingInterval', () => {
  it('gives the exact midpoints to the neighbours: JS rounds them to q when closed, away from it when open', () => {
    fc.assert(
      fc.property(finite, (q) => {
        const { low, high, closed } = roundingInterval(q);
        expect(Number(low) + 0).toBe(closed ? q + 0 : next(q, -1) + 0);
        expect(Number(high) + 0).toBe(closed ? q + 0 : next(q, 1) + 0);
      }),
      { numRuns: 3000 },
    );
  });

  it('contains exactly the decimals that round to q: a hair inside rounds to q, a hair outside does not', () => {
    fc.assert(
      fc.property(finite, (q) => {
        const { low, high } = roundingInterval(q);
        expect(Number(nudge(low, 1)) + 0).toBe(q + 0);
        expect(Number(nudge(high, -1)) + 0).toBe(q + 0);
        expect(Number(nudge(low, -1)) + 0).toBe(next(q, -1) + 0);
        expect(Number(nudge(high, 1)) + 0).toBe(next(q, 1) + 0);
      }),
      { numRuns: 500 },
    );
  });

  it('writes plain decimals Postgres reads exactly: no exponent, no trailing zeros', () => {
    fc.assert(
      fc.property(finite, (q) => {
        const { low, high } = roundingInterval(q);
        for (const edge of [low, high]) expect(edge).toMatch(/^-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/);
      }),
      { numRuns: 1000 },
    );
  });

  it('is closed for an even last significand bit, so ties go to even', () => {
    expect(roundingInterval(1)).toEqual({ low: '0.999999999999999944488848768742172978818416595458984375', high: '1.00000000000000011102230246251565404236316680908203125', closed: true });
    expect(roundingInterval(1 + 2 ** -52).closed).toBe(false);
    expect(roundingInterval(0)).toMatchObject({ closed: true });
    expect(roundingInterval(-0)).toEqual(roundingInterval(0));
  });

  it('ends the largest double at 2^1024 − 2^970, from where decimals round to Infinity', () => {
    expect(roundingInterval(Number.MAX_VALUE).high).toBe((2n ** 1024n - 2n ** 970n).toString());
    expect(roundingInterval(Number.MAX_VALUE).closed).toBe(false);
  });

  it('refuses non-finite numbers', () => {
    expect(() => roundingInterval(Infinity)).toThrow(TypeError);
    expect(() => roundingInterval(NaN)).toThrow(TypeError);
  });
});
