import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic';
import type { Limits } from '../input/limits';
import { quote } from '../text/quote';
import type { Param, Path } from './ast';
import type { IRecognitionException, IToken } from './chevrotain';
import { escapeProblems, keyProblem, valueProblem } from './diagnose';
import { filterParser } from './grammar';
import { lexFilters, type LexedParam, type LexedQuery } from './lex';
import { byStart, parsedParam, Problems, type ParsedParam } from './parsed';
import { hasReservedName, reservedNames } from './path';

/** A filter parameter to parse: its decoded key and value, or with `unreadable` the problems that kept its value from being decoded. */
export interface FilterText {
  readonly key: string;
  readonly value: string;
  readonly unreadable: readonly Diagnostic[] | undefined;
}

/**
 * Parses the filter parameters of a query: one lexing of them all, the limits checked on
 * the tokens, one parse. Each parameter gets its node, or every problem of it in order:
 * its key's, then its value's (the invalid escapes, then each error of the parse, clause
 * by clause). A parameter past a limit of its value is not parsed further, but its key is;
 * one whose value could not be decoded has only its key parsed.
 */
export function parseFilters(filters: readonly FilterText[], limits: Limits): ParsedParam[] {
  const lexed = lexFilters(filters, limits);
  const junk = lexed.junk.length === 0 ? undefined : byStart(lexed.junk, lexed.starts, (t) => t.startOffset);
  const parser = filterParser();
  const nodes = parser.parseQuery(parsedTokens(lexed, junk), lexed.text, lexed.starts);
  const errors = parser.errors.length === 0 ? undefined : byStart(parser.errors, lexed.starts, offsetOf);
  const parsed: ParsedParam[] = [];
  for (let i = 0; i < filters.length; i++) {
    const filter = filters[i]!;
    const node = nodes[i];
    const at = lexed.params[i]!;
    // Most parameters: parsed, within the limits, nothing to say.
    const clean = node !== undefined && !errors?.[i]?.length && !junk?.[i]?.length && at.overLimit === undefined && filter.unreadable === undefined;
    if (clean && !filter.value.includes('\\') && !hasReservedName(node.path)) parsed.push(parsedParam(filter.key, filter.value, node, undefined, undefined));
    else parsed.push(explain(filter, node, at, lexed, errors?.[i] ?? NONE, junk?.[i]?.[0], limits.maxDiagnostics));
  }
  return parsed;
}

/**
 * The outcome of a parameter that has something to say: its key's problem (junk, a
 * missing name, reserved names), then the limit its value is past, or its value's
 * problems (invalid escapes, then each error of the parse) or the problems that kept
 * it from being decoded. A key that is a path keeps its path.
 */
function explain(filter: FilterText, node: Param | undefined, at: LexedParam, lexed: LexedQuery, mistakes: readonly IRecognitionException[], junk: IToken | undefined, max: number): ParsedParam {
  const problems = new Problems(max);
  let path: Path | undefined;
  if (at.overDepth) {
    problems.add(at.overLimit!);
  } else {
    const key = keyProblem(filter.key, junk, mistakes.find((e) => offsetOf(e) < at.valueStart), at.start + 1);
    const reserved = key === undefined && node !== undefined ? reservedNames(node.path, filter.key, 'key', filter.key, 'Filter on') : undefined;
    if (key !== undefined) problems.add(key);
    else if (reserved !== undefined) for (const d of reserved) problems.add(d);
    else path = node?.path;
    if (at.overLimit !== undefined) problems.add(at.overLimit);
    else if (filter.unreadable === undefined) {
      if (filter.value.includes('\\')) escapeProblems(filter.key, filter.value, lexed.tokens, at.equals + 1, at.last, at.valueStart, problems);
      for (const error of mistakes) if (offsetOf(error) >= at.valueStart) problems.add(valueProblem(filter.key, filter.value, error, lexed.tokens, at.equals, at.last));
      if (problems.empty && node !== undefined) return parsedParam(filter.key, filter.value, node, undefined, undefined);
      // Not reached: the parse reaches the end of every parameter. Should it not, the
      // parameter is refused rather than left out of the filter.
      if (problems.empty) problems.add(unparsed(filter));
    }
  }
  for (const d of filter.unreadable ?? NONE) problems.add(d);
  return parsedParam(filter.key, filter.value, undefined, undefined, problems.list(), path);
}

const NONE: readonly never[] = [];

/** Where a recognition error is in the lexed text: at its token, or past the end for the end of the input. */
function offsetOf(error: IRecognitionException): number {
  const offset = error.token.startOffset;
  return offset < 0 || Number.isNaN(offset) ? Infinity : offset;
}

/**
 * The tokens the parser is given: all of them, but for a parameter past a limit, whose
 * value is left out (its key is still parsed), or past the path depth, left out whole;
 * and a key that holds junk, which its junk explains, whose names and dots are left out
 * (the parser then meets its `=` where a name should be, and goes on with its value).
 * Left in, the names around junk (`a-b.c-d`) would each send Chevrotain's recovery back
 * into the path's repetition, one level of recursion deeper each time.
 */
function parsedTokens(lexed: LexedQuery, junk: readonly (readonly IToken[])[] | undefined): IToken[] {
  if (junk === undefined && !lexed.params.some((p) => p.overLimit !== undefined)) return lexed.tokens;
  const kept: IToken[] = [];
  lexed.params.forEach((p, i) => {
    if (p.overDepth) return;
    kept.push(lexed.tokens[p.first]!);
    const keyFrom = junk?.[i]?.length ? p.equals : p.first + 1;
    const through = p.overLimit === undefined ? p.last : p.equals;
    for (let t = keyFrom; t <= through; t++) kept.push(lexed.tokens[t]!);
    if (through !== p.last) kept.push(lexed.tokens[p.last]!);
  });
  return kept;
}

function unparsed(filter: FilterText): Diagnostic {
  return diagnostic('UNEXPECTED_TEXT', `Parameter ${quote(filter.key)} could not be parsed.`, { param: filter.key, in: 'value', text: filter.value }, { start: 0, end: filter.value.length }, 'See the filter grammar (grammar/filter.abnf).');
}
