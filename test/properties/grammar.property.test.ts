import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { EmbeddedActionsParser } from 'chevrotain';
import type { Clause, Operator, Param } from '../../src/index';
import { COMPARISON_OPERATORS } from '../../src/syntax/ast';
import { Bare, Dot, End, Equals, Name, Operator as OperatorToken, Quoted, Semi, Start } from '../../src/syntax/tokens';
import { parse as parseSource } from '../../src/index';
import { CORPUS, HARD_CORPUS } from '../../bench/corpus';
import { BUILDS } from '../support/builds';
import { name } from '../support/generators';

/**
 * The parser against a model of the language written apart from it (reference §3): a
 * parameter is generated as its parts (a path, clauses of an operator and an operand's
 * segments, quoted or bare), written out as a query by the rules of the reference, and
 * its tree, spans and all, built from the same parts. Whatever the parser makes of the
 * text must be that tree. The model shares no code with `src/syntax/`.
 */

/** Text of a segment: no NUL; the language's own characters often. */
const CHAR = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(';', '%', '"', '\\', ':', '&', '=', '+', ' ', '.', ',', 'é', '😀', 'g', 't', 'e', 'l') },
  { weight: 2, arbitrary: fc.constantFrom('a', 'b', '1', '-') },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }).filter((c) => !c.includes('\0')) },
);
const SEGMENT = fc.string({ unit: CHAR, maxLength: 6 });

interface ModelClause {
  readonly operator: Operator;
  /** One segment is a literal; two or more are a pattern, a wildcard between each two. */
  readonly segments: readonly string[];
  readonly quoted: boolean;
  /** Whether an optional escape (`\;` in quotes, `\"` inside a bare operand) is written. */
  readonly escapeAll: boolean;
}

interface ModelParam {
  readonly names: readonly string[];
  readonly clauses: readonly ModelClause[];
}

const CLAUSE: fc.Arbitrary<ModelClause> = fc.record({
  operator: fc.constantFrom<Operator>('eq', ...COMPARISON_OPERATORS),
  segments: fc.array(SEGMENT, { minLength: 1, maxLength: 3 }),
  quoted: fc.boolean(),
  escapeAll: fc.boolean(),
});
const PARAM: fc.Arbitrary<ModelParam> = fc.record({
  names: fc.array(name, { minLength: 1, maxLength: 4 }),
  clauses: fc.array(CLAUSE, { minLength: 1, maxLength: 5 }),
});

/** Whether a text starts with an operator and its colon: as a bare operand after no operator, it would read as one. */
const startsWithOperator = (text: string): boolean => /^(gte?|lte?):/.test(text);

/** The operand as written: quoted, or bare when it can be (not empty, not read as an operator or a quote). */
function writeOperand(clause: ModelClause): { text: string; quoted: boolean } {
  const first = clause.segments[0]!;
  const empty = clause.segments.length === 1 && first === '';
  const quoted = clause.quoted || empty || (clause.operator === 'eq' && startsWithOperator(first));
  const escape = (segment: string): string =>
    [...segment]
      .map((c, i) => {
        if (c === '\\' || c === '%') return `\\${c}`;
        if (quoted) return c === '"' || (c === ';' && clause.escapeAll) ? `\\${c}` : c;
        if (c === ';') return '\\;';
        // A bare operand may not open with a quote; elsewhere a quote is text, escaped or not.
        if (c === '"') return i === 0 && segment === first ? '\\"' : clause.escapeAll ? '\\"' : '"';
        return c;
      })
      .join('');
  const body = clause.segments.map(escape).join('%');
  return { text: quoted ? `"${body}"` : body, quoted };
}

/** The value as written, and the tree of each clause, spans in the value. */
function writeParam(param: ModelParam): { key: string; value: string; tree: Param } {
  const key = param.names.join('.');
  let value = '';
  const clauses: Clause[] = [];
  for (const clause of param.clauses) {
    if (value !== '') value += ';';
    const start = value.length;
    if (clause.operator !== 'eq') value += `${clause.operator}:`;
    const operandStart = value.length;
    value += writeOperand(clause).text;
    const span = { start: operandStart, end: value.length };
    const segments = clause.segments;
    const operand = segments.length === 1 ? { type: 'Literal' as const, value: segments[0]!, span } : { type: 'Pattern' as const, segments, span };
    clauses.push({ type: 'Clause', operator: clause.operator, operand, span: { start, end: value.length } });
  }
  let at = 0;
  const names = param.names.map((n) => {
    const span = { start: at, end: at + n.length };
    at += n.length + 1;
    return { type: 'Name' as const, value: n, span };
  });
  const tree: Param = { type: 'Param', key, value, path: { type: 'Path', names, span: { start: 0, end: key.length } }, clauses, span: { start: 0, end: value.length } };
  return { key, value, tree };
}

/** Far past what the generated parameters need: the model is about the grammar, not the limits. */
const NO_LIMITS = { limits: { maxClauses: Infinity, maxOperandLength: Infinity, maxWildcards: Infinity, maxPathDepth: Infinity } };

describe.each(BUILDS)('the parser against a model of the language, on %s', (_build, { parse }) => {
  it('parses every generated parameter into the tree the model built from its parts', () => {
    fc.assert(
      fc.property(fc.array(PARAM, { minLength: 1, maxLength: 4 }), (params) => {
        const written = params.map(writeParam);
        const query = written.map((w) => `${encodeURIComponent(w.key)}=${encodeURIComponent(w.value)}`).join('&');
        const result = parse(query, NO_LIMITS);
        expect(result.ok ? result.value.filters : result.errors).toEqual(written.map((w) => w.tree));
      }),
      { numRuns: 300 },
    );
  });
});

describe('the parser builds the tree of every valid query (a spy on Chevrotain)', () => {
  const valid = [...CORPUS, ...HARD_CORPUS].map((c) => c.query);

  it('is handed tokens that are lexical units, one operand token per clause and one name token per name', () => {
    const input = vi.spyOn(EmbeddedActionsParser.prototype, 'input', 'set');
    try {
      const lexical = new Set([Start, Name, Dot, Equals, OperatorToken, Quoted, Bare, Semi, End]);
      for (const query of valid) {
        input.mockClear();
        const result = parseSource(query);
        expect(result.ok, query).toBe(true);
        if (!result.ok) continue;
        const filters = result.value.filters;
        // The filters' parse (the sort parameter's value is parsed on its own).
        const parsed = input.mock.calls.map(([tokens]) => tokens as { tokenType: unknown }[]).filter((tokens) => tokens.some((t) => t.tokenType === Start));
        expect(parsed.length, query).toBe(filters.length === 0 ? 0 : 1);
        if (filters.length === 0) continue;
        const tokens = parsed[0]!;
        expect(tokens.every((t) => lexical.has(t.tokenType as never)), query).toBe(true);
        const count = (type: unknown): number => tokens.filter((t) => t.tokenType === type).length;
        expect(count(Quoted) + count(Bare), query).toBe(filters.reduce((n, f) => n + f.clauses.length, 0));
        expect(count(Name), query).toBe(filters.reduce((n, f) => n + f.path.names.length, 0));
        expect(count(Start), query).toBe(filters.length);
      }
    } finally {
      input.mockRestore();
    }
  });
});
