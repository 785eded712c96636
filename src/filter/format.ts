import type { FilterAst } from '../syntax/ast';
import { formatAst, formatQuery, type PrintableClause, type PrintableParam } from '../syntax/format';
import { formatDate } from '../values/date';
import { formatNumber } from '../values/number';
import { expectAstOrFilter } from './guard';
import type { Condition, Filter } from './filter';

/**
 * Prints a syntax tree or a checked filter as the canonical query string (pass-through
 * parameters first, then the filters; escapes and quotes only where needed).
 * `check(format(filter), schema)` gives an equal filter back.
 */
export function format(query: FilterAst | Filter): string {
  expectAstOrFilter('format', query);
  return formatChecked(query);
}

/**
 * `format` without the check of its argument, for a filter this package built itself
 * (the client's builder): its bundle then holds none of the argument checks.
 */
export function formatChecked(query: FilterAst | Filter): string {
  return query.type === 'Query' ? formatAst(query) : formatQuery(query.params, query.conditions.map(printable));
}

function printable(condition: Condition): PrintableParam {
  return { key: condition.key, clauses: clauses(condition) };
}

function clauses(condition: Condition): PrintableClause[] {
  switch (condition.type) {
    case 'number':
      return condition.tests.map((t) => ({ operator: t.op, operand: { type: 'Literal', value: formatNumber(t.value) } }));
    case 'date':
      return condition.tests.map((t) => ({ operator: t.op, operand: { type: 'Literal', value: formatDate(t.value) } }));
    case 'string':
    case 'id':
      return condition.tests.map((t) => ({
        operator: 'eq',
        operand: t.op === 'eq' ? { type: 'Literal', value: t.value } : { type: 'Pattern', segments: t.segments },
      }));
  }
}
