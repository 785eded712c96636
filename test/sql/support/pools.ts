import { roundingInterval } from '../../../src/sql/rounding';
import type { Json } from './json';

/**
 * Values the differential tests draw from, shared by filters and data so that
 * comparisons land on, around and between the same values.
 */

/** Numbers both filters and data use, so that comparisons land on, around and between them. */
export const NUMBERS = [
  0, 1, 5, 42, 100, 150, 199.99, 200, 0.1, 0.2, 0.30000000000000004, -5, -0.5, 1e-300, 5e-324, 2.2250738585072014e-308,
  Number.MAX_VALUE, -Number.MAX_VALUE, 9007199254740991, 9007199254740992, 1e21, 123456.789, 2 ** 52 + 0.5,
];

/** The texts most data and filters use, so that text tests often find something. */
export const COMMON_TEXTS = ['acme', 'ACME', 'Acme Corp', 'a%b', 'a_b', 'ΣΑΣ', 'σασ', 'İstanbul', 'Consulting fee', 'say "hi"'];

/** Texts with everything a LIKE pattern or a case fold can trip on. */
export const TEXTS = [
  ...COMMON_TEXTS, 'acme%', 'axb', 'a\\b', 'a\\%b', '', ' ', 'σας', 'ΟΔΟΣ', 'istanbul', 'i̇stanbul', "O'Reilly", 'fee',
  'CONSULTING FEE', '100', '42', '$1', '-- x', '/* x */', 'ß', 'SS', 'ẞ', 'ǅ', 'ǆ', '𐐀𐐨', 'x\ny', '\uFEFFbom', 'Ⓐ', 'K', 'ſ',
  ';', '%', '_', '\\',
];


/** Date literals: whole days and instants, offsets and fraction digits, the first and last day of the syntax. */
export const DATES = [
  '2023-01-09', '2023-01-10', '2024-02-29', '1970-01-01', '0000-01-01', '9999-12-31', '2023-01-09T00:00:00Z',
  '2023-01-09T23:59:59.999Z', '2023-01-10T00:00:00Z', '2023-01-09T10:00:00+01:00', '2023-01-09T12:30:15.123456789-05:30',
  '1969-12-31T23:59:59.9999Z', '2023-01-09T00:00Z', '2023-01-08T23:00:00-01:00', '2023-01-09T23:59:59.9991+23:59',
];

export const IDS = ['42', '-7', '0', 'abc', 'ABC', '4%2', 'a_c', '9007199254740991', '9007199254740992', '42.5', '1e2', ''];

/** Reals on both sides of, and exactly on, the midpoints between pool numbers and their neighbours. */
export function boundaryTokens(q: number): string[] {
  const { low, high } = roundingInterval(q);
  return [low, high].flatMap((edge) => [edge, justAbove(edge, 30), justBelow(edge, 30)]);
}

/**
 * The same boundaries written with more than 1000 digits, too long for a direct
 * `numeric` cast: the exact midpoint padded with zeros, and a hair on either side.
 */
export function longBoundaryTokens(q: number): string[] {
  const { low, high } = roundingInterval(q);
  return [low, high].flatMap((edge) => [`${withPoint(edge)}${'0'.repeat(1100)}`, justAbove(edge, 1100), justBelow(edge, 1100)]);
}

function withPoint(decimal: string): string {
  return decimal.includes('.') ? decimal : `${decimal}.`;
}

/** A decimal greater than a positive one by 10^-(its fraction digits + zeros + 1). */
function justAbove(decimal: string, zeros: number): string {
  return `${withPoint(decimal)}${'0'.repeat(zeros)}1`;
}

/** A decimal smaller than a positive one by the same tiny amount: …d000 − 0.000…1 = …(d−1)999…9. */
function justBelow(decimal: string, zeros: number): string {
  const digits = withPoint(decimal);
  const last = digits.search(/[1-9][0]*\.?[0]*$/);
  if (last < 0) return decimal; // zero has no positive neighbour below in this form
  const head = digits.slice(0, last) + String(Number(digits[last]) - 1);
  const tail = digits.slice(last + 1).replace(/0/g, '9');
  return `${withPoint(head + tail)}${'9'.repeat(zeros + 1)}`;
}

/** JSON number tokens no JS number prints as: beyond the doubles, on rounding boundaries, with odd spellings. */
export const RAW_NUMBERS = [
  '1e400', '-1e400', '1e-400', '-0', '42.0', '4.2e1', '1E2', '0.10000000000000001', '9007199254740993', '9007199254740991.4',
  '42.00000000000000001', '1.7976931348623158e308', '1.7976931348623159e308', '2.4703282292062327e-324', '2.4703282292062328e-324',
  '100.000', `1${'0'.repeat(400)}`, `0.${'0'.repeat(330)}1`, '1e2',
  ...[0, 1, 100, 200, 0.1, 5e-324, Number.MAX_VALUE, 9007199254740991].flatMap(boundaryTokens),
];

/** Strings a number field may meet: the syntax, near misses, and texts too long or too large for a direct cast. */
export const NUMBER_STRINGS = [
  '200.00', '1e3', ' 5', '5 ', '05', '+5', '.5', '5.', 'Infinity', '-Infinity', 'NaN', '1e400', '-1e400', '1e-400', '-0', '0x10',
  '1_000', '1,5', '100', '42', '42.0', '1E2', '1e+2', '1e0005', '0.1', '199.99', '5e-324', '1.7976931348623158e308',
  '1.7976931348623159e308', '-', '1e', '1e+', '1.e5', `1${'0'.repeat(1500)}`, `0.${'0'.repeat(1200)}1e1250`,
  `0.${'0'.repeat(1200)}15e1201`, `-0.${'0'.repeat(1200)}15e1201`, '1e99999999999', '1e-99999999999', '-1e-99999999999', '1.5e+0005',
  `1${'0'.repeat(309)}`, `17976931348623158${'0'.repeat(292)}`, `0.${'0'.repeat(2000)}`, `0e99999999999`, `1.${'0'.repeat(900)}1e-5`,
  `${'9'.repeat(400)}e-100`, '100\n', '1e1000', '1e-1000', `2e-324`, `3e-324`, `7e-324`,
  ...[0, 100, 0.1, 5e-324, Number.MAX_VALUE].flatMap(boundaryTokens),
  ...[1, 0.1, 5e-324, Number.MAX_VALUE].flatMap(longBoundaryTokens),
];

/** Strings a date field may meet: the syntax with offsets and 1–9 fraction digits, near misses, impossible days. */
export const DATE_STRINGS = [
  ...DATES, '2023-02-30', '2023-02-29', '2024-02-30', '2023-04-31', '2023-13-01', '2023-00-10', '2023-01-00', '2023-01-32',
  '2023-01-09T24:00:00Z', '2023-01-09T23:60:00Z', '2023-01-09T23:59:60Z', '2023-01-09T10:00:00', '2023-01-09 10:00:00Z',
  '2023-01-09t10:00:00z', '2023-01-09T10:00:00+24:00', '2023-01-09T10:00:00+01:60', '2023-01-09T10:00:00+23:59',
  '2023-01-09T10:00:00-23:59', '2023-01-09T10:00:00 01:00', '2023-01-09T10:00:00+0100', '2023-01-09T10Z',
  '2023-01-09T10:00:00.Z', '2023-01-09T10:00:00.1234567890Z', '2023-01-09T10:00:00.5Z', '2023-01-09T10:00:00.12Z',
  '2023-01-09T10:00:00.123456Z', '9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999-00:01', '0000-01-01T00:00:00+00:01',
  '0000-01-01T00:00:00-00:01', '+010000-01-01T00:00:00.000Z', '-000001-12-31T00:00:00.000Z', '2023-01-09\n', ' 2023-01-09',
  '23-01-09', '2023-1-9', '20230109', '2023-01-09T00:00:00.000Z', '0000-02-29', '1900-02-29', '2000-02-29', '2100-02-29',
  // Without an offset, as the API returns them: read as UTC.
  '2020-12-31T00:00:00', '2023-01-09T00:00', '2023-01-09T23:59:59.9999', '2023-01-10T00:00:00.000', '9999-12-31T23:59:59.999',
  '0000-01-01T00:00', '2023-02-29T10:00:00', '2023-01-09T10:00:00.',
];

export const ID_VALUES: Json[] = [
  '42', 'abc', 'ABC', '4%2', 'a_c', '', '-7', '0', '9007199254740992', 42, -7, 0, 42.5, 9007199254740991, -9007199254740991, 1e21,
  ...['42.0', '-0', '9007199254740993', '9007199254740991.4', '9007199254740991.5', '1e-400', '4.2e1', '1e2', '42.00000000000000001',
    '-42.000', '0.5', '-0.4', '9007199254740992'].map((raw) => ({ raw })),
];

