/**
 * Chevrotain's own levers (issue 31, item 2), each against its other setting in one run:
 * what LL(1) lookahead, offsets-only positions, a reused parser, skipped validations,
 * messages left unbuilt and exceptions without stack traces give. Measured on `src/`'s
 * parser and lexer (the built package has no switch for them), parsing the filter
 * parameters of the corpus (lexed once beforehand for the parser's rows) or refusing a
 * query of 64 parameters of 16 bad clauses. Construction is timed over fresh instances.
 */
import { CORPUS } from './corpus';
import { compare } from './lib/measure';
import { duration, times } from './lib/format';
import { defineScenario, type Table } from './lib/scenario';
import { catalog } from '../src/schema/catalog';
import { decodeQuery } from '../src/input/decode';
import { DEFAULT_LIMITS } from '../src/input/limits';
import { createFilterLexer, FilterParser, filterLexer } from '../src/syntax/grammar';
import { lexFilters } from '../src/syntax/lex';
import type { IToken } from '../src/syntax/chevrotain';
import { defaultParserErrorProvider } from 'chevrotain';

/** The filter parameters of each corpus query, decoded. */
const SETS = CORPUS.map((c) => {
  const decoded = decodeQuery(c.query, DEFAULT_LIMITS);
  const params = decoded.params ?? [];
  const passThrough = catalog[c.resource].params;
  return params.filter((p) => !passThrough.has(p.key) && p.key !== 'orderBy').map((p) => ({ key: p.key, value: p.value ?? '', unreadable: undefined }));
});
const LEXED = SETS.map((set) => lexFilters(set, DEFAULT_LIMITS));
const TEXTS = LEXED.map((l) => l.text);
const REFUSED = lexFilters(
  Array.from({ length: 64 }, () => ({ key: 'vendorName', value: Array(16).fill('"a"b').join(';'), unreadable: undefined })),
  DEFAULT_LIMITS,
);

let sink: unknown;

/** Parses every lexed query with `parser`. */
function parseAll(parser: FilterParser, lexed: readonly { readonly tokens: IToken[]; readonly text: string; readonly starts: readonly number[] }[]): void {
  for (const l of lexed) {
    sink = parser.parseQuery(l.tokens.slice(), l.text, l.starts);
    sink = parser.errors;
  }
}

export default defineScenario({
  name: 'levers',
  title: "Chevrotain's levers, each against its other setting",
  async run({ quick }) {
    const ll1 = new FilterParser();
    const ll3 = new FilterParser(false, { maxLookahead: 3 });
    const chevrotainMessages = new FilterParser(false, { errorMessageProvider: defaultParserErrorProvider });
    const stackTraces = new FilterParser(false, { stackTraces: true });
    const offsets = createFilterLexer();
    const full = createFilterLexer(false, { positionTracking: 'full' });
    const fns = {
      'parse, LL(1)': () => parseAll(ll1, LEXED),
      'parse, maxLookahead 3': () => parseAll(ll3, LEXED),
      'parse, reused parser': () => parseAll(ll1, LEXED),
      'parse, a new parser each query': () => {
        for (const l of LEXED) parseAll(new FilterParser(), [l]);
      },
      'lex, offsets only': () => {
        for (const t of TEXTS) sink = offsets.tokenize(t);
      },
      'lex, full positions': () => {
        for (const t of TEXTS) sink = full.tokenize(t);
      },
      'refuse, no messages, no stack traces': () => parseAll(ll1, [REFUSED]),
      'refuse, no messages, stack traces': () => parseAll(stackTraces, [REFUSED]),
      "refuse, Chevrotain's messages, no stack traces": () => parseAll(chevrotainMessages, [REFUSED]),
      'build, validations skipped': () => {
        sink = new FilterParser();
      },
      'build, validated': () => {
        sink = new FilterParser(true);
      },
      'build the lexer, validations skipped': () => {
        sink = createFilterLexer();
      },
      'build the lexer, validated': () => {
        sink = createFilterLexer(true);
      },
    };
    filterLexer();
    const ns = await compare(fns, { quick, slow: false });
    const row = (name: keyof typeof fns, against: keyof typeof fns, lever: string): string[] => [lever, name, duration(ns[name]), against, duration(ns[against]), times(ns[against] / ns[name])];
    const tables: Table[] = [
      {
        title: `the corpus's filter parameters (${CORPUS.length} queries), or one refused query of 1,024 bad clauses`,
        columns: ['lever', 'on', 'time', 'off', 'time', 'off / on'],
        rows: [
          row('parse, LL(1)', 'parse, maxLookahead 3', 'LL(1) lookahead (maxLookahead: 1)'),
          row('parse, reused parser', 'parse, a new parser each query', 'one parser, reused (parser.input = tokens)'),
          row('lex, offsets only', 'lex, full positions', "positionTracking: 'onlyOffset'"),
          row('refuse, no messages, no stack traces', 'refuse, no messages, stack traces', 'no stack trace for a recognition exception'),
          row('refuse, no messages, no stack traces', "refuse, Chevrotain's messages, no stack traces", 'no message built for a recognition error'),
          row('build, validations skipped', 'build, validated', 'skipValidations, building the parser'),
          row('build the lexer, validations skipped', 'build the lexer, validated', 'skipValidations, building the lexer'),
        ],
        notes: [
          'Not switchable here: EmbeddedActionsParser (the tree built in the actions, no CST), the start_chars_hint of every token (without one, building the lexer analyses the pattern with regexp-to-ast, and a pattern it cannot analyse costs the first-character optimisation), and building on first use (bench coldstart times the import and the first check).',
        ],
      },
    ];
    void sink;
    return { tables, goals: [] };
  },
});
