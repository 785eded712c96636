import { EmbeddedActionsParser, Lexer, type IToken } from './chevrotain';
import { withPristinePrototypes } from './pristine';
import type { Clause, Name as NameNode, Operand, Operator as OperatorName, Param, Path, SortKey } from './ast';
import {
  ALL_TOKENS,
  CloseQuote,
  Comma,
  Escape,
  FAST_LEXER_DEFINITION,
  Key,
  LEXER_DEFINITION,
  Minus,
  OpenQuote,
  Operator,
  operatorLength,
  Piece,
  Semi,
  SORT_LEXER_DEFINITION,
  SortPath,
  ValueEnd,
  Wildcard,
} from './tokens';

/**
 * The grammar of reference §3 (and `grammar/filter.abnf`) as a chevrotain parser. Rules
 * build AST nodes directly (embedded actions): a CST and a visitor would double the
 * allocations of a parse. Spans are relative to the key or value a node belongs to:
 * a key is one token, and `valueStart` holds where the value begins in the lexed text.
 *
 * Written for a parse of a few microseconds: actions test `RECORDING_PHASE` instead
 * of allocating `ACTION` closures, the bodies of repetitions and alternatives are
 * built once (they keep their state on the parser, which never re-enters a rule),
 * `value` and `operand` are parts of `param` and `clause` rather than rules of their
 * own, since every rule invocation has a cost, and a whole key is one `Key` token.
 */
export class FilterParser extends EmbeddedActionsParser {
  /** The parameters being parsed, in order. */
  private texts: readonly { readonly key: string; readonly value: string }[] = [];
  private paramIndex = 0;
  private valueStart = 0;
  // State of the rule being run, for the bodies built once below.
  private params: Param[] = [];
  private clauses: Clause[] = [];
  private readonly operand = new OperandText();

  /**
   * `validate` runs chevrotain's grammar checks (ambiguities, left recursion). They
   * cost start-up time and the grammar is fixed, so the shared instance skips them and
   * a test builds a validated one.
   */
  constructor(validate = false) {
    super(ALL_TOKENS, { maxLookahead: 1, skipValidations: !validate });
    this.performSelfAnalysis();
  }

  /** query = *param */
  readonly query = this.RULE('query', (): Param[] => {
    const params: Param[] = (this.params = []);
    this.MANY(this.nextParam);
    return params;
  });

  private readonly nextParam = (): void => {
    const param = this.SUBRULE(this.param);
    if (!this.RECORDING_PHASE) this.params.push(param);
  };

  /** param = Key clause *( Semi clause ) ValueEnd */
  readonly param = this.RULE('param', (): Param => {
    const key = this.CONSUME(Key);
    const clauses: Clause[] = (this.clauses = []);
    if (!this.RECORDING_PHASE) this.valueStart = key.startOffset + key.image.length;
    this.AT_LEAST_ONE_SEP(this.clauseList);
    const valueEnd = this.CONSUME(ValueEnd);
    if (this.RECORDING_PHASE) return undefined as never;
    const { key: text, value } = this.texts[this.paramIndex++]!;
    const path = pathOf(key.image, key.image.length - 1);
    return { type: 'Param', key: text, value, path, clauses, span: { start: 0, end: valueEnd.startOffset - this.valueStart } };
  });

  private readonly clauseList = {
    SEP: Semi,
    DEF: (): void => {
      const clause = this.SUBRULE(this.clause);
      if (!this.RECORDING_PHASE) this.clauses.push(clause);
    },
  };

  /** clause = [ Operator ] ( OpenQuote *Piece CloseQuote / 1*Piece ) */
  readonly clause = this.RULE('clause', (): Clause => {
    let operator: OperatorName = 'eq';
    let start = -1;
    const token = this.OPTION(this.operator);
    if (token !== undefined && !this.RECORDING_PHASE) {
      operator = token.image.slice(0, -1) as OperatorName;
      start = token.startOffset - this.valueStart;
    }
    this.operand.reset();
    this.OR(this.operandForms);
    if (this.RECORDING_PHASE) return undefined as never;
    const operand = this.operand.build(this.valueStart);
    return { type: 'Clause', operator, operand, span: { start: start < 0 ? operand.span.start : start, end: operand.span.end } };
  });

  private readonly operator = (): IToken => this.CONSUME(Operator);

  private readonly operandForms = [
    {
      ALT: (): void => {
        this.operand.start(this.CONSUME(OpenQuote));
        this.MANY(this.quotedPiece);
        this.operand.end(this.CONSUME(CloseQuote));
      },
    },
    { ALT: (): void => this.AT_LEAST_ONE(this.barePiece) },
  ];

  private readonly quotedPiece = (): void => {
    const piece = this.CONSUME(Piece);
    if (!this.RECORDING_PHASE) this.operand.add(piece);
  };

  private readonly barePiece = (): void => {
    const piece = this.CONSUME2(Piece);
    if (!this.RECORDING_PHASE) {
      this.operand.start(piece);
      this.operand.end(piece);
      this.operand.add(piece);
    }
  };

  /** Parses the token stream of a whole query into parameters; `errors` tells whether it failed. */
  parseQuery(tokens: IToken[], texts: readonly { readonly key: string; readonly value: string }[]): Param[] {
    this.texts = texts;
    this.paramIndex = 0;
    this.input = tokens;
    return this.query();
  }

  /** Parses the tokens of one clause on their own, when the query did not parse as a whole. */
  parseClause(tokens: IToken[], valueStart: number): Clause | undefined {
    this.valueStart = valueStart;
    this.input = tokens;
    return this.clause();
  }
}

/**
 * The grammar of the sort parameter's value (reference §9), a parser of its own: most
 * queries do not sort, and a parser's construction (`performSelfAnalysis`) grows with
 * its rules, so that the first query that does not sort builds none of it.
 */
export class SortParser extends EmbeddedActionsParser {
  private sortKeys: SortKey[] = [];

  /** `validate` as in `FilterParser`. */
  constructor(validate = false) {
    super(SORT_LEXER_DEFINITION, { maxLookahead: 1, skipValidations: !validate });
    this.performSelfAnalysis();
  }

  /** sort = sortKey *( Comma sortKey ) */
  readonly sort = this.RULE('sort', (): SortKey[] => {
    const keys: SortKey[] = (this.sortKeys = []);
    this.AT_LEAST_ONE_SEP(this.sortKeyList);
    return keys;
  });

  private readonly sortKeyList = {
    SEP: Comma,
    DEF: (): void => {
      const key = this.SUBRULE(this.sortKey);
      if (!this.RECORDING_PHASE) this.sortKeys.push(key);
    },
  };

  /** sortKey = [ Minus ] SortPath */
  readonly sortKey = this.RULE('sortKey', (): SortKey => {
    const minus = this.OPTION(this.minus);
    const path = this.CONSUME(SortPath);
    if (this.RECORDING_PHASE) return undefined as never;
    const start = minus === undefined ? path.startOffset : minus.startOffset;
    return {
      type: 'SortKey',
      path: pathOf(path.image, path.image.length, path.startOffset),
      direction: minus === undefined ? 'asc' : 'desc',
      span: { start, end: path.startOffset + path.image.length },
    };
  });

  private readonly minus = (): IToken => this.CONSUME(Minus);

  /** Parses the tokens of a sort parameter's value; `errors` tells whether it failed. */
  parseSort(tokens: IToken[]): SortKey[] {
    this.input = tokens;
    return this.sort();
  }
}

/**
 * The path of a key whose first `length` characters are known to be names joined by
 * dots (the image of a `Key` or `SortPath` token, or a key that lexed as one), its
 * spans shifted by `base` (where the text starts in the key or value it belongs to).
 */
export function pathOf(text: string, length: number, base = 0): Path {
  const names: NameNode[] = [];
  let start = 0;
  for (let dot = text.indexOf('.'); dot !== -1 && dot < length; dot = text.indexOf('.', start)) {
    names.push({ type: 'Name', value: text.slice(start, dot), span: { start: base + start, end: base + dot } });
    start = dot + 1;
  }
  names.push({ type: 'Name', value: text.slice(start, length), span: { start: base + start, end: base + length } });
  return { type: 'Path', names, span: { start: base, end: base + length } };
}

/**
 * The node of a `SimpleParam` token, the same as `param` builds from the full lexer's
 * tokens of that parameter: the key is a path, and each clause of the value an optional
 * operator and an operand, up to the `;` after it. The token's pattern has checked the
 * text, so that only the operands remain to be read.
 */
export function simpleParam(texts: { readonly key: string; readonly value: string }): Param {
  const { key, value } = texts;
  const path = pathOf(key, key.length);
  const clauses: Clause[] = [];
  // Without a quote or an escape (most values), each operand runs to the next `;`.
  const bare = !value.includes('"') && !value.includes('\\');
  let start = 0;
  for (;;) {
    const skip = operatorLength(value, start);
    const operator: OperatorName = skip === 0 ? 'eq' : (value.slice(start, start + skip - 1) as OperatorName);
    const operand = bare ? bareOperand(value, start + skip) : readOperand(value, start + skip);
    const end = operand.span.end;
    clauses.push({ type: 'Clause', operator, operand, span: { start, end } });
    if (end === value.length) break;
    start = end + 1;
  }
  return { type: 'Param', key, value, path, clauses, span: { start: 0, end: value.length } };
}

/** An operand from `start` to the next `;` or the end, none of it quoted or escaped: a pattern split at its wildcards, or a literal. */
function bareOperand(value: string, start: number): Operand {
  let end = value.indexOf(';', start);
  if (end === -1) end = value.length;
  const text = value.slice(start, end);
  const span = { start, end };
  return text.includes('%') ? { type: 'Pattern', segments: text.split('%'), span } : { type: 'Literal', value: text, span };
}

/**
 * The operand at `start`, quoted or bare, read as `OperandText` reads its tokens: an
 * escape gives the character after its `\`, and a wildcard ends a segment. Its span
 * holds its quotes.
 */
function readOperand(value: string, start: number): Operand {
  const quoted = value.charCodeAt(start) === 34; /* " */
  let i = quoted ? start + 1 : start;
  let run = i;
  let current = '';
  let segments: string[] | undefined;
  for (; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === (quoted ? 34 : 59) /* " or ; */) break;
    if (c === 92 /* \ */) {
      current += value.slice(run, i) + value[i + 1]!;
      run = ++i + 1;
    } else if (c === 37 /* % */) {
      (segments ??= []).push(current + value.slice(run, i));
      current = '';
      run = i + 1;
    }
  }
  current += value.slice(run, i);
  const span = { start, end: quoted ? i + 1 : i };
  if (segments === undefined) return { type: 'Literal', value: current, span };
  segments.push(current);
  return { type: 'Pattern', segments, span };
}

/** Collects the pieces of one operand into literal segments split at the wildcards. */
class OperandText {
  private segments: string[] | undefined;
  private current = '';
  private first: IToken | undefined;
  private last: IToken | undefined;

  reset(): void {
    this.segments = undefined;
    this.current = '';
    this.first = this.last = undefined;
  }

  /** The first token of the operand (its opening quote, or its first piece). */
  start(token: IToken): void {
    this.first ??= token;
  }

  /** The last token so far (its closing quote, or its latest piece). */
  end(token: IToken): void {
    this.last = token;
  }

  add(piece: IToken): void {
    if (piece.tokenType === Wildcard) {
      (this.segments ??= []).push(this.current);
      this.current = '';
    } else if (piece.tokenType === Escape) {
      this.current += piece.image[1];
    } else {
      this.current += piece.image;
    }
  }

  build(base: number): Operand {
    const first = this.first!;
    const last = this.last!;
    const span = { start: first.startOffset - base, end: last.startOffset + last.image.length - base };
    if (this.segments === undefined) return { type: 'Literal', value: this.current, span };
    this.segments.push(this.current);
    return { type: 'Pattern', segments: this.segments, span };
  }
}

let lexer: Lexer | undefined;
let fastLexer: Lexer | undefined;
let sortLexer: Lexer | undefined;
let parser: FilterParser | undefined;
let sortParser: SortParser | undefined;

/**
 * Builds the full lexer, or with `fast` the fast one (`FAST_LEXER_DEFINITION`); `validate`
 * checks the token definitions (a test does, the shared instances need not). The fast
 * lexer tries its two tokens in order at every parameter (`safeMode`): an index of the
 * first characters would choose between two, and building it is most of what building
 * that lexer costs a cold start.
 */
export function createFilterLexer(validate = false, fast = false): Lexer {
  const skipValidations = !validate;
  return withPristinePrototypes(() =>
    fast
      ? new Lexer(FAST_LEXER_DEFINITION, { positionTracking: 'onlyOffset', safeMode: true, skipValidations })
      : new Lexer(LEXER_DEFINITION, { positionTracking: 'onlyOffset', ensureOptimizations: true, skipValidations }),
  );
}

/**
 * The full lexer, built on first use: what the token limits and the error path read,
 * with a token for every part of every clause.
 */
export function filterLexer(): Lexer {
  return (lexer ??= createFilterLexer());
}

/** The lexer of a query's first try, which lexes a parameter of bare clauses as one token; built on first use. */
export function fastFilterLexer(): Lexer {
  return (fastLexer ??= createFilterLexer(false, true));
}

/** The lexer of sort values, built on first use (most queries do not sort). */
export function filterSortLexer(): Lexer {
  return (sortLexer ??= withPristinePrototypes(() => new Lexer(SORT_LEXER_DEFINITION, { positionTracking: 'onlyOffset', ensureOptimizations: true, skipValidations: true })));
}

/** The parser, built once on first use and reused (`input` resets it). */
export function filterParser(): FilterParser {
  return (parser ??= withPristinePrototypes(() => new FilterParser()));
}

/** The sort parameter's parser, built on first use (most queries do not sort). */
export function filterSortParser(): SortParser {
  return (sortParser ??= withPristinePrototypes(() => new SortParser()));
}
