import { checkParamsOption, ownOptions, wrongArgument } from '../arguments/arguments';
import type { Result } from '../diagnostics/diagnostic';
import type { QueryInput } from '../input/decode';
import { resolveLimits } from '../input/limits';
import type { Schema } from '../spec/spec';
import type { ParseOptions } from '../syntax/parse';
import { parseParams } from '../syntax/params';
import { expectSchema } from '../spec/guard';
import type { Filter } from '../filter/filter';
import { sortExample } from './sort';
import { FilterBuilder } from './validate';

/**
 * Options of `check`: those of `parse` (the schema's own `params` are always passed
 * through, and its `sortParam` is the sort parameter), and how text is to be compared.
 */
export interface CheckOptions extends Omit<ParseOptions, 'sortParam'> {
  /**
   * Carried by the filter as its `caseInsensitive`, which `compile`, `sortItems` and
   * `toSql` follow unless told otherwise: the server's choice, made once where the query
   * is checked. Checking itself does not depend on case.
   */
  readonly caseInsensitive?: boolean;
}

/** The keys of `CheckOptions`, for the check of the options argument. */
const CHECK_OPTIONS = ['limits', 'params', 'caseInsensitive'] as const;

/**
 * Parses and validates a query in one step: what a server calls on every request, and
 * a client before sending one. Never throws; every problem is in the `Result`, in query
 * order: the syntax problems of some parameters and the type problems of the others
 * alike (reference §6), at most `limits.maxDiagnostics` of them (reference §12). Past a limit on
 * the whole query nothing else is done (reference §7).
 */
export function check(input: QueryInput, schema: Schema, options?: CheckOptions): Result<Filter> {
  expectSchema('check', schema);
  if (options !== undefined) {
    options = ownOptions('check', options, CHECK_OPTIONS)!;
    checkParamsOption('check', options.params);
    const { caseInsensitive } = options;
    if (caseInsensitive !== undefined && typeof caseInsensitive !== 'boolean') wrongArgument('check', '"caseInsensitive"', 'true or false', caseInsensitive);
  }
  const caseInsensitive = options?.caseInsensitive;
  const params = options?.params === undefined ? schema.params : [...schema.params, ...options.params];
  const limits = resolveLimits(options?.limits, 'check');
  const parsed = parseParams(input, limits, params, schema.sortParam, () => sortExample(schema));
  if (parsed.stopped !== undefined) return { ok: false, errors: [parsed.stopped] };
  // The options' pass-through keys too: a key among them whose value could not be read is not an unknown field.
  const builder = new FilterBuilder(schema, parsed.params, options?.params, limits.maxDiagnostics);
  builder.addAll(parsed.filters);
  return builder.result(caseInsensitive);
}
