import type { TextTest } from '../check/filter';
import { foldCase } from '../values/case';
import type { Parameters } from './parameters';

/** How string and id tests compare: exactly, or by `foldCase` forms, computed by `lower()` in this collation. */
export type TextComparison = { readonly caseInsensitive: false } | { readonly caseInsensitive: true; readonly collation: string | null };

/**
 * The SQL of the tests of a string or id condition on a text expression. Literals are
 * bound, `%` patterns become `LIKE` with an explicit escape character, and with
 * `caseInsensitive` both sides are folded: the bound values here, with `foldCase`, and
 * the data in SQL, with `lower()` under a collation whose `lower()` is that same
 * mapping (`pg_c_utf8`, Postgres 17 and later).
 */
export function textTests(text: string, tests: readonly TextTest[], comparison: TextComparison, params: Parameters): string[] {
  const fold = comparison.caseInsensitive ? foldCase : (s: string) => s;
  const subject = foldText(text, comparison);
  return tests.map((test) =>
    test.op === 'eq'
      ? `${subject} = ${params.add(fold(test.value))}`
      : `${subject} LIKE ${params.add(likePattern(test.segments.map(fold)))} ESCAPE ${LIKE_ESCAPE}`,
  );
}

/** A text expression as the comparison sees it: itself, or its `foldCase` form computed by `lower()`. */
export function foldText(text: string, comparison: TextComparison): string {
  if (!comparison.caseInsensitive) return text;
  return `lower(${comparison.collation === null ? text : `(${text}) COLLATE ${comparison.collation}`})`;
}

/**
 * The escape character of our `LIKE` patterns, a backslash, written as an `E''` string
 * so that it reads the same whatever `standard_conforming_strings` is.
 */
const LIKE_ESCAPE = "E'\\\\'";

/** A `LIKE` pattern for `%`-separated literal segments: `%`, `_` and `\` in the text are escaped. */
export function likePattern(segments: readonly string[]): string {
  return segments.map((segment) => segment.replace(/[\\%_]/g, '\\$&')).join('%');
}
