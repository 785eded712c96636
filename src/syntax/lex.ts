import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic';
import type { Limits } from '../input/limits';
import { quote } from '../text/quote';
import type { IToken } from './chevrotain';
import { filterLexer } from './grammar';
import { countWildcards } from './operand';
import { Dot, End, Equals, JUNK, Operator, Semi, SEPARATOR } from './tokens';

// Lexing the filter parameters of a query, and the limits of reference §7 that bear on
// one parameter, checked on its tokens as they are made: a parameter past one is not
// parsed (reference §7: no further work is done on that input).

/** The filter parameters of a query, lexed in one call. */
export interface LexedQuery {
  /** What was lexed: `NUL key NUL value NUL` for each parameter. */
  readonly text: string;
  readonly tokens: IToken[];
  /** The `KeyJunk` tokens, in order: the parser never sees them. */
  readonly junk: readonly IToken[];
  readonly params: readonly LexedParam[];
  /** Where each parameter's `Start` is in the text. */
  readonly starts: readonly number[];
}

/** Where one parameter is in the lexed text and among the tokens, and the limit it is past, if any. */
export interface LexedParam {
  /** Offsets in the text: its `Start`, where its value begins (after its `Equals`), and its `End`. */
  readonly start: number;
  readonly valueStart: number;
  readonly end: number;
  /** Indexes of its `Start`, `Equals` and `End` tokens. */
  readonly first: number;
  readonly equals: number;
  readonly last: number;
  /** Past `maxPathDepth`: the key is not parsed either, and this is its only problem. */
  readonly overDepth: boolean;
  /** Past a limit of its value: `LIMIT_EXCEEDED`, and the value is not parsed. */
  readonly overLimit: Diagnostic | undefined;
}

/** The value lexed for a parameter: none for one whose value could not be decoded, whose key alone is parsed. */
function valueOf(filter: { readonly value: string; readonly unreadable?: unknown }): string {
  return filter.unreadable === undefined ? filter.value : '';
}

/** Lexes the filter parameters, given as decoded keys and values, and checks each against the limits. */
export function lexFilters(filters: readonly { readonly key: string; readonly value: string; readonly unreadable?: unknown }[], limits: Limits): LexedQuery {
  let text = '';
  for (const filter of filters) text += SEPARATOR + filter.key + SEPARATOR + valueOf(filter) + SEPARATOR;
  const lexed = filterLexer().tokenize(text);
  const tokens = lexed.tokens;
  const params: LexedParam[] = [];
  const starts: number[] = [];
  let t = 0;
  let offset = 0;
  for (const filter of filters) {
    const first = t;
    const valueStart = offset + filter.key.length + 2;
    const end = valueStart + valueOf(filter).length;
    // The key: its dots, up to its Equals.
    let depth = 1;
    while (tokens[++t]!.tokenType !== Equals) if (tokens[t]!.tokenType === Dot) depth++;
    const equals = t;
    while (tokens[++t]!.tokenType !== End);
    const overDepth = depth > limits.maxPathDepth;
    const overLimit = overDepth ? depthProblem(filter.key, depth, limits) : valueProblem(filter.key, filter.value, tokens, equals, t, valueStart, limits);
    starts.push(offset);
    params.push({ start: offset, valueStart, end, first, equals, last: t, overDepth, overLimit });
    t++;
    offset = end + 1;
  }
  return { text, tokens, junk: lexed.groups[JUNK] ?? [], params, starts };
}

function depthProblem(key: string, depth: number, limits: Limits): Diagnostic {
  return diagnostic(
    'LIMIT_EXCEEDED',
    `Parameter ${quote(key)} has a path of ${depth} names; at most ${limits.maxPathDepth} are allowed.`,
    { param: key, in: 'key', text: key },
    { start: 0, end: key.length },
    `Filter on a field of the resource: its path has at most ${limits.maxPathDepth} names (customerRef.id, lines.amount).`,
  );
}

/**
 * The first limit of its value that a parameter is past, clause by clause, if any: too
 * many clauses, or an operand (from any opening quote to the end of its clause, as
 * written) too long or with too many wildcards. `equals` and `end` are the indexes of
 * the value's first and last separators, `valueStart` where it begins in the text.
 */
function valueProblem(
  key: string,
  value: string,
  tokens: IToken[],
  equals: number,
  end: number,
  valueStart: number,
  limits: Limits,
): Diagnostic | undefined {
  let clauses = 1;
  let clauseStart = valueStart;
  let operandStart = valueStart;
  let wildcards = 0;
  for (let t = equals + 1; t <= end; t++) {
    const token = tokens[t]!;
    const type = token.tokenType;
    if (type === Operator) {
      operandStart = token.startOffset + token.image.length;
      continue;
    }
    if (type !== Semi && type !== End) {
      // An operand's text, or text after it: an escape never spans two tokens.
      const image = token.image;
      if (image.includes('%')) wildcards += countWildcards(image, 0, image.length);
      continue;
    }
    const clauseEnd = token.startOffset;
    const span = { start: operandStart - valueStart, end: clauseEnd - valueStart };
    if (clauses > limits.maxClauses) {
      return diagnostic(
        'LIMIT_EXCEEDED',
        `Parameter ${quote(key)} has more than ${limits.maxClauses} clauses.`,
        { param: key, in: 'value', text: value },
        { start: clauseStart - valueStart, end: value.length },
        `Send at most ${limits.maxClauses} clauses in one parameter; on a field outside a list, the rest can go in a repeated parameter (totalAmount=gte:1&totalAmount=lte:9), but not on a field of a list, where each parameter holds for any element.`,
      );
    }
    if (clauseEnd - operandStart > limits.maxOperandLength) {
      return diagnostic(
        'LIMIT_EXCEEDED',
        `Parameter ${quote(key)} has an operand of ${clauseEnd - operandStart} characters; at most ${limits.maxOperandLength} are allowed.`,
        { param: key, in: 'value', text: value },
        span,
        `Send an operand of at most ${limits.maxOperandLength} characters: a "%" wildcard, sent as %25, can stand for the rest of a long text.`,
      );
    }
    if (wildcards > limits.maxWildcards) {
      return diagnostic(
        'LIMIT_EXCEEDED',
        `Parameter ${quote(key)} has an operand with ${wildcards} wildcards; at most ${limits.maxWildcards} are allowed.`,
        { param: key, in: 'value', text: value },
        span,
        `Send at most ${limits.maxWildcards} "%" wildcards in one operand: a single "%" already matches any run of characters.`,
      );
    }
    clauses++;
    wildcards = 0;
    clauseStart = operandStart = clauseEnd + 1;
  }
  return undefined;
}
