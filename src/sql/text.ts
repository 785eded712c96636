import type { TextTest } from '../filter/filter';
import { wrongArgument } from '../arguments/arguments';
import { foldCase } from '../values/case';
import type { Parameters } from './parameters';

/**
 * How `caseInsensitive` folds case inside Postgres, chosen per server (`detectCaseFolding`
 * asks a connection which it supports):
 *
 * - `pg_c_utf8`: `lower()` under the built-in `pg_c_utf8` collation (Postgres 17 and
 *   later), which is `foldCase` itself: each code point's simple lower case;
 * - `icu`: `lower()` under ICU's root collation `und-x-icu` (any server built with ICU),
 *   after `İ` and `Σ` are mapped to `i` and `σ`: ICU's full lower case is
 *   `String#toLowerCase`, which differs from `foldCase` for exactly those two;
 * - `ascii`: `lower()` under the `C` collation, on every server: only `A`–`Z` fold, every
 *   other character compares exactly, on both sides.
 */
export const CASE_FOLDINGS = ['pg_c_utf8', 'icu', 'ascii'] as const;

/** One of `CASE_FOLDINGS`. */
export type CaseFolding = (typeof CASE_FOLDINGS)[number];

/** How string and id tests compare: exactly, or by their folded forms. */
export type TextComparison = { readonly caseInsensitive: false } | { readonly caseInsensitive: true; readonly folding: CaseFolding };

/**
 * A SQL text expression folded for `caseInsensitive`, under the `C` collation so that it
 * compares, matches `LIKE` patterns and sorts by code point whatever the column's own
 * collation is. The one place that writes case folding in SQL: every use of a folded
 * text (filters, ordering) goes through it, so they all fold alike.
 */
export function foldedText(text: string, folding: CaseFolding): string {
  switch (folding) {
    case 'pg_c_utf8':
      return `(lower((${text}) COLLATE pg_catalog."pg_c_utf8") COLLATE pg_catalog."C")`;
    case 'icu':
      // E'' strings read the same whatever standard_conforming_strings is.
      return `(lower(translate(${text}, E'\\u0130\\u03A3', E'i\\u03C3') COLLATE pg_catalog."und-x-icu") COLLATE pg_catalog."C")`;
    case 'ascii':
      return `lower((${text}) COLLATE pg_catalog."C")`;
  }
}

/** A text expression as a comparison sees it: itself, or folded (`foldedText`) with `caseInsensitive`. */
export function foldText(text: string, comparison: TextComparison): string {
  return comparison.caseInsensitive ? foldedText(text, comparison.folding) : text;
}

/** What `foldedText` does in SQL, done in JS to the values bound against it. */
export function folder(folding: CaseFolding): (text: string) => string {
  return folding === 'ascii' ? asciiLower : foldCase;
}

const ASCII_UPPER = /[A-Z]/g;

/** `A`–`Z` to `a`–`z`, everything else as it is: `lower()` under the `C` collation. */
function asciiLower(text: string): string {
  return text.replace(ASCII_UPPER, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
}

/**
 * The SQL of the tests of a string or id condition on a text expression. Literals are
 * bound, `%` patterns become `LIKE` with an explicit escape character, and with
 * `caseInsensitive` both sides are folded alike: the data in SQL (`foldedText`), the
 * bound values here (`folder`).
 */
export function textTests(text: string, tests: readonly TextTest[], comparison: TextComparison, params: Parameters): string[] {
  const subject = foldText(text, comparison);
  return tests.map((test) =>
    test.op === 'eq'
      ? `${subject} = ${params.add(comparison.caseInsensitive ? folder(comparison.folding)(test.value) : test.value)}`
      : likeTest(subject, test.segments, comparison, params),
  );
}

/** A `%` pattern test on a text expression already folded for `comparison` (`foldText`, `textKey`): the segments are folded alike. */
export function likeTest(subject: string, segments: readonly string[], comparison: TextComparison, params: Parameters): string {
  const folded = comparison.caseInsensitive ? segments.map(folder(comparison.folding)) : segments;
  return `${subject} LIKE ${params.add(likePattern(folded))} ESCAPE ${LIKE_ESCAPE}`;
}

/** Text ordered by code point: the bytes of UTF-8, which `COLLATE "C"` compares; folded first with `caseInsensitive`. */
export function textKey(expression: string, text: TextComparison): string {
  return `(${foldText(expression, text)}) COLLATE "C"`;
}

/**
 * The parts a text sort key orders by (`keyParts`): the text by code point, or with
 * `caseInsensitive` its folded form, then the text itself, so that texts equal but for
 * case are still two places in the order.
 */
export function textParts(expression: string, text: TextComparison): string[] {
  const exact = textKey(expression, EXACT);
  return text.caseInsensitive ? [textKey(expression, text), exact] : [exact];
}

const EXACT: TextComparison = { caseInsensitive: false };

/**
 * The escape character of our `LIKE` patterns, a backslash, written as an `E''` string
 * so that it reads the same whatever `standard_conforming_strings` is.
 */
const LIKE_ESCAPE = "E'\\\\'";

/** A `LIKE` pattern for `%`-separated literal segments: `%`, `_` and `\` in the text are escaped. */
function likePattern(segments: readonly string[]): string {
  return segments.map((segment) => segment.replace(/[\\%_]/g, '\\$&')).join('%');
}

/** What `detectCaseFolding` needs of a connection: `pg`'s `Client` and `Pool`, and `PGlite`, all have it. */
export interface QueryClient {
  query(text: string): Promise<{ rows: unknown[] }>;
}

/**
 * Asks a Postgres connection which case folding it supports, best first: `pg_c_utf8`
 * (Postgres 17 and later), else `icu` (a server built with ICU, as every major
 * distribution's is), else `ascii`. Both of the first need a UTF-8 database. Ask once
 * per database (at start-up), and pass the answer to `toSql` as `caseFolding`.
 */
export async function detectCaseFolding(client: QueryClient): Promise<CaseFolding> {
  return (await supportedCaseFoldings(client))[0]!;
}

/** Every case folding a connection supports, best first; `ascii` always. */
export async function supportedCaseFoldings(client: QueryClient): Promise<CaseFolding[]> {
  if (typeof client !== 'object' || client === null || typeof client.query !== 'function') {
    wrongArgument('detectCaseFolding', 'the connection', 'a client with a query(text) method, such as a pg Pool or Client, or a PGlite', client);
  }
  const result: unknown = await client.query(
    `SELECT collname FROM pg_catalog.pg_collation
      WHERE collnamespace = 'pg_catalog'::regnamespace AND collname IN ('pg_c_utf8', 'und-x-icu')
        AND pg_catalog.getdatabaseencoding() = 'UTF8'`,
  );
  const rows = typeof result === 'object' && result !== null ? (result as { rows?: unknown }).rows : undefined;
  if (!Array.isArray(rows)) {
    // pg-promise's db.query resolves to the rows themselves, for one: its db.result(text) gives { rows }.
    throw new TypeError('detectCaseFolding: the connection\'s query(text) must resolve to a result with its rows ({ rows: [...] }), as a pg Pool or Client and a PGlite do.');
  }
  const names = new Set(rows.map((row) => (row as { collname?: unknown }).collname));
  return CASE_FOLDINGS.filter((folding) => folding === 'ascii' || names.has(folding === 'icu' ? 'und-x-icu' : folding));
}
