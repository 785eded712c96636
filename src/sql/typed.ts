import { ownField } from '../arguments/arguments';
import { dateBounds, numberBounds } from '../filter/bounds';
import type { Condition, DateTest, NumberTest, TextTest } from '../filter/filter';
import type { FieldType } from '../schema/define';
import { MAX_MS as END_MS } from '../values/date';
import { documentColumn, documentCondition, valueAt, type DocumentTarget } from './document';
import type { Parameters } from './parameters';
import { decimalRange } from './rounding';
import { folder, likeTest, textKey, type TextComparison } from './text';

/**
 * The typed document target (`{ document, typed: true }`, reference §14.1): a `jsonb`
 * column whose values have the schema's JSON types. Each field is read through one
 * expression of the document path alone (`typedComparand`), which no value of another
 * type passes a test of: the filters compare it with bound values, `ORDER BY` sorts by
 * it (a number by `typedValue`, which puts JSON null last), and `sqlIndexes` indexes
 * the comparand and, with its NULL flag, the sort key, so a b-tree index serves each
 * filter and each sort. Equality on a
 * string or id is also a containment test (`doc @> '{"status":"paid"}'`), which one GIN
 * `jsonb_path_ops` index on the whole column serves for every field.
 *
 * The canonical forms, what the target reads as a value of the field's type:
 * - number: a JSON number (compared exactly with the bounds of the double's rounding
 *   interval, as `compile` compares the double `JSON.parse` makes of it);
 * - string: a JSON string;
 * - id: a JSON string, or a JSON number whose value is an integer of at most 2^53 − 1
 *   (read as its decimal digits);
 * - date: a JSON string `YYYY-MM-DD` (the UTC day's start) or `YYYY-MM-DDThh:mm:ss`
 *   with an optional fraction of 1 to 9 digits (UTC, no offset: the real API's form),
 *   a real calendar date. Such strings compare by code point as their instants do (to
 *   the millisecond, as `compile` truncates them), so a date is compared and sorted as
 *   text, with no conversion. Only the shape is checked per row (`DATE_SHAPES`): the
 *   form and the calendar, checked part by part, read the value once per part and made
 *   a scan of every row cost 8 to 11 times the hand-written comparison. So a string that
 *   starts like a date without being a canonical one (`2023-02-30`, an offset) is
 *   compared by its text; the contract is that the dates are canonical.
 * A value of another type (or a string not shaped like a date) never matches, and sorts
 * last, but for a number field, where `jsonb` puts strings first and booleans, arrays
 * and objects after the numbers (missing and null values sort last). Two
 * spellings of one value (`2020-12-31` and `2020-12-31T00:00:00`; two decimals of one
 * double) are ordered by their text where `sortItems` ties them.
 */

/**
 * What a date's text must start with: a digit, then the `YYYY-MM-DD` layout. No value of
 * another JSON type has that text (`->>` writes a number without a second `-`, an
 * object or an array from `{` or `[`), and one `LIKE ANY` reads the value once; the
 * years of today's data come first. A regular expression would cost microseconds a row.
 */
// Written out, not computed: a computed constant is code a bundler must keep, and this
// module shares a chunk of dist/ with what a browser loads up front (test/client/bundle.test.ts).
const DATE_SHAPES = "ARRAY['2___-__-__%', '1___-__-__%', '0___-__-__%', '3___-__-__%', '4___-__-__%', '5___-__-__%', '6___-__-__%', '7___-__-__%', '8___-__-__%', '9___-__-__%']";

/**
 * The one expression a field of a typed document is read through, from `source` (the
 * document column, or an array element). Strings and ids are text under `COLLATE "C"`
 * (folded with `caseInsensitive`), dates their text when it has a date's shape, each
 * NULL for a value of another type (or shape); numbers the `jsonb` value itself, NULL
 * for JSON null (`jsonb` orders numbers numerically, and apart from every other type).
 */
export function typedValue(source: string, path: readonly string[], type: FieldType, comparison: TextComparison): string {
  const { json, raw } = valueAt(source, path);
  switch (type) {
    case 'number':
      // Not a CASE on jsonb_typeof: only JSON null must be NULL, to sort last (see
      // `typedComparand` for what the filters compare).
      return `NULLIF(${json}, 'null')`;
    case 'date':
      return `(CASE WHEN ${raw} COLLATE "C" LIKE ANY (${DATE_SHAPES}) THEN ${raw} END) COLLATE "C"`;
    case 'string':
      return textKey(`CASE WHEN jsonb_typeof(${json}) = 'string' THEN ${raw} END`, comparison);
    case 'id':
      return textKey(`CASE jsonb_typeof(${json}) WHEN 'string' THEN ${raw} WHEN 'number' THEN ${integerText(json)} END`, comparison);
  }
}

/**
 * The expression a filter compares for a field of a typed document, which `sqlIndexes`
 * indexes: `typedValue`, but for a number the `jsonb` value itself. Its comparisons with
 * two numbers keep every other JSON type out, JSON null included (`jsonb` orders null and
 * strings before the numbers), so the `NULLIF` that makes the sort put null last would
 * only cost: at 1M rows, a scan comparing `NULLIF(v, 'null')` took 1.47× the
 * hand-written `(doc->>'totalAmount')::numeric`, comparing `v` 1.07×.
 */
export function typedComparand(source: string, path: readonly string[], type: FieldType, comparison: TextComparison): string {
  return type === 'number' ? valueAt(source, path).json : typedValue(source, path, type, comparison);
}

/** A JSON number's decimal digits when it is an integer of at most 2^53 − 1 (the ids `compile` reads), else NULL. */
function integerText(json: string): string {
  const n = `(${json})::numeric`;
  return `CASE WHEN ${n} = trunc(${n}) AND abs(${n}) <= ${Number.MAX_SAFE_INTEGER} THEN trunc(${n})::text END`;
}

/**
 * The SQL of one condition on a typed document. A child-array condition with a
 * case-sensitive string equality is first a containment test on the whole document
 * (`doc @> '{"lines":[{"description":"x"}]}'`: some element has it), which the GIN
 * index serves, before the `EXISTS` that holds all its tests to one element.
 */
export function typedCondition(target: DocumentTarget, condition: Condition, text: TextComparison, params: Parameters): string {
  const exists = () => documentCondition(target, condition, text, params, typedTests);
  const equal = condition.type === 'string' && !text.caseInsensitive ? condition.tests.find((test) => test.op === 'eq') : undefined;
  const array = ownField(condition, 'array');
  if (array === undefined || equal === undefined) return exists();
  const document = documentColumn(target);
  // Bound first: values are bound in reading order.
  const some = params.add(`{${JSON.stringify(array)}:[${containing(condition.path, equal.value)}]}`, 'jsonb');
  return `${document} @> ${some} AND ${exists()}`;
}

/** The SQL of the tests of one condition on a typed document (or one element of its array). */
export function typedTests(source: string, condition: Condition, text: TextComparison, params: Parameters): string {
  const value = typedComparand(source, condition.path, condition.type, text);
  switch (condition.type) {
    case 'number':
      return numberTests(value, condition.tests, params);
    case 'date':
      return dateTests(value, condition.tests, params);
    case 'string':
    case 'id':
      return condition.tests.map((test) => textTest(source, value, condition, test, text, params)).join(' AND ');
  }
}

/**
 * All comparisons of a number condition as one interval of exact decimals (see
 * `decimalRange`), compared as `jsonb` numbers: from the midpoint below the lowest
 * double to the one above the highest, each end included or not by the parity of its
 * double. Two comparisons of the value, no more: a scan of every row feels each one.
 * They keep every other JSON type out too (`jsonb` orders null and strings before the
 * numbers, booleans, arrays and objects after them), and an unbounded side ends past
 * the largest double, so that a number `compile` reads as ±Infinity never matches. An
 * empty interval is [1, 0].
 */
function numberTests(value: string, tests: readonly NumberTest[], params: Parameters): string {
  const bounds = numberBounds(tests);
  const range = bounds === undefined ? { from: '1', to: '0', fromClosed: true, toClosed: true } : decimalRange(bounds);
  const from = `${value} ${range.fromClosed ? '>=' : '>'} ${params.add(range.from, 'jsonb')}`;
  return `${from} AND ${value} ${range.toClosed ? '<=' : '<'} ${params.add(range.to, 'jsonb')}`;
}

/** A text that sorts after every canonical date: the bound of a range that reaches past 9999. */
const PAST_LAST_DATE = '9999-12-32';

/**
 * All comparisons of a date condition as one half-open interval of canonical texts: the
 * text of an instant (`canonicalDate`) compares with every canonical date as the instants
 * do. Which sides are bound depends only on the operators, as on the relational target.
 */
function dateTests(value: string, tests: readonly DateTest[], params: Parameters): string {
  const { lo, hi } = dateBounds(tests) ?? { lo: 0, hi: 0 };
  const sides: string[] = [];
  if (tests.some(({ op }) => op !== 'lt' && op !== 'lte')) sides.push(`${value} >= ${params.add(canonicalDate(lo))}`);
  if (tests.some(({ op }) => op !== 'gt' && op !== 'gte')) sides.push(`${value} < ${params.add(canonicalDate(hi))}`);
  return sides.join(' AND ');
}

const DAY_MS = 86_400_000;

/**
 * The canonical text of an instant of the years 0000 to 9999 (later ones sort after all):
 * `YYYY-MM-DD` at a day's start, else `YYYY-MM-DDThh:mm:ss` and the milliseconds (when
 * not 0) without trailing zeros. A canonical date text sorts before it exactly when its
 * instant, truncated to the millisecond, is earlier.
 */
export function canonicalDate(ms: number): string {
  if (ms >= END_MS) return PAST_LAST_DATE;
  const iso = new Date(ms).toISOString(); // YYYY-MM-DDThh:mm:ss.sssZ for these years
  if (((ms % DAY_MS) + DAY_MS) % DAY_MS === 0) return iso.slice(0, 10);
  return iso.slice(0, 19) + `.${iso.slice(20, 23)}`.replace(/\.?0+$/, '');
}

/**
 * One test of a string or id: case-sensitive equality as containment (`{"a":{"b":v}}`),
 * which a GIN `jsonb_path_ops` index serves, and for an id that is an integer also its
 * JSON number; the rest on the typed value, whose b-tree index serves equality and a
 * `LIKE` prefix.
 */
function textTest(source: string, value: string, condition: Condition, test: TextTest, text: TextComparison, params: Parameters): string {
  if (test.op === 'like') return likeTest(value, test.segments, text, params);
  if (text.caseInsensitive) return `${value} = ${params.add(folder(text.folding)(test.value))}`;
  const asString = params.add(containing(condition.path, test.value), 'jsonb');
  if (condition.type === 'string') return `${source} @> ${asString}`;
  const id = Number(test.value);
  // Only an integer's own digits name a number id: `042` and `-0` are strings only.
  const number = Number.isSafeInteger(id) && String(id) === test.value ? containing(condition.path, id) : containing(condition.path, test.value);
  return `(${source} @> ${asString} OR ${source} @> ${params.add(number, 'jsonb')})`;
}

/** The JSON of an object holding `value` at `path`. */
function containing(path: readonly string[], value: string | number): string {
  return path.reduceRight<string>((inner, name) => `{${JSON.stringify(name)}:${inner}}`, JSON.stringify(value));
}
