import { EOF, type ILexingError, type IRecognitionException, type IToken } from 'chevrotain';
import { diagnostic, quote, type Diagnostic, type Result, type Span } from '../diagnostics/diagnostic';
import { decodeQuery, type QueryInput } from '../input/decode';
import { resolveLimits, type Limits } from '../input/limits';
import type { FilterAst, Param, PassThroughParams, Path } from './ast';
import { filterLexer, filterParser } from './parser';
import { CloseQuote, KeyEnd, OpenQuote, Operator, QuotedEnd, Semi, SEPARATOR, ValueEnd, Wildcard } from './tokens';

/** Options of `parse` (and of `check`, which passes them on). */
export interface ParseOptions {
  /** Overrides of the limits of SPEC §7. */
  readonly limits?: Partial<Limits>;
  /**
   * Keys that are plain request parameters, passed through untouched instead of
   * parsed as filters (`check` adds the schema's `params`).
   */
  readonly params?: Iterable<string>;
}

/** Names that would reach an object's prototype machinery: refused in every path. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Parses a query into its syntax tree. Never throws: every problem of every parameter
 * is a diagnostic in one `Result`.
 */
export function parse(input: QueryInput, options?: ParseOptions): Result<FilterAst> {
  const limits = resolveLimits(options?.limits);
  const decoded = decodeQuery(input, limits);
  if (decoded.stopped) return { ok: false, errors: decoded.diagnostics };
  const passThrough = options?.params === undefined ? EMPTY_SET : new Set(options.params);
  const params: Record<string, string | string[]> = {};
  const diagnostics = decoded.diagnostics;
  const filters: FilterText[] = [];
  for (const raw of decoded.params) {
    if (passThrough.has(raw.key)) addPassThrough(params, raw.key, raw.value ?? '');
    else {
      const filter = { key: raw.key, value: raw.value ?? '' };
      const problem = precheck(filter, limits);
      if (problem === undefined) filters.push(filter);
      else diagnostics.push(problem);
    }
  }
  const parsed = filters.length === 0 ? [] : parseFilters(filters, limits, diagnostics);
  if (diagnostics.length > 0) return { ok: false, errors: diagnostics };
  return { ok: true, value: { type: 'Query', filters: parsed, params: params as PassThroughParams } };
}

const EMPTY_SET: ReadonlySet<string> = new Set();

function addPassThrough(params: Record<string, string | string[]>, key: string, value: string): void {
  if (key === '__proto__') return;
  const previous = params[key];
  if (previous === undefined) params[key] = value;
  else if (typeof previous === 'string') params[key] = [previous, value];
  else previous.push(value);
}

/** A filter parameter: its key and value as decoded (a part without "=" has the value ""). */
interface FilterText {
  readonly key: string;
  readonly value: string;
}

/**
 * The check that needs no lexing: path depth, a limit, so that a path past it is not
 * lexed at all. An empty key or value is found while explaining a failed parse, so
 * that a parameter with both ("=") gets both diagnostics.
 */
function precheck({ key }: FilterText, limits: Limits): Diagnostic | undefined {
  let depth = 1;
  for (let i = key.indexOf('.'); i !== -1; i = key.indexOf('.', i + 1)) depth++;
  if (depth > limits.maxPathDepth) {
    return diagnostic(
      'LIMIT_EXCEEDED',
      `Parameter ${quote(key)} has a path of ${depth} names; at most ${limits.maxPathDepth} are allowed.`,
      { param: key, in: 'key', text: key },
      { start: 0, end: key.length },
      'Use a shorter path, or raise the maxPathDepth limit.',
    );
  }
  return undefined;
}

/** Where each parameter sits in the lexed text and in the token vector. */
interface Layout {
  readonly keyStart: number[];
  readonly valueStart: number[];
  /** Index of the first token of each parameter, and of its KeyEnd and ValueEnd tokens. */
  readonly firstToken: number[];
  readonly keyEnd: number[];
  readonly valueEnd: number[];
}

/**
 * Lexes every filter parameter in one call, checks the per-parameter limits on the
 * tokens, then parses the whole token vector in one go. Only when something is wrong
 * does it go back over the parameters one by one to say exactly what.
 */
function parseFilters(filters: FilterText[], limits: Limits, diagnostics: Diagnostic[]): Param[] {
  const layout: Layout = { keyStart: [], valueStart: [], firstToken: [], keyEnd: [], valueEnd: [] };
  let text = '';
  for (const { key, value } of filters) {
    layout.keyStart.push(text.length);
    layout.valueStart.push(text.length + key.length + 1);
    text += key + SEPARATOR + value + SEPARATOR;
  }
  const lexed = filterLexer().tokenize(text);
  const tokens = lexed.tokens;
  const overLimit = checkTokenLimits(filters, tokens, layout, limits, diagnostics);
  const parser = filterParser();
  if (lexed.errors.length === 0 && overLimit.size === 0) {
    const params = parser.parseQuery(tokens, filters);
    if (parser.errors.length === 0) {
      for (const param of params) checkReservedNames(param.key, param.path, diagnostics);
      return params;
    }
  }
  const before = diagnostics.length;
  for (let i = 0; i < filters.length; i++) {
    if (!overLimit.has(i)) explainParam(i, filters[i]!, tokens, lexed.errors, layout, diagnostics);
  }
  if (diagnostics.length === before && overLimit.size === 0) {
    // The whole-query parse failed but no parameter on its own does: a bug, never a silent success.
    diagnostics.push(diagnostic('UNEXPECTED_TEXT', 'The query could not be parsed.', undefined, undefined, 'Please report this query.'));
  }
  return [];
}

/**
 * One pass over the tokens: records the layout, and reports parameters with too many
 * clauses, or an operand that is too long or has too many wildcards. Those parameters
 * are not parsed further.
 */
function checkTokenLimits(
  filters: FilterText[],
  tokens: IToken[],
  layout: Layout,
  limits: Limits,
  diagnostics: Diagnostic[],
): Set<number> {
  const over = new Set<number>();
  let param = 0;
  let clauses = 1;
  // Where the current clause starts, and where its operand starts (after any operator).
  let clauseStart = 0;
  let operandStart = 0;
  let wildcards = 0;
  let reported = false;
  layout.firstToken.push(0);
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t]!;
    const type = token.tokenType;
    if (type === KeyEnd) {
      layout.keyEnd.push(t);
      clauseStart = operandStart = token.startOffset + 1;
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
        diagnostics.push(problem);
        over.add(param);
        reported = true;
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
    layout.firstToken.push(t + 1);
  }
  return over;
}

function checkReservedNames(key: string, path: Path, diagnostics: Diagnostic[]): void {
  for (const name of path.names) {
    if (RESERVED_NAMES.has(name.value)) {
      diagnostics.push(
        diagnostic(
          'INVALID_PATH',
          `Parameter ${quote(key)} uses the name ${quote(name.value)}, which is never a field.`,
          { param: key, in: 'key', text: key },
          name.span,
          'Filter on the fields of the resource; "__proto__", "constructor" and "prototype" are refused everywhere.',
        ),
      );
    }
  }
}

/** The error path: says what is wrong with one parameter, clause by clause. */
function explainParam(
  index: number,
  filter: FilterText,
  tokens: IToken[],
  lexErrors: ILexingError[],
  layout: Layout,
  diagnostics: Diagnostic[],
): void {
  const keyStart = layout.keyStart[index]!;
  const valueStart = layout.valueStart[index]!;
  const valueEnd = valueStart + filter.value.length;
  const keyWhere = { param: filter.key, in: 'key' as const, text: filter.key };
  const valueWhere = { param: filter.key, in: 'value' as const, text: filter.value };
  const parser = filterParser();

  const keyError = lexErrors.find((e) => e.offset >= keyStart && e.offset < valueStart - 1);
  const keyTokens = tokens.slice(layout.firstToken[index], layout.keyEnd[index]);
  const path = keyError === undefined ? parser.parsePath(keyTokens, keyStart) : undefined;
  if (keyError !== undefined) {
    const start = keyError.offset - keyStart;
    diagnostics.push(
      diagnostic(
        'INVALID_PATH',
        `Parameter ${quote(filter.key)} is not a valid path: ${quote(filter.key.slice(start, start + keyError.length))} is not allowed in a name.`,
        keyWhere,
        { start, end: start + keyError.length },
        PATH_HINT,
      ),
    );
  } else if (filter.key === '') {
    diagnostics.push(
      diagnostic(
        'INVALID_PATH',
        `Parameter "" has an empty name.`,
        keyWhere,
        { start: 0, end: 0 },
        'Write the field to filter before the "=", e.g. totalAmount=100.',
      ),
    );
  } else if (parser.errors.length > 0 || path === undefined) {
    const at = parser.errors[0]?.token;
    const start = at === undefined || at.tokenType === EOF ? filter.key.length : at.startOffset - keyStart;
    diagnostics.push(
      diagnostic(
        'INVALID_PATH',
        `Parameter ${quote(filter.key)} is not a valid path: it has an empty name.`,
        keyWhere,
        { start, end: Math.min(start + 1, filter.key.length) },
        PATH_HINT,
      ),
    );
  } else {
    checkReservedNames(filter.key, path, diagnostics);
  }

  if (filter.value === '') {
    diagnostics.push(
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
    diagnostics.push(
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
  let clauseStart = valueStart;
  let from = 0;
  for (let t = 0; t <= valueTokens.length; t++) {
    const token = valueTokens[t];
    if (token !== undefined && token.tokenType !== Semi) continue;
    const clauseEnd = token?.startOffset ?? valueEnd;
    const clause = valueTokens.slice(from, t);
    const span = { start: clauseStart - valueStart, end: clauseEnd - valueStart };
    // A clause that only held an invalid escape has no tokens but is not empty: INVALID_ESCAPE says it all.
    const problem =
      clause.length > 0
        ? explainClause(clause, valueStart, span, filter, escapes.some((at) => at >= span.start && at < span.end))
        : span.start === span.end
          ? emptyClause(filter, span)
          : undefined;
    if (problem !== undefined) diagnostics.push(problem);
    from = t + 1;
    clauseStart = clauseEnd + 1;
  }
}

const PATH_HINT =
  'A path is names joined by dots (customerRef.id); a name starts with a letter or "_" and holds letters, digits and "_".';

function emptyClause(filter: FilterText, span: Span): Diagnostic {
  return diagnostic(
    'EMPTY_CLAUSE',
    `Parameter ${quote(filter.key)} has an empty clause.`,
    { param: filter.key, in: 'value', text: filter.value },
    span,
    'Remove the extra ";", or put a condition between the semicolons; match an empty string with "".',
  );
}

/** Parses one clause on its own and turns a parser error into the diagnostic it means. */
function explainClause(
  clause: IToken[],
  valueStart: number,
  span: Span,
  filter: FilterText,
  hasInvalidEscape: boolean,
): Diagnostic | undefined {
  const parser = filterParser();
  parser.parseClause(clause, valueStart);
  const error: IRecognitionException | undefined = parser.errors[0];
  if (error === undefined) return undefined;
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
