import type { CaseOptions, Filter } from '../filter/filter';
import { closurePredicate, type Predicate } from './closures';
import { generate, generatedPredicate } from './codegen';
import { expectFilter } from '../filter/guard';
import { ownField, ownOptions, wrongArgument } from '../arguments/arguments';
import { planFilter } from './plan';

/** A compiled filter (defined with the closures, which exist without code generation). */
export type { Predicate };

/** Options of `compile`: `caseInsensitive` as every back end takes it (reference §5), and `codegen`. */
export interface CompileOptions extends CaseOptions {
  /**
   * Generate one function for the filter's shape (the default), under the rules of
   * reference §13; `false` evaluates with closures, which mean the same and generate no
   * code. Where code generation is refused (a Content-Security-Policy without
   * `unsafe-eval`), the closures run whatever this says.
   */
  readonly codegen?: boolean;
}

const OPTION_NAMES = ['caseInsensitive', 'codegen'];

/**
 * Compiles a checked filter into a predicate over plain objects, with the meaning of
 * reference §5: true when the item satisfies every condition. The predicate never throws,
 * and reads only the own properties of the data (a getter on a prototype is never
 * called).
 *
 * The conditions run cheapest first. By default the predicate is one generated
 * function per filter shape (reference §13: no query value is ever written into code; see
 * `generatedSource`), cached, so that compiling a filter for every request stays cheap.
 *
 * @throws TypeError when `filter` is not a Filter (as `check` and `validate` return
 * them) or `options` is not an object of the options above.
 */
export function compile(filter: Filter, options?: CompileOptions): Predicate {
  const { caseInsensitive, codegen } = readOptions(options, 'compile');
  expectFilter('compile', filter);
  const plan = planFilter(filter, caseInsensitive ?? ownField(filter, 'caseInsensitive') === true);
  return (codegen ? generatedPredicate(plan) : undefined) ?? closurePredicate(plan);
}

/**
 * The source of the function `compile` generates for this filter (and for every filter
 * of the same shape): to read, to debug, to review that no query value is in it.
 * The filter's values are the constants `v0`, `v1`… bound from the array `v`.
 *
 * @throws TypeError as `compile` does.
 */
export function generatedSource(filter: Filter, options?: CaseOptions): string {
  const { caseInsensitive } = readOptions(options, 'generatedSource', ['caseInsensitive']);
  expectFilter('generatedSource', filter);
  return generate(planFilter(filter, caseInsensitive ?? ownField(filter, 'caseInsensitive') === true).shape);
}

/** The options, checked; `caseInsensitive` stays `undefined` when not given, for the filter's own to apply. */
function readOptions(options: CompileOptions | undefined, caller: string, names: readonly string[] = OPTION_NAMES): { caseInsensitive: boolean | undefined; codegen: boolean } {
  options = ownOptions(caller, options, names);
  const { caseInsensitive, codegen = true } = options ?? {};
  if (caseInsensitive !== undefined && typeof caseInsensitive !== 'boolean') wrongArgument(caller, '"caseInsensitive"', 'true or false', caseInsensitive);
  if (typeof codegen !== 'boolean') wrongArgument(caller, '"codegen"', 'true or false', codegen);
  return { caseInsensitive, codegen };
}
