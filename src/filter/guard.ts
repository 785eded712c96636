import { everyElement, isObject, ownField, resultHint, wrongArgument } from '../arguments/arguments';
import type { SCALAR_TYPES } from '../spec/spec';
import { OPERATORS, SORT_DIRECTIONS, type FilterAst } from '../syntax/ast';
import { expectAst } from '../syntax/guard';
import { isFieldName } from '../values/name';
import { isInstant } from '../values/date';
import { fitsKey } from '../values/order';
import type { Condition, Filter, SortField } from './filter';

/** The types a condition can have: those of `FieldType` (written out, not spread, as `OPERATORS` is). */
const CONDITION_TYPES = ['number', 'string', 'date', 'id'] as const satisfies readonly [...typeof SCALAR_TYPES, 'id'];

/**
 * Checks the sort of a filter given to `fn` (`toSql`, `sortItems`): sort fields as `check`
 * makes them, each with its key, a path of property names, a type and a direction. A
 * hand-built sort that holds anything else is refused, rather than ordered by nothing.
 */
export function expectSort(fn: string, sort: unknown): asserts sort is readonly SortField[] {
  if (!Array.isArray(sort)) wrongArgument(fn, 'the sort of the filter', 'an array of sort fields', sort);
  for (const [index, field] of (sort as unknown[]).entries()) {
    const { key, path, direction, type } = isObject(field) ? field : {};
    const name = typeof key === 'string' ? `the sort key ${JSON.stringify(key)}` : `sort key ${index}`;
    if (!isObject(field) || typeof key !== 'string') wrongArgument(fn, name, 'an object with its key, the field\'s path', field);
    if (!CONDITION_TYPES.includes(type as never)) wrongArgument(fn, `the type of ${name}`, `one of ${CONDITION_TYPES.map((t) => `"${t}"`).join(', ')}`, type);
    if (!(SORT_DIRECTIONS as readonly unknown[]).includes(direction)) wrongArgument(fn, `the direction of ${name}`, '"asc" or "desc"', direction);
    if (!Array.isArray(path) || path.length === 0 || !everyElement(path, (part) => typeof part === 'string')) {
      wrongArgument(fn, `the path of ${name}`, 'a non-empty array of property names', path);
    }
  }
}

/**
 * Checks that `fn` was given a checked filter (`compile`, `generatedSource`, `toSql`,
 * `format`): a Filter whose conditions each have a key, a type, a path of field names
 * (reference §3), and tests of that type with values as `validate` makes them, and whose
 * `caseInsensitive`, if any, is a boolean (its sort is `expectSort`'s, for those that
 * order). A hand-built filter is checked as closely as one from `check`, so that nothing
 * it holds reaches generated code or SQL unread: never `undefined` in the text, never a
 * test silently dropped. Other fields (`params`, and whatever later versions add) are
 * left alone.
 */
export function expectFilter(fn: string, filter: unknown): asserts filter is Filter {
  if (!isObject(filter) || filter.type !== 'Filter') {
    const hint = isObject(filter) && filter.type === 'Query' ? 'This is a syntax tree: validate(ast, schema) makes its Filter.' : resultHint(filter);
    wrongArgument(fn, 'the filter', 'a Filter (the value of a successful check() or validate())', filter, hint);
  }
  if (!Array.isArray(filter.conditions)) wrongArgument(fn, 'the "conditions" of the filter', 'an array', filter.conditions);
  const caseInsensitive = ownField(filter, 'caseInsensitive');
  if (caseInsensitive !== undefined && typeof caseInsensitive !== 'boolean') {
    wrongArgument(fn, 'the "caseInsensitive" of the filter', 'true, false or absent', caseInsensitive);
  }
  const page = ownField(filter, 'page');
  if (page !== undefined) expectPage(fn, page, Array.isArray(filter.sort) ? (filter.sort as SortField[]) : []);
  for (const [index, condition] of (filter.conditions as unknown[]).entries()) {
    const { key, type, path, array, tests } = isObject(condition) ? condition : {};
    const name = typeof key === 'string' ? `the condition on ${JSON.stringify(key)}` : `condition ${index}`;
    if (!isObject(condition) || typeof key !== 'string') wrongArgument(fn, name, 'an object with its key, the parameter\'s name as sent', condition);
    if (!CONDITION_TYPES.includes(type as never)) wrongArgument(fn, `the type of ${name}`, `one of ${CONDITION_TYPES.map((t) => `"${t}"`).join(', ')}`, type);
    if (!Array.isArray(path) || path.length === 0) wrongArgument(fn, `the path of ${name}`, 'a non-empty array of field names', path);
    // A loop, not find(): find's answer for an undefined name is its answer for none.
    for (const part of path as unknown[]) if (!isFieldName(part)) wrongArgument(fn, `each name in the path of ${name}`, 'a field name (reference §3)', part);
    if (Object.hasOwn(condition, 'array') && array !== undefined && !isFieldName(array)) wrongArgument(fn, `the array of ${name}`, 'a field name (reference §3)', array);
    // validate never makes a condition without tests, which would mean "is a value of the type".
    if (!Array.isArray(tests) || tests.length === 0) wrongArgument(fn, `the tests of ${name}`, 'a non-empty array', tests);
    const test = TEST_OF[type as Condition['type']];
    for (const [i, t] of (tests as unknown[]).entries()) if (!test.valid(t)) wrongArgument(fn, `test ${i} of ${name}`, test.expected, t);
  }
}

/**
 * Checks the page of a filter given to `fn` (every back end, through `expectFilter`): a whole `limit` of at
 * least 1, a whole `offset` of at least 0, a `cursor`, if any, naming one of the sort keys,
 * and an `after`, if any, with one value per sort key, each of its key's type
 * (`CursorValue`), and the cursor key among the sort keys.
 */
function expectPage(fn: string, page: unknown, sort: readonly SortField[]): asserts page is NonNullable<Filter['page']> {
  if (!isObject(page)) wrongArgument(fn, 'the "page" of the filter', '{ limit, offset, after?, cursor? }', page);
  if (!Number.isSafeInteger(page.limit) || (page.limit as number) < 1) wrongArgument(fn, 'the "limit" of the page', 'a whole number of at least 1', page.limit);
  if (!Number.isSafeInteger(page.offset) || (page.offset as number) < 0) wrongArgument(fn, 'the "offset" of the page', 'a whole number of at least 0', page.offset);
  const cursor = ownField(page, 'cursor');
  if (cursor !== undefined && (!isObject(cursor) || typeof cursor.schema !== 'string' || !sort.some((field) => field.key === cursor.key))) {
    wrongArgument(fn, 'the "cursor" of the page', '{ key, schema }, as check makes it: the cursor key, one of the sort keys, and the schema\'s print', cursor);
  }
  const after = ownField(page, 'after');
  if (after === undefined) return;
  if (!isObject(after) || !Array.isArray(after.values) || typeof after.key !== 'string') wrongArgument(fn, 'the "after" of the page', '{ values, key }, as check makes it', after);
  const values = after.values as unknown[];
  if (values.length !== sort.length) wrongArgument(fn, 'the values of "after"', `one per sort key (${sort.length})`, values);
  for (const [i, field] of sort.entries()) {
    if (!fitsKey(values[i], field.type)) wrongArgument(fn, `the value of "after" for the sort key ${JSON.stringify(field.key)}`, `a value of type ${field.type}, or null`, values[i]);
  }
  if (!sort.some((field) => field.key === after.key)) wrongArgument(fn, 'the "key" of "after"', 'the cursor key, one of the sort keys', after.key);
}

const isOperator = (op: unknown): boolean => (OPERATORS as readonly unknown[]).includes(op);

const NUMBER_TEST = {
  valid: (t: unknown): boolean => isObject(t) && isOperator(t.op) && typeof t.value === 'number' && Number.isFinite(t.value),
  expected: '{ op, value } with an operator (eq, gt, gte, lt, lte) and a finite number',
};
const TEXT_TEST = {
  valid: (t: unknown): boolean =>
    isObject(t) &&
    ((t.op === 'eq' && typeof t.value === 'string') ||
      (t.op === 'like' && Array.isArray(t.segments) && t.segments.length >= 2 && everyElement(t.segments, (s) => typeof s === 'string'))),
  expected: '{ op: "eq", value } with a string, or { op: "like", segments } with two strings or more',
};
/** What each type of condition holds as its tests (reference §5, §6). */
const TEST_OF: Record<Condition['type'], { valid: (test: unknown) => boolean; expected: string }> = {
  number: NUMBER_TEST,
  string: TEXT_TEST,
  id: TEXT_TEST,
  date: {
    valid: (t) => isObject(t) && isOperator(t.op) && isObject(t.value) && isInstant(t.value.start) && isInstant(t.value.end) && (t.value.start as number) < (t.value.end as number),
    expected: '{ op, value } with an operator (eq, gt, gte, lt, lte) and a DateRange: whole milliseconds from 0000-01-01 to 10000-01-01, start before end',
  },
};

/** Checks that `fn` was given a syntax tree or a checked filter, at its top level. */
export function expectAstOrFilter(fn: string, query: unknown): asserts query is FilterAst | Filter {
  if (isObject(query) && query.type === 'Filter') {
    expectFilter(fn, query);
    if (!isObject(query.params)) wrongArgument(fn, 'the "params" of the filter', 'an object of the parameters passed through', query.params);
    for (const [key, value] of Object.entries(query.params)) {
      if (!isParamValue(value)) wrongArgument(fn, `the parameter ${JSON.stringify(key)} of the filter`, 'a string or an array of strings', value);
    }
    return;
  }
  if (isObject(query) && query.type === 'Query') return expectAst(fn, query);
  wrongArgument(fn, 'its argument', 'a Filter (the value of a successful check()) or a syntax tree (of parse())', query, resultHint(query));
}

/** A pass-through parameter's value as `check` keeps it: the text sent, or the texts of a repeated key. */
function isParamValue(value: unknown): boolean {
  if (typeof value === 'string') return true;
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return false;
  return true;
}
