import type { IToken } from './chevrotain';
import type { Param } from './ast';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic';
import { quote } from '../text/quote';
import type { Limits } from '../input/limits';
import { addProblem, type Layout, type ParsedParam } from './parsed';
import { Key, KeyEnd, Operator, QuotedEnd, Semi, ValueEnd, Wildcard } from './tokens';

// The limits of reference §7 that bear on one filter parameter: each is checked before
// the work it protects, so that a parameter past one is not parsed (or lexed) further.

/**
 * The check that needs no lexing: path depth, a limit, so that a path past it is not
 * lexed at all. An empty key or value is found while explaining a failed parse, so
 * that a parameter with both ("=") gets both diagnostics.
 */
export function overDepth(filter: ParsedParam, limits: Limits): boolean {
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

/**
 * One pass over the tokens: records the layout, and reports parameters with too many
 * clauses, or an operand that is too long or has too many wildcards. Those parameters
 * are not parsed further. True when any limit was exceeded.
 */
export function checkTokenLimits(filters: ParsedParam[], tokens: IToken[], layout: Layout, limits: Limits): boolean {
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
 * True when parameters that parsed keep within the limits that `checkTokenLimits`
 * checks on the full lexer's tokens: clauses per parameter, and per operand (from any
 * opening quote to the end of the clause) its length and its wildcards. A query that
 * does not goes over the full tokens, which say which limit and where.
 */
export function withinLimits(params: readonly Param[], limits: Limits): boolean {
  for (const param of params) {
    if (param.clauses.length > limits.maxClauses) return false;
    for (const { operand } of param.clauses) {
      if (operand.span.end - operand.span.start > limits.maxOperandLength) return false;
      if (operand.type === 'Pattern' && operand.segments.length - 1 > limits.maxWildcards) return false;
    }
  }
  return true;
}
