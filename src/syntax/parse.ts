import { EOF, type ILexingError, type IRecognitionException, type IToken } from 'chevrotain';
import { diagnostic, quote, type Diagnostic, type Location, type Result, type Span } from '../diagnostics/diagnostic';
import { decodeQuery, type QueryInput } from '../input/decode';
import { resolveLimits, type Limits } from '../input/limits';
import type { Clause, FilterAst, Param, PassThroughParams, Sort } from './ast';
import { filterLexer, filterParser, pathOf } from './parser';
import { PATH_HINT, pathProblem, RESERVED_NAMES } from './path';
import { readSort } from './sort';
import { CloseQuote, Key, KeyEnd, OpenQuote, Operator, QuotedEnd, Semi, SEPARATOR, ValueEnd, Wildcard } from './tokens';

/** Options of `parse` (and of `check`, which passes them on). */
export interface ParseOptions {
  /** Overrides of the limits of SPEC §7. */
  readonly limits?: Partial<Limits>;
  /**
   * Keys that are plain request parameters, passed through untouched instead of
   * parsed as filters (`check` adds the schema's `params`).
   */
  readonly params?: readonly string[] | ReadonlySet<string>;
  /**
   * The name of the sort parameter (SPEC §9), whose value is read as sort keys and also
   * kept, as sent, with the request parameters. `orderBy` by default; `check` uses the
   * schema's.
   */
  readonly sortParam?: string;
}

/** One filter parameter, or the sort parameter, after parsing: its node, or what is wrong with it. */
export interface ParsedParam {
  readonly key: string;
  readonly value: string;
  /** Set when a filter parameter parsed without problems. */
  param?: Param;
  /** Set for the sort parameter: all its keys, or with `problems` the well-formed ones. */
  sort?: Sort;
  /** Set when it did not. */
  problems?: Diagnostic[];
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
  const parsed = parseParams(input, options?.limits, options?.params, options?.sortParam);
  if (parsed.stopped !== undefined) return { ok: false, errors: [parsed.stopped] };
  const errors = problemsOf(parsed.filters);
  if (errors.length > 0) return { ok: false, errors };
  const filters: Param[] = [];
  let sort: Sort | undefined;
  for (const f of parsed.filters) {
    if (f.param !== undefined) filters.push(f.param);
    else if (f.sort !== undefined) sort = f.sort;
  }
  const ast: FilterAst = { type: 'Query', filters, params: parsed.params };
  return { ok: true, value: sort === undefined ? ast : { ...ast, sort } };
}

/** The problems of the parameters, in order. */
export function problemsOf(filters: readonly ParsedParam[]): Diagnostic[] {
  const errors: Diagnostic[] = [];
  for (const f of filters) if (f.problems !== undefined) errors.push(...f.problems);
  return errors;
}

/**
 * Parses every parameter and keeps the outcome per parameter, so that a caller (`check`)
 * can go on with the parameters that parsed and report every problem of the query.
 */
export function parseParams(input: QueryInput, limitOverrides?: Partial<Limits>, params?: Keys, sortParam = 'orderBy'): ParsedQuery {
  const limits = resolveLimits(limitOverrides);
  const passThrough = passThroughKeys(params);
  if (typeof sortParam !== 'string') throw new TypeError('parse: "sortParam" must be the name of the sort parameter.');
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
      const entry: ParsedParam = { key: raw.key, value };
      filters.push(entry);
      if (sorted) entry.problems = [repeatedSort(raw.key, value)];
      else {
        const outcome = readSort(raw.key, value, limits);
        // With problems, the well-formed keys come along, for check to hold against the schema.
        entry.sort = outcome.sort ?? outcome.partial;
        if (outcome.problems !== undefined) entry.problems = outcome.problems;
      }
      sorted = true;
      continue;
    }
    if (raw.problems === undefined && isPassThrough(passThrough, raw.key)) {
      addPassThrough(passed, raw.key, raw.value ?? '');
      continue;
    }
    const filter: ParsedParam = { key: raw.key, value: raw.value ?? '' };
    filters.push(filter);
    if (raw.problems !== undefined) filter.problems = [...raw.problems];
    else if (!overDepth(filter, limits)) pending.push(filter);
  }
  if (pending.length > 0) parseFilters(pending, limits);
  return { filters, params: passed };
}

const EMPTY_KEYS: readonly string[] = [];

/** Pass-through keys as given: an array (a short one: a scan is cheaper than building a Set per call) or a Set. */
export type Keys = readonly string[] | ReadonlySet<string>;

function passThroughKeys(keys: Keys | undefined): Keys {
  if (keys === undefined) return EMPTY_KEYS;
  const isArray = Array.isArray(keys);
  if (!isArray && !(keys instanceof Set)) throw new TypeError('parse: "params" must be an array or Set of keys.');
  // A pass-through value is stored under its key: "__proto__" would not be stored at all.
  if (isArray ? keys.includes('__proto__') : keys.has('__proto__')) {
    throw new TypeError('parse: "__proto__" cannot be a pass-through parameter.');
  }
  return keys;
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

function repeatedSort(key: string, value: string): Diagnostic {
  return diagnostic(
    'INVALID_SORT',
    `Parameter ${quote(key)} is given more than once.`,
    { param: key, in: 'value', text: value },
    { start: 0, end: value.length },
    `Send one ${key}, its keys joined by ",": ${key}=-issueDate,totalAmount sorts by issueDate, newest first, then by totalAmount.`,
  );
}

function addProblem(filter: ParsedParam, problem: Diagnostic): void {
  (filter.problems ??= []).push(problem);
}

/**
 * The check that needs no lexing: path depth, a limit, so that a path past it is not
 * lexed at all. An empty key or value is found while explaining a failed parse, so
 * that a parameter with both ("=") gets both diagnostics.
 */
function overDepth(filter: ParsedParam, limits: Limits): boolean {
  const key = filter.key;
  let depth = 1;
  for (let i = key.indexOf('.'); i !== -1; i = key.indexOf('.', i + 1)) depth++;
  if (depth <= limits.maxPathDepth) return false;
  addProblem(
    filter,
    diagnostic(
      'LIMIT_EXCEEDED',
      `Parameter ${quote(key)} has a path of ${depth} names; at most ${limits.maxPathDepth} are allowed.`,
      { param: key, in: 'key', text: key },
      { start: 0, end: key.length },
      'Use a shorter path, or raise the maxPathDepth limit.',
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
      for (let i = 0; i < filters.length; i++) accept(filters[i]!, params[i]!);
      return;
    }
  }
  for (let i = 0; i < filters.length; i++) {
    if (filters[i]!.problems === undefined) explainParam(i, filters[i]!, tokens, lexed.errors, layout);
  }
}

/** Takes a parsed parameter, unless a name in its path is reserved. */
function accept(filter: ParsedParam, param: Param): void {
  for (const name of param.path.names) {
    if (RESERVED_NAMES.has(name.value)) {
      addProblem(
        filter,
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
  if (filter.problems === undefined) filter.param = param;
}

/**
 * One pass over the tokens: records the layout, and reports parameters with too many
 * clauses, or an operand that is too long or has too many wildcards. Those parameters
 * are not parsed further. True when any limit was exceeded.
 */
function checkTokenLimits(filters: ParsedParam[], tokens: IToken[], layout: Layout, limits: Limits): boolean {
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
          'Combine fewer conditions in one parameter, or raise the maxClauses limit.',
        );
      } else if (token.startOffset - operandStart > limits.maxOperandLength) {
        problem = diagnostic(
          'LIMIT_EXCEEDED',
          `Parameter ${quote(filter.key)} has an operand of ${token.startOffset - operandStart} characters; at most ${limits.maxOperandLength} are allowed.`,
          where,
          clauseSpan,
          'Use a shorter operand, or raise the maxOperandLength limit.',
        );
      } else if (wildcards > limits.maxWildcards) {
        problem = diagnostic(
          'LIMIT_EXCEEDED',
          `Parameter ${quote(filter.key)} has an operand with ${wildcards} wildcards; at most ${limits.maxWildcards} are allowed.`,
          where,
          clauseSpan,
          'Use fewer "%" wildcards, or raise the maxWildcards limit.',
        );
      }
      if (problem !== undefined) {
        addProblem(filter, problem);
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
function explainParam(index: number, filter: ParsedParam, tokens: IToken[], lexErrors: ILexingError[], layout: Layout): void {
  const valueStart = layout.valueStart[index]!;
  const valueEnd = valueStart + filter.value.length;
  const keyWhere = { param: filter.key, in: 'key' as const, text: filter.key };
  const valueWhere = { param: filter.key, in: 'value' as const, text: filter.value };
  const parser = filterParser();

  const keyProblem = explainKey(filter.key, keyWhere);
  if (keyProblem !== undefined) addProblem(filter, keyProblem);

  if (filter.value === '') {
    addProblem(
      filter,
      diagnostic(
        'EMPTY_VALUE',
        `Parameter ${quote(filter.key)} has an empty value.`,
        valueWhere,
        { start: 0, end: 0 },
        `Give a value after the "=", or match the empty string with ${filter.key}="".`,
      ),
    );
    return;
  }

  const escapes: number[] = [];
  for (const e of lexErrors) {
    if (e.offset < valueStart || e.offset >= valueEnd) continue;
    const start = e.offset - valueStart;
    escapes.push(start);
    // The span covers the backslash and the whole character after it, if any: both
    // halves of a surrogate pair, so that the span never cuts a character in two.
    const next = filter.value.codePointAt(start + 1);
    const end = start + 1 + (next === undefined ? 0 : next > 0xffff ? 2 : 1);
    addProblem(
      filter,
      diagnostic(
        'INVALID_ESCAPE',
        `Parameter ${quote(filter.key)} has the escape ${quote(filter.value.slice(start, end))}, which is not one.`,
        valueWhere,
        { start, end },
        'A backslash escapes only \\\\, \\%, \\; and \\"; write a literal backslash as \\\\.',
      ),
    );
  }

  const valueTokens = tokens.slice(layout.keyEnd[index]! + 1, layout.valueEnd[index]);
  const clauses: Clause[] = [];
  let clauseStart = valueStart;
  let from = 0;
  for (let t = 0; t <= valueTokens.length; t++) {
    const token = valueTokens[t];
    if (token !== undefined && token.tokenType !== Semi) continue;
    const clauseEnd = token?.startOffset ?? valueEnd;
    const tokensOfClause = valueTokens.slice(from, t);
    const span = { start: clauseStart - valueStart, end: clauseEnd - valueStart };
    if (tokensOfClause.length > 0) {
      const clause = parser.parseClause(tokensOfClause, valueStart);
      if (parser.errors.length === 0 && clause !== undefined) clauses.push(clause);
      else {
        const escaped = escapes.some((at) => at >= span.start && at < span.end);
        const problem = explainClause(parser.errors[0]!, tokensOfClause, valueStart, span, filter, escaped);
        if (problem !== undefined) addProblem(filter, problem);
      }
    } else if (span.start === span.end) {
      // A clause that only held an invalid escape has no tokens but is not empty: INVALID_ESCAPE says it all.
      addProblem(filter, emptyClause(filter, span));
    }
    from = t + 1;
    clauseStart = clauseEnd + 1;
  }
  if (filter.problems === undefined) {
    const path = pathOf(filter.key, filter.key.length);
    accept(filter, { type: 'Param', key: filter.key, value: filter.value, path, clauses, span: { start: 0, end: filter.value.length } });
  }
}

/**
 * What is wrong with a key that did not lex as a `Key` token, found in its text: a
 * character no name may hold (the first run of them, as far as the next place a name
 * or a dot could start), otherwise an empty name, otherwise nothing.
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

/** Turns the parser's error on one clause into the diagnostic it means. */
function explainClause(
  error: IRecognitionException,
  clause: IToken[],
  valueStart: number,
  span: Span,
  filter: ParsedParam,
  hasInvalidEscape: boolean,
): Diagnostic | undefined {
  const where = { param: filter.key, in: 'value' as const, text: filter.value };
  const first = clause[0]!;
  if (clause.length === 1 && first.tokenType === Operator && first.startOffset + first.image.length - valueStart === span.end) {
    return diagnostic(
      'EMPTY_OPERAND',
      `Parameter ${quote(filter.key)} has the operator ${quote(first.image)} with nothing to compare with.`,
      where,
      span,
      `Give a value after the operator (${first.image}100), or quote the text to match it literally: "${first.image}".`,
    );
  }
  const open = clause.find((t) => t.tokenType === OpenQuote);
  if (error.name !== 'NotAllInputParsedException' && open !== undefined && !clause.some((t) => t.tokenType === CloseQuote)) {
    return diagnostic(
      'UNTERMINATED_QUOTE',
      `Parameter ${quote(filter.key)} has a quoted operand that is never closed.`,
      where,
      { start: open.startOffset - valueStart, end: span.end },
      'Close the quote with ", and escape a quote inside it as \\".',
    );
  }
  // An invalid escape was dropped by the lexer, which can leave an operator with no
  // tokens after it: INVALID_ESCAPE already says what is wrong.
  if (hasInvalidEscape && error.name !== 'NotAllInputParsedException') return undefined;
  // What is left is text where the clause should have ended: after a closing quote.
  // It starts right after the quote, even where an invalid escape left no token there.
  const close = clause.find((t) => t.tokenType === CloseQuote);
  const start =
    close !== undefined
      ? close.startOffset + 1 - valueStart
      : error.token.tokenType === EOF
        ? span.end
        : error.token.startOffset - valueStart;
  return diagnostic(
    'UNEXPECTED_TEXT',
    `Parameter ${quote(filter.key)} has text after a closing quote: ${quote(filter.value.slice(start, span.end))}.`,
    where,
    { start, end: span.end },
    'Only ";" or the end of the value may follow a closing quote; put all of the text inside the quotes.',
  );
}
