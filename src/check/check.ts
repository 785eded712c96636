import type { Result } from '../diagnostics/diagnostic';
import type { QueryInput } from '../input/decode';
import type { Schema } from '../schema/define';
import { parse, type ParseOptions } from '../syntax/parse';
import type { Filter } from './filter';
import { validate } from './validate';

/** Options of `check`: those of `parse`; the schema's own `params` are always passed through. */
export type CheckOptions = ParseOptions;

/**
 * Parses and validates a query in one step: what a server calls on every request, and
 * a client before sending one. Never throws; every problem is in the `Result`.
 */
export function check(input: QueryInput, schema: Schema, options?: CheckOptions): Result<Filter> {
  const params = options?.params === undefined ? schema.params : [...schema.params, ...options.params];
  const parsed = parse(input, { ...options, params });
  return parsed.ok ? validate(parsed.value, schema) : parsed;
}
