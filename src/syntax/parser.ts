import { EmbeddedActionsParser, Lexer, type IToken } from 'chevrotain';
import type { Span } from '../diagnostics/diagnostic';
import type { Clause, Name as NameNode, Operand, Operator as OperatorName, Param, Path } from './ast';
import {
  ALL_TOKENS,
  CloseQuote,
  Dot,
  Escape,
  KeyEnd,
  LEXER_DEFINITION,
  Name,
  OpenQuote,
  Operator,
  Piece,
  Semi,
  ValueEnd,
  Wildcard,
} from './tokens';

/**
 * The grammar of SPEC §3 (and `grammar/filter.abnf`) as a chevrotain parser. Rules
 * build AST nodes directly (embedded actions): a CST and a visitor would double the
 * allocations of a parse. Spans are relative to the key or value a node belongs to:
 * `keyStart` and `valueStart` hold where those begin in the lexed text.
 */
export class FilterParser extends EmbeddedActionsParser {
  /** The parameters being parsed, in order. */
  private texts: readonly { readonly key: string; readonly value: string }[] = [];
  private paramIndex = 0;
  private keyStart = 0;
  private valueStart = 0;

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
    const params: Param[] = [];
    this.MANY(() => {
      params.push(this.SUBRULE(this.param));
    });
    return params;
  });

  /** param = path KeyEnd value ValueEnd */
  readonly param = this.RULE('param', (): Param => {
    this.ACTION(() => {
      this.keyStart = this.LA(1).startOffset;
    });
    const path = this.SUBRULE(this.path);
    const keyEnd = this.CONSUME(KeyEnd);
    this.ACTION(() => {
      this.valueStart = keyEnd.startOffset + 1;
    });
    const clauses = this.SUBRULE(this.value);
    const valueEnd = this.CONSUME(ValueEnd);
    return this.ACTION(() => {
      const { key, value } = this.texts[this.paramIndex++]!;
      return { type: 'Param' as const, key, value, path, clauses, span: { start: 0, end: valueEnd.startOffset - this.valueStart } };
    });
  });

  /** path = Name *( Dot Name ) */
  readonly path = this.RULE('path', (): Path => {
    const names: NameNode[] = [];
    const first = this.CONSUME(Name);
    this.ACTION(() => names.push(this.name(first)));
    this.MANY(() => {
      this.CONSUME(Dot);
      const next = this.CONSUME2(Name);
      this.ACTION(() => names.push(this.name(next)));
    });
    return this.ACTION(() => ({
      type: 'Path' as const,
      names,
      span: { start: 0, end: (names[names.length - 1]?.span.end ?? 0) },
    }));
  });

  /** value = clause *( Semi clause ) */
  readonly value = this.RULE('value', (): Clause[] => {
    const clauses: Clause[] = [];
    this.AT_LEAST_ONE_SEP({
      SEP: Semi,
      DEF: () => {
        clauses.push(this.SUBRULE(this.clause));
      },
    });
    return clauses;
  });

  /** clause = [ Operator ] operand */
  readonly clause = this.RULE('clause', (): Clause => {
    let operator: OperatorName = 'eq';
    let start = -1;
    this.OPTION(() => {
      const token = this.CONSUME(Operator);
      this.ACTION(() => {
        operator = token.image.slice(0, -1) as OperatorName;
        start = token.startOffset - this.valueStart;
      });
    });
    const operand = this.SUBRULE(this.operand);
    return this.ACTION(() => ({
      type: 'Clause' as const,
      operator,
      operand,
      span: { start: start < 0 ? operand.span.start : start, end: operand.span.end },
    }));
  });

  /** operand = OpenQuote *Piece CloseQuote / 1*Piece */
  readonly operand = this.RULE('operand', (): Operand => {
    const text = new OperandText();
    let first: IToken | undefined;
    let last: IToken | undefined;
    this.OR([
      {
        ALT: () => {
          first = this.CONSUME(OpenQuote);
          this.MANY(() => {
            const piece = this.CONSUME(Piece);
            this.ACTION(() => text.add(piece));
          });
          last = this.CONSUME(CloseQuote);
        },
      },
      {
        ALT: () => {
          this.AT_LEAST_ONE(() => {
            const piece = this.CONSUME2(Piece);
            this.ACTION(() => {
              first ??= piece;
              last = piece;
              text.add(piece);
            });
          });
        },
      },
    ]);
    return this.ACTION(() => text.operand(this.span(first, last)));
  });

  /** Parses the token stream of a whole query into parameters; `errors` tells whether it failed. */
  parseQuery(tokens: IToken[], texts: readonly { readonly key: string; readonly value: string }[]): Param[] {
    this.texts = texts;
    this.paramIndex = 0;
    this.input = tokens;
    return this.query();
  }

  /** Parses the tokens of one key on their own (to find what is wrong with it). */
  parsePath(tokens: IToken[], keyStart: number): Path | undefined {
    this.keyStart = keyStart;
    this.input = tokens;
    return this.path();
  }

  /** Parses the tokens of one clause on their own (to find what is wrong with it). */
  parseClause(tokens: IToken[], valueStart: number): Clause | undefined {
    this.valueStart = valueStart;
    this.input = tokens;
    return this.clause();
  }

  private name(token: IToken): NameNode {
    const start = token.startOffset - this.keyStart;
    return { type: 'Name', value: token.image, span: { start, end: start + token.image.length } };
  }

  private span(first: IToken | undefined, last: IToken | undefined): Span {
    if (first === undefined || last === undefined) return { start: 0, end: 0 };
    return { start: first.startOffset - this.valueStart, end: last.startOffset + last.image.length - this.valueStart };
  }
}

/** Collects the pieces of an operand into literal segments split at the wildcards. */
class OperandText {
  private segments: string[] | undefined;
  private current = '';

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

  operand(span: Span): Operand {
    if (this.segments === undefined) return { type: 'Literal', value: this.current, span };
    this.segments.push(this.current);
    return { type: 'Pattern', segments: this.segments, span };
  }
}

let lexer: Lexer | undefined;
let parser: FilterParser | undefined;

/** Builds the lexer; `validate` checks the token definitions (a test does, the shared instance need not). */
export function createFilterLexer(validate = false): Lexer {
  return new Lexer(LEXER_DEFINITION, { positionTracking: 'onlyOffset', ensureOptimizations: true, skipValidations: !validate });
}

/** The lexer, built on first use so that importing the package does no work. */
export function filterLexer(): Lexer {
  return (lexer ??= createFilterLexer());
}

/** The parser, built once on first use and reused (`input` resets it). */
export function filterParser(): FilterParser {
  return (parser ??= new FilterParser());
}
