import type { Limits } from '../input/limits';
import type { Param } from './ast';
import { addReservedNames, checkKey, explainParam } from './explain';
import type { IToken } from './chevrotain';
import { fastFilterLexer, filterLexer, filterParser, simpleParam } from './grammar';
import { addProblem, type Layout, type ParsedParam } from './parsed';
import { checkTokenLimits, withinLimits } from './token-limits';
import { SEPARATOR, SimpleParam } from './tokens';

/**
 * Lexes every filter parameter in one call, first with the fast lexer, in which a
 * well-formed parameter is one `SimpleParam` token: a query of such parameters, within
 * the limits, is built from their texts and done, without the parser. Otherwise the full
 * lexer's tokens are gone over: the per-parameter limits are checked on them, the whole
 * token vector is parsed in one go, and only when something is wrong does it go back
 * over the parameters one by one to say exactly what, and to parse the ones that are
 * fine on their own.
 */
export function parseFilters(filters: ParsedParam[], limits: Limits): void {
  let text = '';
  for (const { key, value } of filters) text += key + SEPARATOR + value + SEPARATOR;
  const fast = fastFilterLexer().tokenize(text);
  if (fast.errors.length === 0) {
    const params = simpleParams(fast.tokens, filters);
    if (params !== undefined && withinLimits(params, limits)) {
      for (let i = 0; i < filters.length; i++) accept(filters[i]!, params[i]!, limits.maxDiagnostics);
      return;
    }
  }
  // Where each value starts in the text: what the limits and the explanations count from.
  const layout: Layout = { valueStart: [], keyEnd: [], valueEnd: [] };
  let start = 0;
  for (const { key, value } of filters) {
    layout.valueStart.push(start + key.length + 1);
    start += key.length + value.length + 2;
  }
  const lexed = filterLexer().tokenize(text);
  const tokens = lexed.tokens;
  const overLimit = checkTokenLimits(filters, tokens, layout, limits);
  if (lexed.errors.length === 0 && !overLimit) {
    const parser = filterParser();
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

/**
 * The parameters of a token vector that is one `SimpleParam` per parameter, built from
 * their texts, or undefined when a parameter is not one. Valid queries are so, and the
 * parser and the full lexer are then not even built: the first such query of a process
 * skips their construction.
 */
function simpleParams(tokens: IToken[], filters: readonly ParsedParam[]): Param[] | undefined {
  if (tokens.length !== filters.length) return undefined;
  for (const token of tokens) if (token.tokenType !== SimpleParam) return undefined;
  return filters.map(simpleParam);
}

/** Takes a parameter that parsed as part of the whole query, unless a name in its path is reserved. */
function accept(filter: ParsedParam, param: Param, max: number): void {
  addReservedNames(filter, param.path, max);
  if (filter.problems === undefined) filter.param = param;
}
