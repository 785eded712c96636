import { isObject, wrongArgument } from '../diagnostics/arguments';
import type { SCALAR_TYPES, Schema } from '../schema/define';
import { OPERATORS, SORT_DIRECTIONS, type FilterAst } from '../syntax/ast';
import { isFieldName } from '../syntax/path';
import { MAX_MS, MIN_MS } from '../values/date';
import type { Condition, Filter, SortField } from './filter';

/**
 * Checks that `fn` was given a schema made by `defineSchema`, and says what to do with
 * the spec it was given instead (`check(q, { fields: … })`). Structural, and cheap: it
 * runs on every `check`, and a schema from another copy of the package (ESM and CJS
 * loaded side by side) is as good.
 */
export function expectSchema(fn: string, schema: unknown, what = 'the schema'): asserts schema is Schema {
  if (isSchema(schema)) return;
  const spec = isObject(schema) && isObject(schema.fields) && !('spec' in schema);
  const holding = isObject(schema) && !spec ? Object.keys(schema).find((key) => isSchema(schema[key])) : undefined;
  wrongArgument(
    fn,
    what,
    'a schema made by defineSchema()',
    schema,
    spec
      ? 'This is a schema spec: pass defineSchema(spec) instead, and keep the schema to use it for every request.'
      : holding === undefined
        ? undefined
        : `This holds schemas: pass one of them, such as its ${JSON.stringify(holding)}.`,
  );
}

function isSchema(value: unknown): boolean {
  return isObject(value) && typeof (value.fields as Schema['fields'] | undefined)?.get === 'function' && typeof (value.params as Schema['params'] | undefined)?.has === 'function';
}

/** The types a condition can have: those of `FieldType` (written out, not spread, as `OPERATORS` is). */
const CONDITION_TYPES = ['number', 'string', 'date', 'id'] as const satisfies readonly [...typeof SCALAR_TYPES, 'id'];

/** What a caller who passed a `Result` meant: its value, once `ok` was checked. */
const RESULT_HINT = 'This is a Result: check result.ok, then pass result.value.';

/**
 * Checks that `fn` was given a syntax tree as `parse` makes it: a `Query` of `Param`
 * nodes with paths and clauses. A tree built by hand is checked node by node, so that a
 * mistake in it is reported as such rather than as a failure deep inside.
 */
export function expectAst(fn: string, ast: unknown): asserts ast is FilterAst {
  if (!isObject(ast) || ast.type !== 'Query') {
    wrongArgument(fn, 'the syntax tree', 'the value of a successful parse() (type "Query")', ast, resultHint(ast));
  }
  if (!Array.isArray(ast.filters) || !isObject(ast.params)) wrongArgument(fn, 'the syntax tree', 'a Query with "filters" and "params"', ast);
  for (const [i, param] of (ast.filters as unknown[]).entries()) {
    const where = `filters[${i}]`;
    if (!isObject(param) || param.type !== 'Param' || typeof param.key !== 'string' || typeof param.value !== 'string') {
      wrongArgument(fn, where, 'a Param node with a key and a value', param);
    }
    const path = param.path;
    if (!isObject(path) || !Array.isArray(path.names) || path.names.length === 0 || !everyElement(path.names, (n) => isObject(n) && typeof n.value === 'string')) {
      wrongArgument(fn, `${where}.path`, 'a Path node with one Name node or more', path);
    }
    if (!Array.isArray(param.clauses) || param.clauses.length === 0) wrongArgument(fn, `${where}.clauses`, 'a non-empty array of Clause nodes', param.clauses);
    for (const [j, clause] of (param.clauses as unknown[]).entries()) {
      const at = `${where}.clauses[${j}]`;
      if (!isObject(clause) || !(OPERATORS as readonly unknown[]).includes(clause.operator)) wrongArgument(fn, at, `a Clause node with an operator (${OPERATORS.join(', ')})`, clause);
      const operand = clause.operand;
      const fine =
        isObject(operand) &&
        ((operand.type === 'Literal' && typeof operand.value === 'string') ||
          (operand.type === 'Pattern' && Array.isArray(operand.segments) && operand.segments.length >= 2 && everyElement(operand.segments, (s) => typeof s === 'string')));
      if (!fine) wrongArgument(fn, `${at}.operand`, 'a Literal node (a value) or a Pattern node (two segments or more)', operand);
    }
  }
}

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
  if (filter.caseInsensitive !== undefined && typeof filter.caseInsensitive !== 'boolean') {
    wrongArgument(fn, 'the "caseInsensitive" of the filter', 'true, false or absent', filter.caseInsensitive);
  }
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
 * `array.every(test)`, holes included. `every` and `forEach` skip the holes of a sparse
 * array, which the code that then reads the array sees as `undefined`; iterating sees
 * them too. Every test here refuses `undefined`, so the first hole ends the loop: linear
 * in the elements the array holds, whatever its `length`.
 */
function everyElement(array: readonly unknown[], test: (element: unknown) => boolean): boolean {
  for (const element of array) if (!test(element)) return false;
  return true;
}

const isOperator = (op: unknown): boolean => (OPERATORS as readonly unknown[]).includes(op);
const isInstant = (t: unknown): boolean => Number.isSafeInteger(t) && (t as number) >= MIN_MS && (t as number) <= MAX_MS;

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

/** The hint for a `Result` passed where its value belongs (`compile(check(q, schema))`), or nothing. */
export function resultHint(value: unknown): string | undefined {
  return isObject(value) && typeof value.ok === 'boolean' ? RESULT_HINT : undefined;
}
