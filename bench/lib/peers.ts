/**
 * What a user would use instead of qsfilter to read a query, and how each answer is
 * brought to one shape so that the scenarios can check that both sides agree before
 * timing them.
 */
import { parse as parseRsql } from '@rsql/parser';
import qs from 'qs';
import type { FilterAst } from '../../src/index';
import { summarize, type AstSummary, type ClauseSummary } from '../../test/support/summary';

/** @rsql/ast is only a dependency of @rsql/parser: its node type is taken from the parser's signature. */
type ExpressionNode = ReturnType<typeof parseRsql>;

export { summarize, type AstSummary };

/** Decoded key/value pairs, sorted: the multiset every decoder must agree on. */
export type Pairs = [string, string][];

function sorted(pairs: Pairs): Pairs {
  return pairs.sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
}

/** The decoded pairs qsfilter saw: every filter parameter's key and value, and the pass-through ones. */
export function astPairs(ast: FilterAst): Pairs {
  const pairs: Pairs = ast.filters.map((p) => [p.key, p.value]);
  for (const [key, value] of Object.entries(ast.params)) {
    for (const v of typeof value === 'string' ? [value] : value) pairs.push([key, v]);
  }
  return sorted(pairs);
}

// ---------------------------------------------------------------- URLSearchParams: the decoding floor

/** The floor: decoding the query and touching every pair, with no grammar at all. */
export function urlSearchParams(query: string): number {
  let n = 0;
  for (const [key, value] of new URLSearchParams(query)) n += key.length + value.length;
  return n;
}

export function urlSearchParamsPairs(query: string): Pairs {
  return sorted([...new URLSearchParams(query)]);
}

// ---------------------------------------------------------------- qs

export function qsParse(query: string): unknown {
  return qs.parse(query, { ignoreQueryPrefix: true });
}

export function qsPairs(query: string): Pairs {
  const pairs: Pairs = [];
  for (const [key, value] of Object.entries(qsParse(query) as Record<string, string | string[]>)) {
    for (const v of typeof value === 'string' ? [value] : value) pairs.push([key, v]);
  }
  return sorted(pairs);
}

// ---------------------------------------------------------------- the naive split parser

const OPERATORS = new Set(['gt', 'gte', 'lt', 'lte']);

function decode(s: string): string {
  return decodeURIComponent(s.includes('+') ? s.replaceAll('+', ' ') : s);
}

/**
 * What one writes in half an hour without diagnostics: split on `&`, `=`, `;` and the
 * operator's `:`, decodeURIComponent, strip quotes, split the operand at unescaped `%`.
 * It does not look at quotes when splitting on `;`, reports nothing (a bad `%` throws
 * from decodeURIComponent) and checks no limits.
 */
export function naiveParse(query: string, passThrough: ReadonlySet<string>): AstSummary {
  const filters: AstSummary['filters'] = [];
  const params: Record<string, string | string[]> = {};
  const s = query.charCodeAt(0) === 63 ? query.slice(1) : query;
  for (const part of s.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = decode(eq === -1 ? part : part.slice(0, eq));
    const value = eq === -1 ? '' : decode(part.slice(eq + 1));
    if (passThrough.has(key)) {
      const previous = params[key];
      params[key] = previous === undefined ? value : typeof previous === 'string' ? [previous, value] : [...previous, value];
      continue;
    }
    const clauses: ClauseSummary[] = [];
    for (const clause of value.split(';')) {
      let op = 'eq';
      let operand = clause;
      const colon = clause.indexOf(':');
      if (colon > 0 && OPERATORS.has(clause.slice(0, colon))) {
        op = clause.slice(0, colon);
        operand = clause.slice(colon + 1);
      }
      if (operand.length >= 2 && operand.startsWith('"') && operand.endsWith('"')) operand = operand.slice(1, -1);
      clauses.push([op, operandOf(operand)]);
    }
    filters.push({ key, path: key.split('.'), clauses });
  }
  return { filters, params };
}

/** Unescapes `\x` and splits at unescaped `%`: a literal, or the segments between wildcards. */
function operandOf(text: string): string | string[] {
  if (!text.includes('%') && !text.includes('\\')) return text;
  const segments: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') current += text[++i] ?? '';
    else if (c === '%') {
      segments.push(current);
      current = '';
    } else current += c;
  }
  if (segments.length === 0) return current;
  segments.push(current);
  return segments;
}

// ---------------------------------------------------------------- RSQL

export function rsqlParse(expression: string): ExpressionNode {
  return parseRsql(expression);
}

/** One comparison, flattened: `[key, operator, literal or wildcard segments]`. */
export type Comparison = [string, string, string | string[]];

const RSQL_OPERATORS: Record<string, string> = { '==': 'eq', '>': 'gt', '>=': 'gte', '<': 'lt', '<=': 'lte' };

/** The comparisons of an RSQL AND-expression, left to right; `*` is the wildcard. */
export function rsqlComparisons(node: ExpressionNode): Comparison[] {
  if (node.type === 'LOGIC') {
    if (node.operator !== ';' && node.operator !== 'and') throw new Error(`RSQL corpus uses only AND, not ${node.operator}`);
    return [...rsqlComparisons(node.left), ...rsqlComparisons(node.right)];
  }
  const value = node.right.value;
  if (typeof value !== 'string') throw new Error('RSQL corpus uses no lists');
  return [[node.left.selector, RSQL_OPERATORS[node.operator] ?? node.operator, value.includes('*') ? value.split('*') : value]];
}

/** The comparisons of a qsfilter AST in the same flat form. */
export function astComparisons(summary: AstSummary): Comparison[] {
  return summary.filters.flatMap((f) => f.clauses.map(([op, operand]): Comparison => [f.key, op, operand]));
}
