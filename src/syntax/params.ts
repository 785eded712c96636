import { omission } from '../diagnostics/diagnostic';
import { decodeQuery, type QueryInput } from '../input/decode';
import type { Limits } from '../input/limits';
import type { Param, PassThroughParams } from './ast';
import { DEFAULT_SORT_PARAM } from './path';
import { checkKey } from './explain';
import { parseFilters } from './filters';
import { addProblem, type ParsedParam, type ParsedQuery } from './parsed';
import { readSort, repeatedSort, type SortExample } from './sort';
import { overDepth } from './token-limits';

// Which key of a query is a filter, a pass-through request parameter or the sort
// parameter is decided here, once, for `parse` and `check` (from the decoded query) and
// for `validate` (from a syntax tree parsed without knowing the schema's sort parameter).

/**
 * Parses every parameter and keeps the outcome per parameter, so that a caller (`check`)
 * can go on with the parameters that parsed and report every problem of the query.
 */
export function parseParams(input: QueryInput, limits: Limits, params: Keys | undefined, sortParam: string | undefined, example?: SortExample): ParsedQuery {
  const passThrough = params ?? EMPTY_KEYS;
  const decoded = decodeQuery(input, limits);
  if (decoded.stopped !== undefined) return decoded;
  const passed: Record<string, string | string[]> = {};
  const filters: ParsedParam[] = [];
  const pending: ParsedParam[] = [];
  let sorted = false;
  for (const raw of decoded.params) {
    if (raw.problems === undefined && raw.key === sortParam) {
      filters.push(sortEntry(raw.key, raw.value ?? '', passed, sorted, limits, example));
      sorted = true;
      continue;
    }
    if (raw.problems === undefined && isPassThrough(passThrough, raw.key)) {
      addPassThrough(passed, raw.key, raw.value ?? '');
      continue;
    }
    const filter = parsedParam(raw.key, raw.value ?? '');
    filters.push(filter);
    if (raw.problems === undefined) {
      if (!overDepth(filter, limits)) pending.push(filter);
      continue;
    }
    // A value that could not be read does not hide what is wrong with its key, which comes first.
    if (!raw.problems.some((d) => d.in === 'key') && !overDepth(filter, limits)) checkKey(filter, limits.maxDiagnostics);
    for (const d of raw.problems) addProblem(filter, limits.maxDiagnostics, d);
  }
  if (pending.length > 0) parseFilters(pending, limits);
  for (const filter of filters) if (filter.omitted !== undefined) filter.problems!.push(omission(filter.omitted, limits.maxDiagnostics));
  return { filters, params: passed, stopped: undefined };
}

/**
 * A parameter's record, every property its own from the start: its optional properties
 * are read whether set or not, and one added to `Object.prototype` (`param`, `problems`)
 * must not read as set. (One shape for all records, too.)
 */
function parsedParam(key: string, value: string): ParsedParam {
  return { key, value, param: undefined, sort: undefined, problems: undefined, omitted: undefined, path: undefined };
}

/**
 * The parameters of a syntax tree sorted out as `parseParams` sorts those of a query: what
 * `validate` goes through, for a tree that `parse` made without knowing the schema's
 * request parameters (`passThrough`) or its sort parameter, and so parsed as filters.
 * Their values join the request parameters; the tree itself is not changed.
 */
export function sortOutAst(
  ast: { readonly filters: readonly Param[]; readonly params: PassThroughParams },
  passThrough: Keys,
  sortParam: string,
  limits: Limits,
  example?: SortExample,
): ParsedQuery & { readonly stopped?: undefined } {
  let passed: Record<string, string | string[]> | undefined;
  let sorted = false;
  const filters: ParsedParam[] = [];
  for (const param of ast.filters) {
    const sort = param.key === sortParam;
    if (!sort && !isPassThrough(passThrough, param.key)) {
      filters.push({ key: param.key, value: param.value, param });
      continue;
    }
    // A copy, made once, so that the tree's own params (and an array among them) stay as they are.
    passed ??= { ...(ast.params as Record<string, string | string[]>) };
    const previous = Object.hasOwn(passed, param.key) ? passed[param.key] : undefined;
    if (Array.isArray(previous) && previous === ast.params[param.key]) passed[param.key] = [...previous];
    if (!sort) {
      addPassThrough(passed, param.key, param.value);
      continue;
    }
    const entry = sortEntry(param.key, param.value, passed, sorted, limits, example);
    if (entry.omitted !== undefined) entry.problems!.push(omission(entry.omitted, limits.maxDiagnostics));
    filters.push(entry);
    sorted = true;
  }
  return { filters, params: passed ?? ast.params };
}

/**
 * One sort parameter of a query: its value kept with the request parameters, and read as
 * sort keys, unless the query already had one (`sorted`), which is refused.
 */
function sortEntry(key: string, value: string, passed: Record<string, string | string[]>, sorted: boolean, limits: Limits, example: SortExample | undefined): ParsedParam {
  addPassThrough(passed, key, value);
  const entry = parsedParam(key, value);
  if (sorted) {
    addProblem(entry, limits.maxDiagnostics, repeatedSort(key, value, example));
    return entry;
  }
  const outcome = readSort(key, value, limits, example);
  // With problems, the well-formed keys come along, for check to hold against the schema.
  entry.sort = outcome.sort ?? outcome.partial;
  for (const d of outcome.problems ?? []) addProblem(entry, limits.maxDiagnostics, d);
  return entry;
}

/**
 * The sort parameter of `parse` given its `params` option: `orderBy`, unless the caller
 * passes it through: a schema that sorts with another name may declare `orderBy` as a
 * request parameter (reference §9).
 */
export function defaultSortParam(params: Keys | undefined): string | undefined {
  return isPassThrough(params ?? EMPTY_KEYS, DEFAULT_SORT_PARAM) ? undefined : DEFAULT_SORT_PARAM;
}

const EMPTY_KEYS: readonly string[] = [];

/** Pass-through keys as given: an array (a short one: a scan is cheaper than building a Set per call) or a Set. */
export type Keys = readonly string[] | ReadonlySet<string>;

function isPassThrough(keys: Keys, key: string): boolean {
  return Array.isArray(keys) ? (keys as readonly string[]).includes(key) : (keys as ReadonlySet<string>).has(key);
}

function addPassThrough(params: Record<string, string | string[]>, key: string, value: string): void {
  // Own properties only: a key such as "toString" must not find Object.prototype's.
  const previous = Object.hasOwn(params, key) ? params[key] : undefined;
  if (previous === undefined) params[key] = value;
  else if (typeof previous === 'string') params[key] = [previous, value];
  else previous.push(value);
}
