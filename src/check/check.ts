import type { Result } from '../diagnostics/diagnostic';
import type { QueryInput } from '../input/decode';
import type { Schema } from '../schema/define';
import { parseParams, type ParseOptions } from '../syntax/parse';
import type { Filter } from './filter';
import { FilterBuilder } from './validate';

/**
 * Options of `check`: those of `parse`; the schema's own `params` are always passed
 * through, and its `sortParam` is the sort parameter.
 */
export type CheckOptions = Omit<ParseOptions, 'sortParam'>;

/**
 * Parses and validates a query in one step: what a server calls on every request, and
 * a client before sending one. Never throws; every problem is in the `Result`, in query
 * order: the syntax problems of some parameters and the type problems of the others
 * alike (SPEC §6). Past a limit on the whole query nothing else is done (SPEC §7).
 */
export function check(input: QueryInput, schema: Schema, options?: CheckOptions): Result<Filter> {
  const params = options?.params === undefined ? schema.params : [...schema.params, ...options.params];
  const parsed = parseParams(input, options?.limits, params, schema.sortParam);
  if (parsed.stopped !== undefined) return { ok: false, errors: [parsed.stopped] };
  const builder = new FilterBuilder(schema, parsed.params);
  for (const filter of parsed.filters) {
    if (filter.param !== undefined) builder.add(filter.param);
    if (filter.problems !== undefined) builder.reject(filter.problems);
    // A sort parameter's keys, all or the well-formed ones, are held against the schema either way.
    if (filter.sort !== undefined) builder.sortBy(filter.sort);
  }
  return builder.result();
}
