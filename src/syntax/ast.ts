import type { Span } from '../diagnostics/diagnostic';

/** The comparison operators, written as a lower-case prefix with a colon (`gte:5`). */
export const COMPARISON_OPERATORS = ['gt', 'gte', 'lt', 'lte'] as const;
/** A comparison operator. */
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number];
/**
 * Every operator of a clause; `eq` is written as no prefix at all. Written out, and
 * held to `eq` and the comparisons by the compiler: a bundler keeps a spread at the top
 * of a module in every bundle, whether the list is used or not.
 */
export const OPERATORS = ['eq', 'gt', 'gte', 'lt', 'lte'] as const satisfies readonly ['eq', ...typeof COMPARISON_OPERATORS];
/** An operator of a clause. */
export type Operator = (typeof OPERATORS)[number];

/** One name of a dot path. `span` is in the decoded key. */
export interface Name {
  readonly type: 'Name';
  readonly value: string;
  readonly span: Span;
}

/** The key of a filter parameter: `customerRef.id` has two names. `span` is in the decoded key. */
export interface Path {
  readonly type: 'Path';
  readonly names: readonly Name[];
  readonly span: Span;
}

/** An operand without wildcards: `value` is the text it matches, escapes resolved. */
export interface Literal {
  readonly type: 'Literal';
  readonly value: string;
  readonly span: Span;
}

/**
 * An operand with at least one `%` wildcard. `segments` are the literal texts
 * between the wildcards (escapes resolved, so a `\%` is a `%` inside a segment), and
 * there is one wildcard between each two: `%acme%` is `['', 'acme', '']`.
 */
export interface Pattern {
  readonly type: 'Pattern';
  readonly segments: readonly string[];
  readonly span: Span;
}

/** What a clause compares with. */
export type Operand = Literal | Pattern;

/** One `;`-separated part of a value: an operator and an operand. `span` is in the decoded value. */
export interface Clause {
  readonly type: 'Clause';
  readonly operator: Operator;
  readonly operand: Operand;
  readonly span: Span;
}

/** One filter parameter: a path and its clauses, all of which must hold. `span` covers the value. */
export interface Param {
  readonly type: 'Param';
  /** The key as sent, decoded. */
  readonly key: string;
  /** The value as sent, decoded: what the spans of the clauses index. Like spans, it is not part of the meaning. */
  readonly value: string;
  readonly path: Path;
  readonly clauses: readonly Clause[];
  readonly span: Span;
}

/** The directions of a sort key: `name` ascending, `-name` descending. */
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
/** A sort direction. */
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** One key of the sort parameter: `-issueDate`. Spans are in the decoded value of the sort parameter. */
export interface SortKey {
  readonly type: 'SortKey';
  readonly path: Path;
  readonly direction: SortDirection;
  readonly span: Span;
}

/** The sort parameter (`orderBy=-issueDate,totalAmount`, reference §9): its keys in order, the first deciding first. */
export interface Sort {
  readonly type: 'Sort';
  /** The key as sent: the schema's sort parameter, `orderBy` by default. */
  readonly key: string;
  /** The value as sent, decoded: what the spans index. */
  readonly value: string;
  readonly keys: readonly SortKey[];
}

/** Pass-through request parameters: an array where the key was repeated. */
export type PassThroughParams = Readonly<Record<string, string | readonly string[]>>;

/**
 * The syntax tree of a whole query: its filter parameters in order, the request
 * parameters as sent (the sort parameter among them), and the sort parameter parsed.
 */
export interface FilterAst {
  readonly type: 'Query';
  readonly filters: readonly Param[];
  readonly params: PassThroughParams;
  readonly sort?: Sort;
}

/** Whether an operand has wildcards; `false` for anything that is not a Pattern node. */
export function isPattern(operand: Operand): operand is Pattern {
  return typeof operand === 'object' && operand !== null && operand.type === 'Pattern';
}

/** Whether an operator is one of the comparison operators; `false` for `eq` and for anything else. */
export function isComparison(operator: Operator): operator is ComparisonOperator {
  return (COMPARISON_OPERATORS as readonly string[]).includes(operator);
}
