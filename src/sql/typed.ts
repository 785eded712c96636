import { ownField } from '../arguments/arguments';
import { dateBounds, numberBounds } from '../filter/bounds';
import type { Condition, CursorValue, DateTest, NumberTest, TextTest } from '../filter/filter';
import type { Field, FieldType } from '../spec/spec';
import { MAX_MS as END_MS } from '../values/date';
import { idText } from '../values/order';
import type { Constraint, Dialect, Index } from './dialect';
import { documentColumn, documentCondition, OVERFLOW, TINY_INVERSE, valueAt, type DocumentTarget } from './document';
import { indexedName, quoteIdentifier, type QualifiedName } from './identifier';
import type { Parameters } from './parameters';
import { decimalRange } from './rounding';
import { folder, likeTest, textKey, textParts, type TextComparison } from './text';

/**
 * The typed document target (`{ document, typed: true }`, reference §14.1): a `jsonb`
 * column whose values have the schema's JSON types. Each field is read through one
 * expression of the document path alone (`typedComparand`), which no value of another
 * type passes a test of: the filters compare it with bound values, and `sqlIndexes`
 * indexes it, so a b-tree index serves each filter. Equality on a string or id is also a
 * containment test (`doc @> '{"status":"paid"}'`), which one GIN `jsonb_path_ops` index
 * on the whole column serves for every field. A sort orders by the field's key
 * (`typedKey`), which `sqlIndexes` indexes with its NULL flag.
 *
 * The canonical forms, what the target reads as a value of the field's type:
 * - number: a JSON number (compared exactly with the bounds of the double's rounding
 *   interval, as `compile` compares the double `JSON.parse` makes of it; ordered by that
 *   double, so that two spellings of one double tie);
 * - string: a JSON string;
 * - id: a JSON string, or a JSON number whose value is an integer of at most 2^53 − 1
 *   (read as its decimal digits);
 * - date: a JSON string `YYYY-MM-DD` (the UTC day's start) or `YYYY-MM-DDThh:mm:ss`
 *   with an optional fraction of 1 to 9 digits (UTC, no offset: the real API's form),
 *   a real calendar date. Such strings compare by code point as their instants do (to
 *   the millisecond, as `compile` truncates them), so a date is compared as text, with
 *   no conversion, and ordered by its text written out to the millisecond
 *   (`YYYY-MM-DDThh:mm:ss.sss`), so that two spellings of one instant tie. Only the
 *   shape is checked per row (`DATE_SHAPES`): the form and the calendar, checked part
 *   by part, read the value once per part and made a scan of every row cost 8 to 11
 *   times the hand-written comparison. So a string that starts like a date without being
 *   a canonical one (`2023-02-30`, an offset) is compared by its text.
 *
 * `sqlConstraints` gives the CHECK constraints that keep every other value out of the
 * table on write; under them the target's answers are `compile`'s and its order
 * `sortItems`'. Without them a value of another type never matches and sorts last (a
 * date-shaped string by its text), nothing raises, and a walk through the pages by cursor
 * still returns each row once: a cursor holds the item's own values (`CursorValue`),
 * which `typedKey` reads as it read the row.
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

/** `DATE_SHAPES` in JavaScript, as the order key's regular expression: a digit, three characters, `-`, two, `-`, two (code points, as `LIKE`'s `_` counts them). */
const DATE_SHAPE = /^[0-9].{3}-.{2}-.{2}/su;

/** A date-shaped text of a document, or NULL. */
function shapedDate(raw: string): string {
  return `CASE WHEN ${raw} COLLATE "C" LIKE ANY (${DATE_SHAPES}) THEN ${raw} END`;
}

/** A string's text, NULL for another JSON type. */
function stringText(json: string, raw: string): string {
  return `CASE WHEN jsonb_typeof(${json}) = 'string' THEN ${raw} END`;
}

/**
 * An id's text: a string, or a JSON number whose double is a safe integer, as its digits
 * (what `idText` makes of the number `JSON.parse` gives). Read through the double, so
 * that the id of a cursor made from the item is the row's: a number at most 2^-1075 from
 * 0 is 0, and the `float8` cast only meets numbers it can take.
 */
function idOf(json: string, raw: string): string {
  const n = `(${json})::numeric`;
  const f = `(${n})::float8`;
  return (
    `CASE jsonb_typeof(${json}) WHEN 'string' THEN ${raw} WHEN 'number' THEN ` +
    `CASE WHEN abs(${n}) < 0.5 THEN CASE WHEN abs(${n}) * ${TINY_INVERSE} <= 1 THEN '0' END ` +
    `WHEN abs(${n}) < 9007199254740992 AND ${f} = trunc(${f}) AND abs(${f}) <= ${Number.MAX_SAFE_INTEGER} THEN ${f}::bigint::text END END`
  );
}

/**
 * A JSON number's double (what `JSON.parse` makes of it), NULL for another JSON type or a
 * number past the doubles. The common numbers (normal doubles from 1e-300 to 1e300, by
 * `jsonb`'s own order, which puts every other JSON type outside the two ranges) are cast
 * as they are. The rest are decided exactly, where the `float8` cast would raise (an
 * infinite double, a nonzero number that rounds to 0) or round wrongly (some builds'
 * `strtod`, PGlite's, rounds a negative decimal just past the midpoint of two subnormals
 * to the wrong one, or to -0: the magnitude is cast, then the sign put back).
 */
function doubleOf(json: string): string {
  const n = `(${json})::numeric`;
  const a = `abs(${n})`;
  return (
    `CASE WHEN ${json} BETWEEN '1e-300' AND '1e300' OR ${json} BETWEEN '-1e300' AND '-1e-300' THEN (${json})::float8 ` +
    `WHEN jsonb_typeof(${json}) = 'number' THEN CASE WHEN ${a} * ${TINY_INVERSE} <= 1 THEN 0 WHEN ${a} < ${OVERFLOW} THEN sign(${n})::float8 * ${a}::float8 END END`
  );
}

/**
 * The expression a filter compares for a field of a typed document, which `sqlIndexes`
 * indexes: a number's `jsonb` value itself, whose comparisons with two numbers keep every
 * other JSON type out (`jsonb` orders null and strings before the numbers, booleans,
 * arrays and objects after them); a date's text when it has a date's shape; a string's
 * or an id's text under `COLLATE "C"`, folded with `caseInsensitive`; each NULL for a
 * value of another type (or shape).
 */
export function typedComparand(source: string, path: readonly string[], type: FieldType, comparison: TextComparison): string {
  const { json, raw } = valueAt(source, path);
  switch (type) {
    case 'number':
      return json;
    case 'date':
      return `(${shapedDate(raw)}) COLLATE "C"`;
    case 'string':
      return textKey(stringText(json, raw), comparison);
    case 'id':
      return textKey(idOf(json, raw), comparison);
  }
}

/**
 * The sort key of a field of a typed document (`Dialect.orderKey`), from its `jsonb` and
 * its text: a number's double (`doubleOf`), a date's text written out to the millisecond
 * (`2023-01-09` is `2023-01-09T00:00:00.000`: every canonical spelling of an instant is
 * one key, ordered as the instants), a string's or an id's parts (`textParts`), whose
 * first is the comparand.
 */
export function typedKey(type: FieldType, json: string, raw: string, text: TextComparison): string[] {
  switch (type) {
    case 'number':
      return [doubleOf(json)];
    case 'date':
      // The shape as a regular expression (`DATE_SHAPES` means the same): one term, where the order key is written several times a statement.
      return [`(CASE WHEN ${raw} ~ '^[0-9].{3}-.{2}-.{2}' THEN left(${raw} || substr('T00:00:00.000', length(${raw}) - 9), 23) END) COLLATE "C"`];
    case 'string':
      return textParts(stringText(json, raw), text);
    case 'id':
      return textParts(idOf(json, raw), text);
  }
}

/**
 * The key `typedKey` makes of a cursor value (`CursorValue`, the item's own value), in
 * JavaScript, or `undefined` where it makes NULL: a number's double, an id's text, a
 * string; a date's text (a number being a `Date`'s instant, its ISO text) written out to
 * the millisecond as `typedKey` writes it, its characters counted as Postgres counts them
 * (code points).
 */
function typedKeyOf(value: CursorValue, type: FieldType): number | string | undefined {
  switch (type) {
    case 'number':
      return typeof value === 'number' ? value : undefined;
    case 'date': {
      const text = typeof value === 'number' ? new Date(value).toISOString() : value;
      if (typeof text !== 'string' || !DATE_SHAPE.test(text)) return undefined;
      return Array.from(text + 'T00:00:00.000'.slice(Array.from(text).length - 10))
        .slice(0, 23)
        .join('');
    }
    case 'string':
      return typeof value === 'string' ? value : undefined;
    case 'id':
      return idText(value);
  }
}

/** The typed document dialect (see `Dialect`, and above for what it reads). */
export function typedDialect(target: DocumentTarget): Dialect {
  const document = documentColumn(target);
  return {
    prefix: `${target.document}_`,
    condition: (condition, text, params) => typedCondition(target, condition, text, params),
    orderKey(field, text) {
      const { json, raw } = valueAt(document, field.path);
      return typedKey(field.type, json, raw, text);
    },
    cursorKey(field, value, text, params) {
      const key = typedKeyOf(value, field.type);
      if (key === undefined) return undefined;
      if (field.type === 'number') return [params.add(key, 'float8')];
      return field.type === 'date' ? [`${params.add(key, 'text')} COLLATE "C"`] : textParts(params.add(key, 'text'), text);
    },
    filterIndexes: (table, fields, text) => typedIndexes(table, target, fields, text),
    constraints: (table, fields) => typedConstraints(table, target, fields),
  };
}

/**
 * Each top-level field's comparand (`typedComparand`), which serves its filters, and one
 * GIN `jsonb_path_ops` index on the column, which serves string and id equality anywhere
 * in the document, child arrays included (their other tests are not served by any index
 * of a document: a relational child table is).
 */
function typedIndexes(table: QualifiedName, target: DocumentTarget, fields: readonly Field[], text: TextComparison): Index[] {
  const document = quoteIdentifier(target.document, 'the document column');
  const indexes: Index[] = [];
  // Case-sensitive string and id equality is containment, anywhere in the document.
  if (!text.caseInsensitive) indexes.push({ table, name: 'gin', expression: `${document} jsonb_path_ops`, method: 'gin' });
  for (const field of fields) {
    if (field.array === undefined) indexes.push({ table, name: indexedName(field, text), expression: `(${typedComparand(document, field.names, field.type, text)})` });
  }
  return indexes;
}

/**
 * A canonical date of the typed target, the calendar included (the days of each month,
 * February 29th of the leap years only): `YYYY-MM-DD`, optionally `Thh:mm:ss` and a
 * fraction of 1 to 9 digits, no offset. For `~` and for a jsonpath `like_regex` alike (no
 * backslash, no quote).
 */
const CANONICAL_DATE =
  '^([0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])|[0-9]{4}-(0[13-9]|1[0-2])-(29|30)|[0-9]{4}-(0[13578]|1[02])-31|' +
  '([0-9]{2}(0[48]|[2468][048]|[13579][26])|(0[48]|[2468][048]|[13579][26])00|0000)-02-29)' +
  '(T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]([.][0-9]{1,9})?)?$';

/**
 * The CHECK of each field under which the typed target reads the documents exactly
 * (reference §14.1): its value, where there is one, is JSON null or of the field's JSON
 * type, a date in its canonical form and a real calendar day, an id that is a number an
 * integer of at most 2^53 − 1. In a child array, every element's value alike (a jsonpath
 * over the elements: a CHECK holds no subquery).
 */
function typedConstraints(table: QualifiedName, target: DocumentTarget, fields: readonly Field[]): Constraint[] {
  const document = quoteIdentifier(target.document, 'the document column');
  return fields.map((field) => {
    if (field.array === undefined) {
      const { json, raw } = valueAt(document, field.names);
      return { table, name: field.path, check: topLevelCheck(field.type, json, raw) };
    }
    const list = `${document}->'${field.array}'`;
    const bad = `exists(@) && !(${elementCheck(field.type)})`.replaceAll('@', `@${field.names.map((name) => `."${name}"`).join('')}`);
    return { table, name: field.path, check: `jsonb_typeof(${list}) IS DISTINCT FROM 'array' OR NOT jsonb_path_exists(${list}, '$[*] ? (${bad})')` };
  });
}

/** A top-level value of a type that the typed target reads exactly: NULL (missing) passes, as a CHECK's NULL does. */
function topLevelCheck(type: FieldType, json: string, raw: string): string {
  const kind = `jsonb_typeof(${json})`;
  switch (type) {
    case 'number':
      return `${kind} IN ('number', 'null')`;
    case 'string':
      return `${kind} IN ('string', 'null')`;
    case 'date':
      return `${kind} = 'null' OR ${kind} = 'string' AND ${raw} ~ '${CANONICAL_DATE}'`;
    case 'id':
      return `${kind} IN ('string', 'null') OR ${kind} = 'number' AND (${json})::numeric = trunc((${json})::numeric) AND abs((${json})::numeric) <= ${Number.MAX_SAFE_INTEGER}`;
  }
}

/** The jsonpath of an element's value (`@`) of a type that the typed target reads exactly. */
function elementCheck(type: FieldType): string {
  const kind = (name: string) => `@.type() == "${name}"`;
  switch (type) {
    case 'number':
      return `${kind('number')} || ${kind('null')}`;
    case 'string':
      return `${kind('string')} || ${kind('null')}`;
    case 'date':
      return `${kind('null')} || ${kind('string')} && @ like_regex "${CANONICAL_DATE}"`;
    case 'id':
      return `${kind('string')} || ${kind('null')} || ${kind('number')} && @.floor() == @ && @.abs() <= ${Number.MAX_SAFE_INTEGER}`;
  }
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
