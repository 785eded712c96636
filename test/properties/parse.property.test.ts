import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quote } from '../../src/text/quote';
import { encodeComponent } from '../../src/syntax/format';
import {
  DIAGNOSTIC_CODES,
  format,
  OPERATORS,
  parse,
  type Clause,
  type Diagnostic,
  type FilterAst,
  type Limits,
  type Operator,
  type Param,
  type QueryInput,
  type Result,
  type Span,
} from '../../src/index';
import { RESERVED_NAMES } from '../../src/values/name';
import { SYNTAX_CODES } from '../support/codes';
import { summarize } from '../support/summary';
import { BUILDS } from '../support/builds';

/** Codes `parse` may report; the others need a schema. */
const PARSE_CODES: ReadonlySet<string> = new Set(SYNTAX_CODES);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

// ------------------------------------------------------------------ generators

/** Characters the language gives a meaning to, at the query level or in a value. */
const SPECIAL = fc.constantFrom('&', '=', ';', '%', '"', '\\', '+', ':', '.', '?', '#', ' ', '%25', '%22', '%5C', '%3B', 'gte:', 'gt:', 'lt:', 'lte:');
const LONE_SURROGATE = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const HEX_OR_NOT = fc.constantFrom(...'0123456789abcdefABCDEF', 'g', 'z', '%', ' ', '&', '');
/** A `%` and two characters that may or may not be hex digits. */
const PERCENT = fc.tuple(HEX_OR_NOT, HEX_OR_NOT).map(([a, b]) => `%${a}${b}`);
/** Escapes of real UTF-8 sequences and their pieces, to make (in)valid multi-byte sequences likely. */
const UTF8_PIECE = fc.constantFrom('%C3', '%A9', '%E2', '%82', '%AC', '%F0', '%9F', '%98', '%80', '%ED', '%A0', '%C0', '%AF', '%FF', '%00');

/** Anything at all, unit by unit: full code points, lone surrogates, and the special characters. */
const ANY_UNIT = fc.oneof(
  { weight: 3, arbitrary: SPECIAL },
  { weight: 2, arbitrary: fc.constantFrom('a', 'b', 'x', '_', '1') },
  { weight: 2, arbitrary: PERCENT },
  { weight: 2, arbitrary: UTF8_PIECE },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: LONE_SURROGATE },
);
const anyText = (maxLength: number) => fc.string({ unit: ANY_UNIT, maxLength });

/** Query strings shaped like queries: `key=value` parts, some keys dot paths. */
const QUERY = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom('a', 'a.b', 'customerRef.id', '', '__proto__'), anyText(6)), fc.option(anyText(12))), { maxLength: 5 })
  .map((parts) => parts.map(([k, v]) => (v === null ? k : `${k}=${v}`)).join('&'));

/** Well-formed text (no NUL, no lone surrogate), biased to the language's special characters. */
const TEXT_UNIT = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('&', ';', '%', '"', '\\', '+', ':', '=', '#', ' ', '.', '?', 'gte:', 'lt:', 'é', '€', '😀', '\u00a0') },
  { weight: 2, arbitrary: fc.constantFrom('a', 'b', 'x', '1') },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((c) => c !== '\0') },
);
const text = (maxLength: number, minLength = 0) => fc.string({ unit: TEXT_UNIT, minLength, maxLength });

const LIMITS: fc.Arbitrary<Partial<Limits>> = fc.record(
  {
    maxQueryLength: fc.nat(300),
    maxParams: fc.nat(6),
    maxClauses: fc.nat(4),
    maxOperandLength: fc.nat(12),
    maxWildcards: fc.nat(3),
    maxPathDepth: fc.nat(4),
  },
  { requiredKeys: [] },
);
const OPTIONS = fc.record(
  { limits: LIMITS, params: fc.array(fc.constantFrom('a', 'businessName', '', 'a.b'), { maxLength: 2 }) },
  { requiredKeys: [] },
);

/** Records as any query parser may hand them over, including what it should not. */
const RECORD_VALUE = fc.oneof(
  anyText(12),
  fc.array(anyText(8), { maxLength: 3 }),
  fc.array(fc.oneof(anyText(4), fc.integer(), fc.constant(null)), { maxLength: 3 }),
  // Lists with holes, which Array.prototype.every skips (a hole once made check throw).
  fc.sparseArray(anyText(4), { maxLength: 3 }),
  fc.dictionary(anyText(4), anyText(4), { maxKeys: 2 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
);
const RECORD = fc.dictionary(fc.oneof(fc.constantFrom('a', 'customerRef.id', '__proto__', 'constructor'), anyText(6)), RECORD_VALUE, { maxKeys: 5 });

// ------------------------------------------------------------------ well-formedness

function within(span: Span, textLength: number): void {
  expect(Number.isInteger(span.start) && Number.isInteger(span.end)).toBe(true);
  expect(0 <= span.start && span.start <= span.end && span.end <= textLength).toBe(true);
}

/** Whether offset `i` falls between the two halves of a surrogate pair. */
function cutsPair(s: string, i: number): boolean {
  const before = s.charCodeAt(i - 1);
  const after = s.charCodeAt(i);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}

function checkDiagnostic(d: Diagnostic): void {
  expect(DIAGNOSTIC_CODES).toContain(d.code);
  expect(PARSE_CODES.has(d.code)).toBe(true);
  expect(d.message).toEqual(expect.stringMatching(/\S/));
  if (d.hint !== undefined) expect(typeof d.hint).toBe('string');
  if (d.param === undefined) {
    // Only problems of the whole query have no parameter to name.
    expect(['LIMIT_EXCEEDED', 'INVALID_PARAMETER']).toContain(d.code);
    expect(d.span).toBeUndefined();
    return;
  }
  expect(d.message).toContain(quote(d.param));
  expect(['key', 'value']).toContain(d.in);
  if (d.span !== undefined && d.text !== undefined) {
    within(d.span, d.text.length);
    // Spans in decoded text never cut a character in two (the raw text of a
    // MALFORMED_ENCODING may hold a lone surrogate, which is the problem itself).
    if (d.code !== 'MALFORMED_ENCODING') expect(cutsPair(d.text, d.span.start) || cutsPair(d.text, d.span.end)).toBe(false);
  }
}

function checkParam(p: Param): void {
  expect(p.type).toBe('Param');
  expect(p.path.names.map((n) => n.value).join('.')).toBe(p.key);
  for (const name of p.path.names) {
    expect(name.value).toMatch(NAME);
    expect(RESERVED_NAMES.has(name.value)).toBe(false);
    within(name.span, p.key.length);
    expect(p.key.slice(name.span.start, name.span.end)).toBe(name.value);
  }
  within(p.span, p.value.length);
  expect(p.clauses.length).toBeGreaterThan(0);
  for (const c of p.clauses) {
    expect(OPERATORS).toContain(c.operator);
    within(c.span, p.value.length);
    within(c.operand.span, p.value.length);
    if (c.operand.type === 'Literal') expect(typeof c.operand.value).toBe('string');
    else expect(c.operand.segments.length).toBeGreaterThanOrEqual(2);
  }
}

function checkResult(result: Result<FilterAst>): void {
  expect(typeof result.ok).toBe('boolean');
  if (result.ok) {
    expect(result.value.type).toBe('Query');
    result.value.filters.forEach(checkParam);
    for (const value of Object.values(result.value.params)) {
      if (typeof value !== 'string') {
        expect(value.length).toBeGreaterThanOrEqual(2);
        for (const v of value) expect(typeof v).toBe('string');
      }
    }
  } else {
    expect(result.errors.length).toBeGreaterThan(0);
    result.errors.forEach(checkDiagnostic);
  }
}

// On the sources in full, and on the built package (ES module, CommonJS) with a tenth of
// the runs: what ships is what is tested, within the unit tests' minute. CI runs them on
// three Node majors, each with its own seeds.
describe.each(BUILDS)('on %s', (build, { parse, format }) => {
  const RUNS = build === 'src' ? 2000 : 200;


  describe('parse never throws and always returns a well-formed Result', () => {
    it('for arbitrary strings of code points', () => {
      fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (s) => checkResult(parse(s))), { numRuns: RUNS });
    });

    it('for arbitrary strings of UTF-16 units, lone surrogates included', () => {
      const unit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
      fc.assert(fc.property(fc.string({ unit, maxLength: 60 }), (s) => checkResult(parse(s))), { numRuns: RUNS });
    });

    it('for query-shaped strings full of special characters and percent sequences, with any options', () => {
      fc.assert(
        fc.property(QUERY, OPTIONS, (q, options) => {
          checkResult(parse(q, options));
          checkResult(parse(`?${q}`, options));
          checkResult(parse(`https://api.example.com/x?${q}#${q}`, options));
        }),
        { numRuns: RUNS },
      );
    });

    it('for arbitrary records, with any options', () => {
      fc.assert(fc.property(RECORD, OPTIONS, (record, options) => checkResult(parse(record as QueryInput, options))), { numRuns: RUNS });
    });

    it('for URLSearchParams of arbitrary pairs', () => {
      fc.assert(
        fc.property(fc.array(fc.tuple(anyText(6), anyText(10)), { maxLength: 5 }), (pairs) => checkResult(parse(new URLSearchParams(pairs)))),
        { numRuns: RUNS },
      );
    });
  });

  // ------------------------------------------------------------------ format round trip

  const nameArb = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/).filter((n) => !RESERVED_NAMES.has(n));
  const pathArb = fc.array(nameArb, { minLength: 1, maxLength: 4 });
  const SPAN = { start: 0, end: 0 };

  const clauseArb: fc.Arbitrary<Clause> = fc
    .tuple(
      fc.constantFrom<Operator>(...OPERATORS),
      fc.oneof(
        text(12).map((value) => ({ type: 'Literal' as const, value, span: SPAN })),
        fc.array(text(8), { minLength: 2, maxLength: 4 }).map((segments) => ({ type: 'Pattern' as const, segments, span: SPAN })),
      ),
    )
    .map(([operator, operand]) => ({ type: 'Clause', operator, operand, span: SPAN }));

  const paramArb: fc.Arbitrary<Param> = fc.tuple(pathArb, fc.array(clauseArb, { minLength: 1, maxLength: 5 })).map(([names, clauses]) => ({
    type: 'Param',
    key: names.join('.'),
    value: '',
    path: { type: 'Path', names: names.map((value) => ({ type: 'Name' as const, value, span: SPAN })), span: SPAN },
    clauses,
    span: SPAN,
  }));

  /** Pass-through keys start with "$", which no path can hold, so they never clash with a filter. */
  const passThroughArb = fc.dictionary(
    text(8).map((k) => `$${k}`),
    fc.oneof(text(8), fc.array(text(8), { minLength: 2, maxLength: 3 })),
    { maxKeys: 3 },
  );

  /** Valid trees within the default limits (the sizes above keep the query under 8 KiB). */
  const astArb: fc.Arbitrary<FilterAst> = fc
    .tuple(fc.array(paramArb, { maxLength: 4 }), passThroughArb)
    .map(([filters, params]) => ({ type: 'Query', filters, params }));

  describe('format', () => {
    it('writes what parse reads back as the same tree (spans and source text aside)', () => {
      fc.assert(
        fc.property(astArb, (ast) => {
          const written = format(ast);
          const result = parse(written, { params: Object.keys(ast.params) });
          if (!result.ok) throw new Error(`${written}: ${JSON.stringify(result.errors)}`);
          expect(summarize(result.value)).toEqual(summarize(ast));
        }),
        { numRuns: RUNS },
      );
    });

    it('writes an equality on any text so that it matches exactly that text (reference §8)', () => {
      fc.assert(
        fc.property(text(40), (s) => {
          const ast: FilterAst = {
            type: 'Query',
            filters: [
              {
                type: 'Param',
                key: 'businessName',
                value: '',
                path: { type: 'Path', names: [{ type: 'Name', value: 'businessName', span: SPAN }], span: SPAN },
                clauses: [{ type: 'Clause', operator: 'eq', operand: { type: 'Literal', value: s, span: SPAN }, span: SPAN }],
                span: SPAN,
              },
            ],
            params: {},
          };
          const result = parse(format(ast));
          if (!result.ok) throw new Error(`${format(ast)}: ${JSON.stringify(result.errors)}`);
          expect(result.value.filters).toHaveLength(1);
          expect(result.value.filters[0]!.clauses).toHaveLength(1);
          const clause = result.value.filters[0]!.clauses[0]!;
          expect(clause.operator).toBe('eq');
          expect(clause.operand).toMatchObject({ type: 'Literal', value: s });
        }),
        { numRuns: RUNS },
      );
    });
  });

  // ------------------------------------------------------------------ records and query strings

  describe('a record and the same pairs sent as a query string', () => {
    const recordArb = fc.dictionary(
      fc.oneof(fc.constantFrom('a', 'a.b', 'customerRef.id', 'businessName', 'a..b', ''), text(6)),
      fc.oneof(text(12), fc.array(text(8), { maxLength: 3 })),
      { maxKeys: 5 },
    );
    // The query is longer than the record (it is encoded), so the length limit is lifted for both.
    const options = fc.record({ params: fc.array(fc.constantFrom('a', 'businessName', ''), { maxLength: 2 }) });

    it('parse to the same result', () => {
      fc.assert(
        fc.property(recordArb, options, (record, { params }) => {
          const query = Object.entries(record)
            .flatMap(([k, v]) => (typeof v === 'string' ? [v] : v).map((item) => `${encodeComponent(k)}=${encodeComponent(item)}`))
            .join('&');
          const limits = { maxQueryLength: Infinity };
          expect(parse(record, { params, limits })).toEqual(parse(query, { params, limits }));
        }),
        { numRuns: RUNS },
      );
    });
  });

  // ------------------------------------------------------------------ keys

  describe('a key', () => {
    const PATH = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;
    const keyArb = fc
      .array(fc.constantFrom('a', 'Z', '_', '1', '.', '.', '-', ' ', 'é', '\u{1F600}', '[', '='), { maxLength: 10 })
      .map((chars) => chars.join(''));

    it('is a path exactly when it matches the grammar; otherwise it gets one INVALID_PATH inside the key', () => {
      fc.assert(
        fc.property(keyArb, (key) => {
          const result = parse({ [key]: '1' });
          const depth = key.split('.').length;
          if (PATH.test(key) && depth <= 4) {
            expect(result.ok).toBe(true);
            if (result.ok) expect(result.value.filters[0]!.path.names.map((n) => n.value)).toEqual(key.split('.'));
            return;
          }
          expect(result.ok).toBe(false);
          if (result.ok) return;
          expect(result.errors).toHaveLength(1);
          const error = result.errors[0]!;
          expect(error.code).toBe(depth > 4 ? 'LIMIT_EXCEEDED' : 'INVALID_PATH');
          expect(error.in).toBe('key');
          expect(error.span!.start).toBeLessThanOrEqual(error.span!.end);
          expect(error.span!.end).toBeLessThanOrEqual(key.length);
        }),
        { numRuns: RUNS },
      );
    });
  });
});
