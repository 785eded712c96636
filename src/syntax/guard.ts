import { everyElement, isObject, resultHint, wrongArgument } from '../arguments/arguments';
import { OPERATORS, type FilterAst } from './ast';

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
