/**
 * Case folding for `{ caseInsensitive: true }`, one definition for every back end:
 * each code point is replaced by its Unicode *simple* lower-case mapping, with no
 * context. It is what Postgres's `lower()` does under the `pg_c_utf8` collation, so
 * the evaluator and the SQL back end agree; `String#toLowerCase` differs in exactly
 * two places, both fixed here:
 *
 * - `İ` (U+0130) lowers to `i̇` (two code points) in JS, to `i` in the simple mapping;
 * - `Σ` (U+03A3) lowers to `ς` at the end of a word in JS (the context-sensitive
 *   Final_Sigma rule), always to `σ` in the simple mapping. A per-code-point mapping
 *   also keeps `%` patterns sound: a segment that ends in `Σ` folds the same way
 *   whether or not the data continues after it.
 *
 * So `ΣΑΣ` folds to `σασ` and matches `σασ`, not `σας`. Characters that a newer
 * Unicode version gives a lower case may still fold differently in a runtime and a
 * database that follow different Unicode versions.
 */
export function foldCase(text: string): string {
  return NOT_SIMPLE.test(text) ? text.replace(NOT_SIMPLE_ALL, simpleLower).toLowerCase() : text.toLowerCase();
}

// The two characters whose String#toLowerCase is not their simple mapping.
const NOT_SIMPLE = /[\u0130\u03a3]/;
const NOT_SIMPLE_ALL = /[\u0130\u03a3]/g;

function simpleLower(c: string): string {
  return c === '\u0130' ? 'i' : '\u03c3';
}
