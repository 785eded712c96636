import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatNumber, numberFromData, readNumber } from '../../src/values/number';

// reference §4: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, finite; plain integers within ±2^53.
describe('readNumber', () => {
  it.each([
    ['0', 0],
    ['-0', 0],
    ['7', 7],
    ['-12.50', -12.5],
    ['0.001', 0.001],
    ['1e3', 1000],
    ['1E3', 1000],
    ['2.5e-3', 0.0025],
    ['1e+2', 100],
    ['9007199254740992', 2 ** 53],
    ['-9007199254740992', -(2 ** 53)],
    // Only plain integers must be exact: a fraction or exponent says the writer knows.
    ['9007199254740993.0', 2 ** 53],
    ['1e16', 1e16],
    ['1.5e300', 1.5e300],
    ['1e-400', 0],
  ])('reads %j as %d', (text, value) => {
    expect(readNumber(text, true)).toBe(value);
  });

  it('reads -0 as 0, so that it prints and compares as 0', () => {
    expect(Object.is(readNumber('-0', true), 0)).toBe(true);
  });

  it.each([
    '', '-', '+5', ' 5', '5 ', '.5', '5.', '-.5', '05', '-05', '00', '1e', '1e+', '1.e5', '0x10',
    'Infinity', 'NaN', '1_000', '1,000', '١', '5e5.5', '--5', 'gte:5',
  ])('refuses %j as syntax', (text) => {
    expect(readNumber(text, true)).toBe('syntax');
  });

  it.each(['1e400', '-1e400', '1e99999999999999999999'])('refuses %j as out of range', (text) => {
    expect(readNumber(text, true)).toBe('range');
  });

  it.each(['9007199254740993', '-9007199254740993', '10000000000000000', '123456789012345678901234567890'])(
    'refuses the inexact plain integer %j in a query',
    (text) => {
      expect(readNumber(text, true)).toBe('precision');
      // Data is read as it is: a stored number has whatever value it has.
      expect(typeof readNumber(text, false)).toBe('number');
    },
  );
});

describe('numberFromData', () => {
  it.each([
    [200, 200],
    ['200.00', 200],
    ['-1e3', -1000],
    ['9007199254740993', 9007199254740992],
  ])('reads %j as %d', (value, expected) => {
    expect(numberFromData(value)).toBe(expected);
  });

  it.each([NaN, Infinity, '', ' 1', '1,5', '0x1', null, undefined, true, 5n, {}, [1], new Number(1)])(
    'never reads %s as a number',
    (value) => {
      expect(numberFromData(value)).toBeUndefined();
    },
  );
});

describe('formatNumber', () => {
  it.each([
    [1e16, '1e+16'],
    [-1.5e20, '-1.5e+20'],
    [2 ** 53, '9007199254740992'],
    [1e21, '1e+21'],
    [0.1, '0.1'],
    [-0, '0'],
  ])('prints %d as %j', (value, text) => {
    expect(formatNumber(value)).toBe(text);
  });

  it('prints every finite double as a literal that reads back as the same value', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        expect(readNumber(formatNumber(value), true)).toBe(value + 0);
      }),
      { numRuns: 2000 },
    );
  });

  it('prints integers around 2^53 so that they read back exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), fc.boolean(), (delta, negative) => {
        const value = (negative ? -1 : 1) * (2 ** 53 + delta * 2);
        expect(readNumber(formatNumber(value), true)).toBe(value);
      }),
    );
  });
});
