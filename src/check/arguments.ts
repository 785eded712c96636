import { isObject, wrongArgument } from '../diagnostics/arguments';
import type { SCALAR_TYPES, Schema } from '../schema/define';
import { OPERATORS, SORT_DIRECTIONS, type FilterAst } from '../syntax/ast';
import type { Filter, SortField } from './filter';

/**
 * Checks that `fn` was given a schema made by `defineSchema`, and says what to do with
 * the spec it was given instead (`check(q, { fields: … })`). Structural, and cheap: it
 * runs on every `check`, and a schema from another copy of the package (ESM and CJS
 * loaded side by side) is as good.
 */
export function expectSchema(fn: string, schema: unknown): asserts schema is Schema {
  if (isObject(schema) && typeof (schema.fields as Schema['fields'] | undefined)?.get === 'function' && typeof (schema.params as Schema['params'] | undefined)?.has === 'function') {
    return;
  }
  const spec = isObject(schema) && isObject(schema.fields) && !('spec' in schema);
  wrongArgument(
    fn,
    'the schema',
    'a schema made by defineSchema()',
    schema,
    spec ? 'This is a schema spec: pass defineSchema(spec) instead, and keep the schema to use it for every request.' : undefined,
  );
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
    wrongArgument(fn, 'the syntax tree', 'the value of a successful parse() (type "Query")', ast, isResult(ast) ? RESULT_HINT : undefined);
  }
  if (!Array.isArray(ast.filters) || !isObject(ast.params)) wrongArgument(fn, 'the syntax tree', 'a Query with "filters" and "params"', ast);
  ast.filters.forEach((param: unknown, i: number) => {
    const where = `filters[${i}]`;
    if (!isObject(param) || param.type !== 'Param' || typeof param.key !== 'string' || typeof param.value !== 'string') {
      wrongArgument(fn, where, 'a Param node with a key and a value', param);
    }
    const path = param.path;
    if (!isObject(path) || !Array.isArray(path.names) || path.names.length === 0 || !path.names.every((n: unknown) => isObject(n) && typeof n.value === 'string')) {
      wrongArgument(fn, `${where}.path`, 'a Path node with one Name node or more', path);
    }
    if (!Array.isArray(param.clauses) || param.clauses.length === 0) wrongArgument(fn, `${where}.clauses`, 'a non-empty array of Clause nodes', param.clauses);
    param.clauses.forEach((clause: unknown, j: number) => {
      const at = `${where}.clauses[${j}]`;
      if (!isObject(clause) || !(OPERATORS as readonly unknown[]).includes(clause.operator)) wrongArgument(fn, at, `a Clause node with an operator (${OPERATORS.join(', ')})`, clause);
      const operand = clause.operand;
      const fine =
        isObject(operand) &&
        ((operand.type === 'Literal' && typeof operand.value === 'string') ||
          (operand.type === 'Pattern' && Array.isArray(operand.segments) && operand.segments.length >= 2 && operand.segments.every((s: unknown) => typeof s === 'string')));
      if (!fine) wrongArgument(fn, `${at}.operand`, 'a Literal node (a value) or a Pattern node (two segments or more)', operand);
    });
  });
}

/**
 * Checks the sort of a filter given to `fn` (`toSql`, `sortItems`): sort fields as `check`
 * makes them, each with its key, a path of property names, a type and a direction. A
 * hand-built sort that holds anything else is refused, rather than ordered by nothing.
 */
export function expectSort(fn: string, sort: unknown): asserts sort is readonly SortField[] {
  if (!Array.isArray(sort)) wrongArgument(fn, 'the sort of the filter', 'an array of sort fields', sort);
  sort.forEach((field: unknown, index: number) => {
    const { key, path, direction, type } = isObject(field) ? field : {};
    const name = typeof key === 'string' ? `the sort key ${JSON.stringify(key)}` : `sort key ${index}`;
    if (!isObject(field) || typeof key !== 'string') wrongArgument(fn, name, 'an object with its key, the field\'s path', field);
    if (!CONDITION_TYPES.includes(type as never)) wrongArgument(fn, `the type of ${name}`, `one of ${CONDITION_TYPES.map((t) => `"${t}"`).join(', ')}`, type);
    if (!(SORT_DIRECTIONS as readonly unknown[]).includes(direction)) wrongArgument(fn, `the direction of ${name}`, '"asc" or "desc"', direction);
    if (!Array.isArray(path) || path.length === 0 || !path.every((part) => typeof part === 'string')) {
      wrongArgument(fn, `the path of ${name}`, 'a non-empty array of property names', path);
    }
  });
}

/** Checks that `fn` was given a syntax tree or a checked filter, at its top level. */
export function expectAstOrFilter(fn: string, query: unknown): asserts query is FilterAst | Filter {
  if (isObject(query) && query.type === 'Filter') {
    if (!Array.isArray(query.conditions) || !isObject(query.params)) wrongArgument(fn, 'the filter', 'a Filter with "conditions" and "params"', query);
    query.conditions.forEach((c: unknown, i: number) => {
      if (!isObject(c) || typeof c.key !== 'string' || !CONDITION_TYPES.includes(c.type as never) || !Array.isArray(c.tests) || !c.tests.every(isObject)) {
        wrongArgument(fn, `conditions[${i}]`, `a condition with a key, a type (${CONDITION_TYPES.join(', ')}) and tests`, c);
      }
    });
    return;
  }
  if (isObject(query) && query.type === 'Query') return expectAst(fn, query);
  wrongArgument(fn, 'its argument', 'a Filter (the value of a successful check()) or a syntax tree (of parse())', query, isResult(query) ? RESULT_HINT : undefined);
}

/** The hint for a `Result` passed where its value belongs (`compile(check(q, schema))`), or nothing. */
export function resultHint(value: unknown): string | undefined {
  return isResult(value) ? RESULT_HINT : undefined;
}

function isResult(value: unknown): boolean {
  return isObject(value) && typeof value.ok === 'boolean';
}
