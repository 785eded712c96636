import type { IToken } from './chevrotain';
import { checkOptions, wrongArgument } from '../diagnostics/arguments';
import { capDiagnostics, diagnostic, excerpt, omission, quote, type Diagnostic, type Location, type Result, type Span } from '../diagnostics/diagnostic';
import { decodeQuery, type QueryInput } from '../input/decode';
import { resolveLimits, type Limits } from '../input/limits';
import type { Clause, FilterAst, Param, PassThroughParams, Path, Sort } from './ast';
import { filterLexer, filterParser, pathOf } from './parser';
import { isParamName, PATH_HINT, pathProblem, RESERVED_NAMES } from './path';
import { readSort, repeatedSort, type SortExample } from './sort';
import { BadEscape, CloseQuote, Key, KeyEnd, OpenQuote, Operator, QuotedEnd, Semi, SEPARATOR, ValueEnd, Wildcard } from './tokens';

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
export const PARSE_OPTIONS = ['limits', 'params', 'sortParam'] as const;

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

/**
 * Parses a query into its syntax tree. Never throws: every problem of every parameter
 * is a diagnostic in one `Result`, in query order.
 */
export function parse(input: QueryInput, options?: ParseOptions): Result<FilterAst> {
  checkOptions('parse', options, PARSE_OPTIONS);
  checkParamsOption('parse', options?.params);
  const given = options?.sortParam;
  // Checked as defineSchema checks its own: a sort parameter named "__proto__" would lose its value in params.
  if (given !== undefined && (typeof given !== 'string' || !isParamName(given))) wrongArgument('parse', '"sortParam"', 'the name of the sort parameter (not empty, not "__proto__")', given);
  // Without a sortParam, orderBy sorts, unless the caller passes it through: a schema that
  // sorts with another name may declare orderBy as a request parameter (reference §9).
  const sortParam = given ?? (isPassThrough(options?.params ?? EMPTY_KEYS, DEFAULT_SORT_PARAM) ? undefined : DEFAULT_SORT_PARAM);
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

/**
 * Parses every parameter and keeps the outcome per parameter, so that a caller (`check`)
 * can go on with the parameters that parsed and report every problem of the query.
 */
export function parseParams(input: QueryInput, limits: Limits, params: Keys | undefined, sortParam: string | undefined, example?: SortExample): ParsedQuery {
  const passThrough = passThroughKeys(params);
  const decoded = decodeQuery(input, limits);
  if (decoded.stopped !== undefined) return decoded;
  const passed: Record<string, string | string[]> = {};
  const filters: ParsedParam[] = [];
  const pending: ParsedParam[] = [];
  let sorted = false;
  for (const raw of decoded.params) {
    if (raw.problems === undefined && raw.key === sortParam) {
      const value = raw.value ?? '';
      addPassThrough(passed, raw.key, value);
      const entry = parsedParam(raw.key, value);
      filters.push(entry);
      if (sorted) addProblem(entry, limits.maxDiagnostics, repeatedSort(raw.key, value, example));
      else {
        const outcome = readSort(raw.key, value, limits, example);
        // With problems, the well-formed keys come along, for check to hold against the schema.
        entry.sort = outcome.sort ?? outcome.partial;
        for (const d of outcome.problems ?? []) addProblem(entry, limits.maxDiagnostics, d);
      }
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

const EMPTY_KEYS: readonly string[] = [];

/** The sort parameter of `parse` when its options name none: the API's. */
const DEFAULT_SORT_PARAM = 'orderBy';

/** Pass-through keys as given: an array (a short one: a scan is cheaper than building a Set per call) or a Set. */
export type Keys = readonly string[] | ReadonlySet<string>;

function passThroughKeys(keys: Keys | undefined): Keys {
  return keys ?? EMPTY_KEYS;
}

/**
 * Checks a `params` option of `fn`: an array or Set of names. A pass-through value is
 * stored under its key, where "__proto__" would not be stored at all.
 */
export function checkParamsOption(fn: string, keys: unknown): void {
  if (keys === undefined) return;
  if (!Array.isArray(keys) && !(keys instanceof Set)) wrongArgument(fn, '"params"', 'an array or Set of parameter names', keys);
  for (const key of keys as Iterable<unknown>) {
    if (typeof key !== 'string') wrongArgument(fn, 'each of "params"', 'a parameter name', key);
    if (key === '__proto__') throw new TypeError(`${fn}: "__proto__" cannot be a pass-through parameter.`);
  }
}

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

/**
 * Records a problem of a parameter, keeping at most `max` (the query's maxDiagnostics:
 * no more of one parameter can be listed) and counting the others, so that a value of
 * thousands of bad escapes does not keep thousands of diagnostics alive.
 */
function addProblem(filter: ParsedParam, max: number, problem: Diagnostic): void {
  const problems = (filter.problems ??= []);
  if (problems.length < max) problems.push(problem);
  else filter.omitted = (filter.omitted ?? 0) + 1;
}

/**
 * The check that needs no lexing: path depth, a limit, so that a path past it is not
 * lexed at all. An empty key or value is found while explaining a failed parse, so
 * that a parameter with both ("=") gets both diagnostics.
 */
function overDepth(filter: ParsedParam, limits: Limits): boolean {
  const key = filter.key;
  const max = limits.maxDiagnostics;
  let depth = 1;
  for (let i = key.indexOf('.'); i !== -1; i = key.indexOf('.', i + 1)) depth++;
  if (depth <= limits.maxPathDepth) return false;
  addProblem(
    filter,
    max,
    diagnostic(
      'LIMIT_EXCEEDED',
      `Parameter ${quote(key)} has a path of ${depth} names; at most ${limits.maxPathDepth} are allowed.`,
      { param: key, in: 'key', text: key },
      { start: 0, end: key.length },
      `Filter on a field of the resource: its path has at most ${limits.maxPathDepth} names (customerRef.id, lines.amount).`,
    ),
  );
  return true;
}

/** Where each parameter sits in the lexed text and in the token vector. */
interface Layout {
  readonly valueStart: number[];
  /** Index of the token that ends each key (`Key` or `KeyEnd`), and of each ValueEnd token. */
  readonly keyEnd: number[];
  readonly valueEnd: number[];
}

/**
 * Lexes every filter parameter in one call, checks the per-parameter limits on the
 * tokens, then parses the whole token vector in one go. Only when something is wrong
 * does it go back over the parameters one by one to say exactly what, and to parse
 * the ones that are fine on their own.
 */
function parseFilters(filters: ParsedParam[], limits: Limits): void {
  const layout: Layout = { valueStart: [], keyEnd: [], valueEnd: [] };
  let text = '';
  for (const { key, value } of filters) {
    layout.valueStart.push(text.length + key.length + 1);
    text += key + SEPARATOR + value + SEPARATOR;
  }
  const lexed = filterLexer().tokenize(text);
  const tokens = lexed.tokens;
  const overLimit = checkTokenLimits(filters, tokens, layout, limits);
  const parser = filterParser();
  if (lexed.errors.length === 0 && !overLimit) {
    const params = parser.parseQuery(tokens, filters);
    if (parser.errors.length === 0) {
      for (let i = 0; i < filters.length; i++) accept(filters[i]!, params[i]!, limits.maxDiagnostics);
      return;
    }
  }
  for (let i = 0; i < filters.length; i++) {
    const filter = filters[i]!;
    const overLimit = filter.problems;
    if (overLimit === undefined) {
      explainParam(i, filter, tokens, layout, limits.maxDiagnostics);
      continue;
    }
    // Over a limit of its value: not parsed further, but its key is still checked, first.
    filter.problems = undefined;
    checkKey(filter, limits.maxDiagnostics);
    for (const d of overLimit) addProblem(filter, limits.maxDiagnostics, d);
  }
}

/** Takes a parameter that parsed as part of the whole query, unless a name in its path is reserved. */
function accept(filter: ParsedParam, param: Param, max: number): void {
  reservedNames(filter, param.path, max);
  if (filter.problems === undefined) filter.param = param;
}

/** One `INVALID_PATH` per reserved name in the path. */
function reservedNames(filter: ParsedParam, path: Path, max: number): void {
  for (const name of path.names) {
    if (RESERVED_NAMES.has(name.value)) {
      addProblem(
        filter,
        max,
        diagnostic(
          'INVALID_PATH',
          `Parameter ${quote(filter.key)} uses the name ${quote(name.value)}, which is never a field.`,
          { param: filter.key, in: 'key', text: filter.key },
          name.span,
          'Filter on the fields of the resource; "__proto__", "constructor" and "prototype" are refused everywhere.',
        ),
      );
    }
  }
}

/**
 * Checks the key of a parameter that did not parse as part of the whole query: what is
 * wrong with it, or else the reserved names in it; a key with neither gets its `path`.
 */
function checkKey(filter: ParsedParam, max: number): void {
  const problem = explainKey(filter.key, { param: filter.key, in: 'key', text: filter.key });
  if (problem !== undefined) return addProblem(filter, max, problem);
  const path = pathOf(filter.key, filter.key.length);
  const before = filter.problems?.length ?? 0;
  reservedNames(filter, path, max);
  if ((filter.problems?.length ?? 0) === before) filter.path = path;
}

/**
 * One pass over the tokens: records the layout, and reports parameters with too many
 * clauses, or an operand that is too long or has too many wildcards. Those parameters
 * are not parsed further. True when any limit was exceeded.
 */
function checkTokenLimits(filters: ParsedParam[], tokens: IToken[], layout: Layout, limits: Limits): boolean {
  const max = limits.maxDiagnostics;
  let over = false;
  let param = 0;
  let clauses = 1;
  // Where the current clause starts, and where its operand starts (after any operator).
  let clauseStart = 0;
  let operandStart = 0;
  let wildcards = 0;
  let reported = false;
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t]!;
    const type = token.tokenType;
    if (type === Key || type === KeyEnd) {
      layout.keyEnd.push(t);
      clauseStart = operandStart = token.startOffset + token.image.length;
      continue;
    }
    if (type === Operator) {
      operandStart = token.startOffset + token.image.length;
      continue;
    }
    if (type === Wildcard) {
      wildcards++;
      continue;
    }
    if (type !== Semi && type !== ValueEnd && type !== QuotedEnd) continue;
    if (!reported) {
      const filter = filters[param]!;
      const valueStart = layout.valueStart[param]!;
      const where = { param: filter.key, in: 'value' as const, text: filter.value };
      const clauseSpan = { start: operandStart - valueStart, end: token.startOffset - valueStart };
      let problem: Diagnostic | undefined;
      if (clauses > limits.maxClauses) {
        problem = diagnostic(
          'LIMIT_EXCEEDED',
          `Parameter ${quote(filter.key)} has more than ${limits.maxClauses} clauses.`,
          where,
          { start: clauseStart - valueStart, end: filter.value.length },
          `Send at most ${limits.maxClauses} clauses in one parameter; on a field outside a list, the rest can go in a repeated parameter (totalAmount=gte:1&totalAmount=lte:9), but not on a field of a list, where each parameter holds for any element.`,
        );
      } else if (token.startOffset - operandStart > limits.maxOperandLength) {
        problem = diagnostic(
          'LIMIT_EXCEEDED',
          `Parameter ${quote(filter.key)} has an operand of ${token.startOffset - operandStart} characters; at most ${limits.maxOperandLength} are allowed.`,
          where,
          clauseSpan,
          `Send an operand of at most ${limits.maxOperandLength} characters: a "%" wildcard, sent as %25, can stand for the rest of a long text.`,
        );
      } else if (wildcards > limits.maxWildcards) {
        problem = diagnostic(
          'LIMIT_EXCEEDED',
          `Parameter ${quote(filter.key)} has an operand with ${wildcards} wildcards; at most ${limits.maxWildcards} are allowed.`,
          where,
          clauseSpan,
          `Send at most ${limits.maxWildcards} "%" wildcards in one operand: a single "%" already matches any run of characters.`,
        );
      }
      if (problem !== undefined) {
        addProblem(filter, max, problem);
        over = reported = true;
      }
    }
    wildcards = 0;
    clauseStart = operandStart = token.startOffset + 1;
    if (type === Semi) {
      clauses++;
      continue;
    }
    layout.valueEnd.push(t);
    param++;
    clauses = 1;
    reported = false;
  }
  return over;
}

/**
 * The error path: parses one parameter on its own, key and clause by clause, and says
 * what is wrong with each part; a parameter with nothing wrong gets its node.
 */
function explainParam(index: number, filter: ParsedParam, tokens: IToken[], layout: Layout, max: number): void {
  const valueStart = layout.valueStart[index]!;
  const valueEnd = valueStart + filter.value.length;
  const valueWhere = { param: filter.key, in: 'value' as const, text: filter.value };
  const parser = filterParser();

  checkKey(filter, max);

  if (filter.value === '') {
    addProblem(
      filter,
      max,
      diagnostic(
        'EMPTY_VALUE',
        `Parameter ${quote(filter.key)} has an empty value.`,
        valueWhere,
        { start: 0, end: 0 },
        `Give a value after the "=", or match the empty string with ${excerpt(filter.key)}="".`,
      ),
    );
    return;
  }

  const valueTokens = tokens.slice(layout.keyEnd[index]! + 1, layout.valueEnd[index]);
  let escaped = false;
  for (const token of valueTokens) {
    if (token.tokenType !== BadEscape) continue;
    const start = token.startOffset - valueStart;
    escaped = true;
    if (filter.problems !== undefined && filter.problems.length >= max) {
      // Counted, not built: no more than max problems of a parameter can be listed.
      filter.omitted = (filter.omitted ?? 0) + 1;
      continue;
    }
    // The span covers the backslash and the whole character after it, if any: both
    // halves of a surrogate pair, so that the span never cuts a character in two.
    const next = filter.value.codePointAt(start + 1);
    const end = start + 1 + (next === undefined ? 0 : next > 0xffff ? 2 : 1);
    addProblem(
      filter,
      max,
      diagnostic(
        'INVALID_ESCAPE',
        `Parameter ${quote(filter.key)} has the escape ${quote(filter.value.slice(start, end))}, which is not one.`,
        valueWhere,
        { start, end },
        'A backslash escapes only \\\\, \\%, \\; and \\"; write a literal backslash as \\\\.',
      ),
    );
  }

  const clauses: Clause[] = [];
  let clauseStart = valueStart;
  let from = 0;
  for (let t = 0; t <= valueTokens.length; t++) {
    // One step past the last token ends the last clause: read as nothing, not as the
    // index of a vector that has none there (a polluted Array.prototype would answer).
    const token = t < valueTokens.length ? valueTokens[t] : undefined;
    if (token !== undefined && token.tokenType !== Semi) continue;
    const clauseEnd = token?.startOffset ?? valueEnd;
    // A clause is explained as if its invalid escapes were not there: INVALID_ESCAPE says it.
    const sliced = valueTokens.slice(from, t);
    const tokensOfClause = escaped ? sliced.filter((k) => k.tokenType !== BadEscape) : sliced;
    const span = { start: clauseStart - valueStart, end: clauseEnd - valueStart };
    if (tokensOfClause.length > 0) {
      const problem = clauseProblem(tokensOfClause, valueStart, span, filter);
      if (problem === undefined) {
        const clause = parser.parseClause(tokensOfClause, valueStart);
        if (parser.errors.length === 0 && clause !== undefined) clauses.push(clause);
        // Not reached: clauseProblem follows the clause grammar. Should it miss a case,
        // the clause is still refused, with a diagnostic rather than an exception.
        else addProblem(filter, max, unexpectedText(filter, span.start, span));
      } else if (problem !== null) addProblem(filter, max, problem);
    } else if (span.start === span.end) {
      // A clause that only held an invalid escape has no tokens but is not empty: INVALID_ESCAPE says it all.
      addProblem(filter, max, emptyClause(filter, span));
    }
    from = t + 1;
    clauseStart = clauseEnd + 1;
  }
  if (filter.problems === undefined) {
    // checkKey found the key to be a path, reserved names included.
    filter.param = { type: 'Param', key: filter.key, value: filter.value, path: filter.path!, clauses, span: { start: 0, end: filter.value.length } };
  }
}

/**
 * What is wrong with a key, found in its text: a character no name may hold (the first
 * run of them, as far as the next place a name or a dot could start), otherwise an
 * empty name; nothing for a path.
 */
function explainKey(key: string, where: Location): Diagnostic | undefined {
  if (key === '') {
    return diagnostic(
      'INVALID_PATH',
      `Parameter "" has an empty name.`,
      where,
      { start: 0, end: 0 },
      'Write the field to filter before the "=", e.g. totalAmount=100.',
    );
  }
  const problem = pathProblem(key);
  if (problem === undefined) return undefined;
  return diagnostic('INVALID_PATH', `Parameter ${quote(key)} is not a valid path: ${problem.reason}.`, where, problem.span, PATH_HINT);
}

function emptyClause(filter: ParsedParam, span: Span): Diagnostic {
  return diagnostic(
    'EMPTY_CLAUSE',
    `Parameter ${quote(filter.key)} has an empty clause.`,
    { param: filter.key, in: 'value', text: filter.value },
    span,
    'Remove the extra ";", or put a condition between the semicolons; match an empty string with "".',
  );
}

/**
 * What is wrong with one clause, from its tokens with the invalid escapes left out:
 * `undefined` when it parses, `null` when it does not but its INVALID_ESCAPE says why.
 *
 * The clause grammar, `[ Operator ] ( OpenQuote *Piece CloseQuote / 1*Piece )`, is small,
 * and the lexer already places an operator only first, an opening quote only first or
 * after the operator, and a closing quote only after an opening one. So a clause can
 * only be an operator alone, a quote never closed, or have text after its closing
 * quote. Finding that here rather than from a parse error matters: chevrotain builds an
 * exception, with its stack trace and message, for each clause it refuses, which made
 * refusing a clause cost 5 to 25 times as much as accepting one.
 */
function clauseProblem(clause: IToken[], valueStart: number, span: Span, filter: ParsedParam): Diagnostic | null | undefined {
  const where = { param: filter.key, in: 'value' as const, text: filter.value };
  const first = clause[0]!;
  const operand = first.tokenType === Operator ? 1 : 0;
  if (operand === clause.length) {
    // An operator with an invalid escape after it: `gte:\q` is INVALID_ESCAPE alone.
    if (first.startOffset + first.image.length - valueStart !== span.end) return null;
    return diagnostic(
      'EMPTY_OPERAND',
      `Parameter ${quote(filter.key)} has the operator ${quote(first.image)} with nothing to compare with.`,
      where,
      span,
      `Give a value after the operator (${first.image}100), or quote the text to match it literally: "${first.image}".`,
    );
  }
  const open = clause[operand]!;
  if (open.tokenType !== OpenQuote) return undefined;
  let close = operand + 1;
  while (close < clause.length && clause[close]!.tokenType !== CloseQuote) close++;
  if (close === clause.length) {
    return diagnostic(
      'UNTERMINATED_QUOTE',
      `Parameter ${quote(filter.key)} has a quoted operand that is never closed.`,
      where,
      { start: open.startOffset - valueStart, end: span.end },
      'Close the quote with ", and escape a quote inside it as \\".',
    );
  }
  if (close === clause.length - 1) return undefined;
  // The text starts right after the quote, even where an invalid escape left no token there.
  return unexpectedText(filter, clause[close]!.startOffset + 1 - valueStart, span);
}

function unexpectedText(filter: ParsedParam, start: number, span: Span): Diagnostic {
  return diagnostic(
    'UNEXPECTED_TEXT',
    `Parameter ${quote(filter.key)} has text after a closing quote: ${quote(filter.value.slice(start, span.end))}.`,
    { param: filter.key, in: 'value', text: filter.value },
    { start, end: span.end },
    'Only ";" or the end of the value may follow a closing quote; put all of the text inside the quotes.',
  );
}
