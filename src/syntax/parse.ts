import { checkParamsOption, ownOptions, wrongArgument } from '../arguments/arguments';
import { capDiagnostics, type Diagnostic, type Result } from '../diagnostics/diagnostic';
import type { QueryInput } from '../input/decode';
import { resolveLimits, type Limits } from '../input/limits';
import type { FilterAst, Param, Sort } from './ast';
import { defaultSortParam, parseParams } from './params';
import { isParamName } from '../values/name';

/** Options of `parse` (and of `check`, which passes them on). */
export interface ParseOptions {
  /** Overrides of the limits of reference §7. */
  readonly limits?: Partial<Limits>;
  /**
   * Keys that are plain request parameters, passed through untouched instead of
   * parsed as filters (`check` adds the schema's `params`).
   */
  readonly params?: readonly string[] | ReadonlySet<string>;
  /**
   * The name of the sort parameter (reference §9), whose value is read as sort keys and also
   * kept, as sent, with the request parameters. `orderBy` by default; `check` uses the
   * schema's.
   */
  readonly sortParam?: string;
}

/** The keys of `ParseOptions`, for the check of the options argument. */
const PARSE_OPTIONS = ['limits', 'params', 'sortParam'] as const;

/**
 * Parses a query into its syntax tree. Never throws: every problem of every parameter
 * is a diagnostic in one `Result`, in query order.
 */
export function parse(input: QueryInput, options?: ParseOptions): Result<FilterAst> {
  options = ownOptions('parse', options, PARSE_OPTIONS);
  checkParamsOption('parse', options?.params);
  const given = options?.sortParam;
  // Checked as defineSchema checks its own: a sort parameter named "__proto__" would lose its value in params.
  if (given !== undefined && (typeof given !== 'string' || !isParamName(given))) wrongArgument('parse', '"sortParam"', 'the name of the sort parameter (not empty, not "__proto__")', given);
  const sortParam = given ?? defaultSortParam(options?.params);
  const limits = resolveLimits(options?.limits, 'parse');
  const parsed = parseParams(input, limits, options?.params, sortParam);
  if (parsed.stopped !== undefined) return { ok: false, errors: [parsed.stopped] };
  const errors: Diagnostic[] = [];
  for (const f of parsed.filters) if (f.problems !== undefined) for (const d of f.problems) errors.push(d);
  if (errors.length > 0) return { ok: false, errors: capDiagnostics(errors, limits.maxDiagnostics) };
  const filters: Param[] = [];
  let sort: Sort | undefined;
  for (const f of parsed.filters) {
    if (f.param !== undefined) filters.push(f.param);
    else if (f.sort !== undefined) sort = f.sort;
  }
  // Set on the literal rather than spread into a copy (as in FilterBuilder.result).
  const ast: { -readonly [K in keyof FilterAst]: FilterAst[K] } = { type: 'Query', filters, params: parsed.params };
  if (sort !== undefined) ast.sort = sort;
  return { ok: true, value: ast };
}
