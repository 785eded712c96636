import { EmbeddedActionsParser, Lexer, type ILexerConfig, type IParserConfig, type IParserErrorMessageProvider, type IToken } from './chevrotain';
import type { Clause, Name as NameNode, Operator as OperatorName, Param, Path, SortKey } from './ast';
import { readOperand } from './operand';
import { withPristinePrototypes } from './pristine';
import { ALL_TOKENS, Comma, Dot, End, Equals, LEXER_DEFINITION, Minus, Name, Operand, Operator, Semi, Start } from './tokens';

/**
 * The grammar of reference §3 and §9 (and `grammar/filter.abnf`), the one place it is
 * written. The rules build the syntax tree in their actions (embedded actions: a CST and
 * a visitor would double the allocations of a parse), and every query is parsed by
 * them, valid or not: a query that does not parse leaves Chevrotain's recognition errors
 * in `errors`, which `diagnose.ts` turns into diagnostics. Error recovery (Chevrotain's
 * own: a token inserted or skipped inside a rule, a repetition resynchronised, a rule
 * resynchronised at its follow set) lets one parse find every problem of every
 * parameter: the `param` rule ends at its parameter's `End`, and a clause at its `;`.
 *
 * Spans are relative to the key or value a node belongs to: the tokens of the whole
 * query are lexed together, and each parameter's `Start` and `Equals` say where its key
 * and its value begin in that text.
 */
export class FilterParser extends EmbeddedActionsParser {
  /** The lexed text, which the operand reader reads. */
  private text = '';
  /** Where each parameter's `Start` is in `text`, in order: which parameter a node is of. */
  private starts: readonly number[] = [];
  // State of the parameter being parsed, for the bodies built once below.
  private params: (Param | undefined)[] = [];
  private paramIndex = 0;
  private names: NameNode[] = [];
  private clauses: Clause[] = [];
  private keyStart = 0;
  private valueStart = 0;
  private sortKeys: SortKey[] = [];

  /**
   * `validate` runs Chevrotain's grammar checks (ambiguities, left recursion). They cost
   * start-up time and the grammar is fixed, so the shared instance skips them and the
   * tests build a validated one. `levers` changes Chevrotain's settings, for
   * `bench/levers.bench.ts` to measure what each gives.
   */
  constructor(validate = false, levers?: Pick<IParserConfig, 'maxLookahead' | 'errorMessageProvider'> & { readonly stackTraces?: boolean }) {
    const { stackTraces = false, ...config } = levers ?? {};
    super(ALL_TOKENS, { maxLookahead: 1, recoveryEnabled: true, skipValidations: !validate, errorMessageProvider: NO_MESSAGES, ...config });
    this.stackTraces = stackTraces;
    this.performSelfAnalysis();
  }

  /** Whether Chevrotain's recognition exceptions capture a stack trace: never but in `bench/levers.bench.ts`. */
  private readonly stackTraces: boolean;

  /** query = *param */
  readonly query = this.RULE('query', (): void => {
    this.MANY(this.nextParam);
  });

  private readonly nextParam = (): void => {
    this.SUBRULE(this.param);
  };

  /** param = Start path Equals clause *( Semi clause ) End */
  readonly param = this.RULE('param', (): void => {
    const start = this.CONSUME(Start);
    if (!this.RECORDING_PHASE) this.keyStart = start.startOffset + 1;
    const path = this.path();
    const equals = this.CONSUME(Equals);
    const clauses: Clause[] = (this.clauses = []);
    if (!this.RECORDING_PHASE) this.valueStart = equals.startOffset + 1;
    this.SUBRULE(this.clause);
    this.MANY2(this.nextClause);
    const end = this.CONSUME(End);
    if (this.RECORDING_PHASE) return;
    // A parameter whose parse went wrong still gets here, recovered; its errors say so.
    while (this.starts[this.paramIndex]! < start.startOffset) this.paramIndex++;
    const key = this.text.slice(this.keyStart, equals.startOffset);
    const value = this.text.slice(this.valueStart, end.startOffset);
    this.params[this.paramIndex] = { type: 'Param', key, value, path, clauses, span: { start: 0, end: value.length } };
  });

  private readonly nextClause = (): void => {
    this.CONSUME(Semi);
    this.SUBRULE2(this.clause);
  };

  /**
   * path = Name *( Dot Name ), in a filter key and in a sort key alike: a fragment of the
   * rules that use it rather than a rule of its own, so that the repetition and the
   * token after it (a key's `Equals`) are in one rule, where Chevrotain's recovery can
   * skip a key's stray names up to its `=` and still parse its value.
   */
  private path(): Path {
    const names: NameNode[] = (this.names = []);
    this.addName(this.CONSUME(Name));
    this.MANY(this.nextName);
    if (this.RECORDING_PHASE) return undefined as never;
    return { type: 'Path', names, span: { start: names[0]!.span.start, end: names[names.length - 1]!.span.end } };
  }

  private readonly nextName = (): void => {
    this.CONSUME(Dot);
    this.addName(this.CONSUME1(Name));
  };

  private addName(token: IToken): void {
    if (this.RECORDING_PHASE) return;
    const start = token.startOffset - this.keyStart;
    this.names.push({ type: 'Name', value: token.image, span: { start, end: start + token.image.length } });
  }

  /** clause = [ Operator ] Operand */
  readonly clause = this.RULE('clause', (): void => {
    const operator = this.OPTION(this.operator);
    const operand = this.CONSUME(Operand);
    if (this.RECORDING_PHASE || operand.isInsertedInRecovery === true) return;
    const start = operand.startOffset;
    const node = readOperand(this.text, start, start + operand.image.length, this.valueStart);
    const name: OperatorName = operator === undefined ? 'eq' : (operator.image.slice(0, -1) as OperatorName);
    const clauseStart = operator === undefined ? node.span.start : operator.startOffset - this.valueStart;
    this.clauses.push({ type: 'Clause', operator: name, operand: node, span: { start: clauseStart, end: node.span.end } });
  });

  private readonly operator = (): IToken => this.CONSUME(Operator);

  /** sort = sortKey *( Comma sortKey ) */
  readonly sort = this.RULE('sort', (): void => {
    this.SUBRULE(this.sortKey);
    this.MANY(this.nextSortKey);
  });

  private readonly nextSortKey = (): void => {
    this.CONSUME(Comma);
    this.SUBRULE2(this.sortKey);
  };

  /** sortKey = [ Minus ] path */
  readonly sortKey = this.RULE('sortKey', (): void => {
    const minus = this.OPTION(this.minus);
    const path = this.path();
    if (this.RECORDING_PHASE) return;
    const start = minus === undefined ? path.span.start : minus.startOffset;
    this.sortKeys.push({ type: 'SortKey', path, direction: minus === undefined ? 'asc' : 'desc', span: { start, end: path.span.end } });
  });

  private readonly minus = (): IToken => this.CONSUME(Minus);

  /**
   * Parses the tokens of the filter parameters of a query (`lex.ts`): `text` is what was
   * lexed, and `starts` where each parameter's `Start` is in it. The result holds a node
   * for each parameter that the parse reached the end of, recovered or not: `errors`
   * says which parameters went wrong.
   */
  parseQuery(tokens: IToken[], text: string, starts: readonly number[]): (Param | undefined)[] {
    this.text = text;
    this.starts = starts;
    this.paramIndex = 0;
    const params: (Param | undefined)[] = (this.params = new Array<Param | undefined>(starts.length).fill(undefined));
    this.input = tokens;
    this.quietly(() => this.query());
    return params;
  }

  /**
   * Runs a parse with no stack trace captured for the exceptions Chevrotain throws at each
   * recognition error (and catches again: none leaves the parse). Capturing one was most
   * of what refusing a clause cost (bench/RESULTS.md). Nothing else runs meanwhile: the
   * parse is synchronous, and the limit is put back whatever happens.
   */
  private quietly(parse: () => void): void {
    const limit = Error.stackTraceLimit;
    // Where the engine has no such setting (or it cannot be changed), the parse runs as it is.
    if (this.stackTraces || typeof limit !== 'number' || !Reflect.set(Error, 'stackTraceLimit', 0)) return parse();
    try {
      parse();
    } finally {
      Error.stackTraceLimit = limit;
    }
  }

  /**
   * Parses the tokens of a sort parameter's value. The result holds the keys the parse
   * reached the end of, recovered or not: `errors` says which went wrong.
   */
  parseSort(tokens: IToken[]): SortKey[] {
    this.keyStart = 0;
    const keys: SortKey[] = (this.sortKeys = []);
    this.input = tokens;
    this.quietly(() => this.sort());
    return keys;
  }
}


/**
 * Chevrotain builds a message for every recognition error; the diagnostics are built
 * from the errors' tokens instead (`diagnose.ts`), so the messages are empty.
 */
const NO_MESSAGES: IParserErrorMessageProvider = {
  buildMismatchTokenMessage: () => '',
  buildNotAllInputParsedMessage: () => '',
  buildNoViableAltMessage: () => '',
  buildEarlyExitMessage: () => '',
};

let lexer: Lexer | undefined;
let parser: FilterParser | undefined;

/**
 * Builds the lexer; `validate` checks the token definitions (a test does, the shared
 * instance need not); `levers` as the parser's.
 */
export function createFilterLexer(validate = false, levers?: Pick<ILexerConfig, 'positionTracking'>): Lexer {
  return withPristinePrototypes(() => new Lexer(LEXER_DEFINITION, { positionTracking: 'onlyOffset', ensureOptimizations: validate, skipValidations: !validate, ...levers }));
}

/** The lexer, built once on first use and reused. */
export function filterLexer(): Lexer {
  return (lexer ??= createFilterLexer());
}

/**
 * The parser, built once on first use and reused (`input` resets it). Chevrotain fills
 * a cache of each repetition's recovery the first time the repetition ends, in arrays
 * that a polluted `Array.prototype` would answer for: a first parse of a query and of a
 * sort value that end every repetition fills them while the prototypes are pristine.
 */
export function filterParser(): FilterParser {
  return (parser ??= withPristinePrototypes(() => {
    const built = new FilterParser();
    built.parseQuery(filterLexer().tokenize('\0a.b\0x;y\0').tokens, '', [0]);
    built.parseSort(filterLexer().tokenize('a.b,c', 'sort').tokens);
    return built;
  }));
}
