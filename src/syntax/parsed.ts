import type { Diagnostic } from '../diagnostics/diagnostic';
import type { Param, PassThroughParams, Path, Sort } from './ast';

/**
 * What parsing makes of each parameter of a query, shared by the steps of `parse`: the
 * sorting of keys (`params.ts`), the parse of the filters (`filters.ts`), the limits on
 * their tokens (`token-limits.ts`) and the explanation of a failed parse (`explain.ts`).
 */

/** One filter parameter, or the sort parameter, after parsing: its node, or what is wrong with it. */
export interface ParsedParam {
  readonly key: string;
  readonly value: string;
  /** Set when a filter parameter parsed without problems. */
  param?: Param | undefined;
  /** Set for the sort parameter: all its keys, or with `problems` the well-formed ones. */
  sort?: Sort | undefined;
  /** Set when it did not. */
  problems?: Diagnostic[] | undefined;
  /** Problems counted but not kept, past `maxDiagnostics`: `problems` ends with one saying how many. */
  omitted?: number | undefined;
  /**
   * The key's path, on a parameter with problems whose key is a path nonetheless: `check`
   * still checks it against the schema (`nosuchfield=%acme%` is an unknown field too).
   */
  path?: Path | undefined;
}

/** Every filter parameter of a query in order, parsed or not, and the pass-through ones. */
export type ParsedQuery =
  | { readonly filters: readonly ParsedParam[]; readonly params: PassThroughParams; readonly stopped?: undefined }
  | { readonly filters?: undefined; readonly params?: undefined; readonly stopped: Diagnostic };

/** Where each parameter sits in the lexed text and in the token vector. */
export interface Layout {
  readonly valueStart: number[];
  /** Index of the token that ends each key (`Key` or `KeyEnd`), and of each ValueEnd token. */
  readonly keyEnd: number[];
  readonly valueEnd: number[];
}

/**
 * Records a problem of a parameter, keeping at most `max` (the query's maxDiagnostics:
 * no more of one parameter can be listed) and counting the others, so that a value of
 * thousands of bad escapes does not keep thousands of diagnostics alive.
 */
export function addProblem(filter: ParsedParam, max: number, problem: Diagnostic): void {
  const problems = (filter.problems ??= []);
  if (problems.length < max) problems.push(problem);
  else filter.omitted = (filter.omitted ?? 0) + 1;
}
