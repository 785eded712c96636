import { decodeQuery, type QueryInput } from '../input/decode';
import type { Limits } from '../input/limits';
import { DEFAULT_SORT_PARAM } from '../values/name';
import type { Param, PassThroughParams } from './ast';
import { parseFilters, type FilterText } from './filters';
import { parsedParam, Problems, type ParsedParam, type ParsedQuery } from './parsed';
import { readSort, repeatedSort, type SortExample } from './sort';

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
  // Each parameter's place: its record, or the index of its text among those parsed together.
  const order: (ParsedParam | number)[] = [];
  const texts: FilterText[] = [];
  let sorted = false;
  for (const raw of decoded.params) {
    if (raw.problems === undefined && raw.key === sortParam) {
      order.push(sortEntry(raw.key, raw.value ?? '', passed, sorted, limits, example));
      sorted = true;
    } else if (raw.problems === undefined && isPassThrough(passThrough, raw.key)) {
      addPassThrough(passed, raw.key, raw.value ?? '');
    } else if (raw.problems !== undefined && raw.problems.some((d) => d.in === 'key')) {
      // A key that could not be read is not parsed: its problems are all there is to say.
      order.push(parsedParam(raw.key, raw.value ?? '', undefined, undefined, raw.problems));
    } else {
      // A value that could not be read does not hide what is wrong with its key, which is parsed.
      order.push(texts.length);
      texts.push({ key: raw.key, value: raw.value ?? '', unreadable: raw.problems });
    }
  }
  const parsed = texts.length === 0 ? [] : parseFilters(texts, limits);
  return { filters: order.map((entry) => (typeof entry === 'number' ? parsed[entry]! : entry)), params: passed, stopped: undefined };
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
      filters.push(parsedParam(param.key, param.value, param, undefined, undefined));
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
    filters.push(sortEntry(param.key, param.value, passed, sorted, limits, example));
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
  if (sorted) return parsedParam(key, value, undefined, undefined, [repeatedSort(key, value, example)]);
  const outcome = readSort(key, value, limits, example);
  if (outcome.problems === undefined) return parsedParam(key, value, undefined, outcome.sort, undefined);
  // With problems, the well-formed keys come along, for check to hold against the schema.
  const problems = new Problems(limits.maxDiagnostics);
  for (const d of outcome.problems) problems.add(d);
  return parsedParam(key, value, undefined, outcome.partial, problems.list());
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
