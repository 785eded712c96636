import type { IToken } from './chevrotain';
import { diagnostic, type Diagnostic, type Location, type Span } from '../diagnostics/diagnostic';
import { excerpt, quote } from '../text/quote';
import type { Clause, Path } from './ast';
import { filterParser, pathOf } from './grammar';
import { addProblem, type Layout, type ParsedParam } from './parsed';
import { PATH_HINT, pathProblem, reservedNames } from './path';
import { BadEscape, CloseQuote, OpenQuote, Operator, Semi } from './tokens';

// The error path of parsing: a parameter that did not parse as part of the whole query is
// gone over on its own, key and clause by clause, to say exactly what is wrong with it.

/** One `INVALID_PATH` per reserved name in the path. */
export function addReservedNames(filter: ParsedParam, path: Path, max: number): void {
  const problems = reservedNames(path, { param: filter.key, in: 'key', text: filter.key }, 'Filter on');
  if (problems !== undefined) for (const d of problems) addProblem(filter, max, d);
}

/**
 * Checks the key of a parameter that did not parse as part of the whole query: what is
 * wrong with it, or else the reserved names in it; a key with neither gets its `path`.
 */
export function checkKey(filter: ParsedParam, max: number): void {
  const problem = explainKey(filter.key, { param: filter.key, in: 'key', text: filter.key });
  if (problem !== undefined) return addProblem(filter, max, problem);
  const path = pathOf(filter.key, filter.key.length);
  const before = filter.problems?.length ?? 0;
  addReservedNames(filter, path, max);
  if ((filter.problems?.length ?? 0) === before) filter.path = path;
}

/**
 * The error path: parses one parameter on its own, key and clause by clause, and says
 * what is wrong with each part; a parameter with nothing wrong gets its node.
 */
export function explainParam(index: number, filter: ParsedParam, tokens: IToken[], layout: Layout, max: number): void {
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
