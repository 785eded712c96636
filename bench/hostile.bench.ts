/**
 * Hostile input: refusing a query costs time linear in its length, and about what
 * accepting a valid query of the same length costs (issue 14, items 1 and 2).
 *
 * Each shape is a query that makes the pipeline go down an error path: a long key that
 * is not a path (which chevrotain's lexer recovery once made quadratic), invalid
 * escapes, quotes never closed or followed by text, operators with nothing after them,
 * empty clauses, bad numbers, bad percent-encoding, sort keys that are not paths.
 *
 * 1. Scaling: each shape from 1 Ki to 8 Ki characters (16 Ki in a full run), with the
 *    per-parameter limits lifted (the output bound of 100 diagnostics stays). The timed
 *    call is what a server does with such a query: `check`, the problem+json body
 *    serialized, and the diagnostics rendered with `formatDiagnostics` (a CLI's or a
 *    log's work). Reported as the growth exponent and the ratio per doubling.
 * 2. Within the default limits: `check` refusing each shape, per character (issue 31's goal),
 *    beside accepting its valid twin, a query of the same length (or, for keys, of the same
 *    number of parameters).
 */
import { compare } from './lib/measure';
import { duration, times } from './lib/format';
import { qsfilter } from './lib/qsfilter';
import { defineScenario, Mismatch, type Table } from './lib/scenario';

const { check, formatDiagnostics, toProblemDetails, vendors } = qsfilter;

/** A query of about `n` characters, and the code of the first problem it must give. */
interface Shape {
  readonly shown: string;
  readonly code: string;
  make(n: number): string;
}

const repeatTo = (unit: string, n: number): string => unit.repeat(Math.max(1, Math.floor(n / unit.length)));

const SHAPES: Record<string, Shape> = {
  keyHyphen: { shown: 'a…a-=1', code: 'INVALID_PATH', make: (n) => `${'a'.repeat(n)}-=1` },
  keyDot: { shown: 'a…a.=1', code: 'INVALID_PATH', make: (n) => `${'a'.repeat(n)}.=1` },
  keyAccent: { shown: 'a…aé=1', code: 'INVALID_PATH', make: (n) => `${'a'.repeat(n)}%C3%A9=1` },
  keys: { shown: 'a-=1&a-=1&…', code: 'INVALID_PATH', make: (n) => repeatTo('a-=1&', n) },
  escapes: { shown: 'vendorName=\\q\\q…', code: 'INVALID_ESCAPE', make: (n) => `vendorName=${repeatTo('\\q', n)}` },
  quotedEscapes: { shown: 'vendorName="\\q\\q…', code: 'INVALID_ESCAPE', make: (n) => `vendorName="${repeatTo('\\q', n)}` },
  openQuote: { shown: 'vendorName="a…', code: 'UNTERMINATED_QUOTE', make: (n) => `vendorName="${'a'.repeat(n)}` },
  afterQuote: { shown: 'vendorName="a"b;"a"b;…', code: 'UNEXPECTED_TEXT', make: (n) => `vendorName=${repeatTo('"a"b;', n)}"a"b` },
  lonely: { shown: 'balance=gte:;gte:;…', code: 'EMPTY_OPERAND', make: (n) => `balance=${repeatTo('gte:;', n)}gte:` },
  emptyClauses: { shown: 'vendorName=;;;…', code: 'EMPTY_CLAUSE', make: (n) => `vendorName=${';'.repeat(n)}` },
  numbers: { shown: 'balance=x;x;…', code: 'INVALID_NUMBER', make: (n) => `balance=${repeatTo('x;', n)}x` },
  percent: { shown: 'vendorName=a…a%', code: 'MALFORMED_ENCODING', make: (n) => `vendorName=${'a'.repeat(n)}%` },
  sortKeys: { shown: 'orderBy=a!,a!,…', code: 'INVALID_SORT', make: (n) => `orderBy=${repeatTo('a!,', n)}a!` },
  sortText: { shown: 'orderBy=!!…', code: 'INVALID_SORT', make: (n) => `orderBy=${'!'.repeat(n)}` },
};
type ShapeName = keyof typeof SHAPES;

const LIFTED = {
  limits: { maxQueryLength: Infinity, maxParams: Infinity, maxClauses: Infinity, maxOperandLength: Infinity, maxWildcards: Infinity },
};

/** Refuses the query and makes both answers a server or a CLI would give; the shape must be refused as expected. */
function refuse(query: string, options?: typeof LIFTED): number {
  const result = check(query, vendors, options);
  if (result.ok) return -1;
  return JSON.stringify(toProblemDetails(result.errors)).length + formatDiagnostics(result.errors).length;
}

function assertRefused(name: ShapeName, query: string, options?: typeof LIFTED): void {
  const result = check(query, vendors, options);
  if (result.ok) throw new Mismatch(`${name} (${query.length} chars) was accepted`);
  const first = result.errors[0]!.code;
  if (first !== SHAPES[name]!.code) throw new Mismatch(`${name}: expected ${SHAPES[name]!.code} first, got ${first}`);
  if (result.errors.length > 100) throw new Mismatch(`${name}: ${result.errors.length} diagnostics, more than 100`);
}

export default defineScenario({
  name: 'hostile',
  title: 'refusing hostile input is linear',
  async run({ quick }) {
    const tables: Table[] = [];
    // 1 Ki to 8 Ki characters, the default maxQueryLength (16 Ki in a full run). Far
    // beyond, the time per character grows with the heap (valid queries alike: the
    // token vector and the per-parameter records outgrow the young generation).
    const sizes = Array.from({ length: quick ? 4 : 5 }, (_, i) => 1024 << i);
    let worst = 0;
    let worstAt = '';
    let steepest = 0;
    let steepestAt = '';
    const rows: string[][] = [];
    for (const name of Object.keys(SHAPES) as ShapeName[]) {
      const queries = sizes.map((n) => SHAPES[name]!.make(n));
      for (const q of queries) assertRefused(name, q, LIFTED);
      const fns: Record<string, () => unknown> = {};
      queries.forEach((q, i) => (fns[String(sizes[i])] = () => refuse(q, LIFTED)));
      const ns = await compare(fns, { quick });
      const t = sizes.map((n) => ns[String(n)]!);
      const ratios = t.slice(1).map((x, i) => x / t[i]!);
      for (let i = 0; i < ratios.length; i++) {
        if (ratios[i]! > worst) [worst, worstAt] = [ratios[i]!, `${SHAPES[name]!.shown} at ${sizes[i + 1]} chars`];
      }
      // Growth exponent: t ∝ n^k over the whole range (1 linear, 2 quadratic).
      const k = Math.log(t[t.length - 1]! / t[0]!) / Math.log(sizes[sizes.length - 1]! / sizes[0]!);
      if (k > steepest) [steepest, steepestAt] = [k, SHAPES[name]!.shown];
      rows.push([SHAPES[name]!.shown, ...t.map(duration), times(Math.max(...ratios)), k.toFixed(2)]);
    }
    tables.push({
      title: 'check + problem+json + formatDiagnostics of a refused query, per-parameter limits lifted (n = characters)',
      columns: ['shape', ...sizes.map((n) => `n=${n / 1024}Ki`), 'worst per doubling', 'exponent'],
      rows,
      notes: [
        'exponent: k in time ∝ n^k from the smallest to the largest n (1 is linear, 2 quadratic).',
        'Before issue 14, item 1: a…a-=1 took 1.5/6/22/71 ms at 1/2/4/8 Ki letters (exponent 1.85).',
      ],
    });

    // Within the default limits: each shape at up to 8 KiB against its valid twin, a query
    // of the same length and the same number of tokens that check accepts.
    const times64 = (param: string): string => Array.from({ length: 64 }, () => param).join('&');
    const clauses16 = (clause: string): string => Array(16).fill(clause).join(';');
    const PAIRS: Record<string, { readonly shape: ShapeName; readonly bad: string; readonly good: string }> = {
      afterQuote: { shape: 'afterQuote', bad: times64(`vendorName=${clauses16('"a"b')}`), good: times64(`vendorName=${clauses16('"ab"')}`) },
      lonely: { shape: 'lonely', bad: times64(`balance=${clauses16('gte:')}`), good: times64(`balance=${clauses16('gt:1')}`) },
      numbers: { shape: 'numbers', bad: times64(`balance=${clauses16('x')}`), good: times64(`balance=${clauses16('1')}`) },
      openQuote: { shape: 'openQuote', bad: times64(`vendorName="${'a'.repeat(99)}`), good: times64(`vendorName="${'a'.repeat(98)}"`) },
      escapes: {
        shape: 'escapes',
        bad: `vendorName=${clauses16('\\q'.repeat(250))}`,
        good: `vendorName=${clauses16('\\;'.repeat(250))}`,
      },
      keys: { shape: 'keys', bad: times64('a-=1'), good: times64('id=1') },
      emptyClauses: { shape: 'emptyClauses', bad: times64(`vendorName=${';'.repeat(15)}`), good: times64(`vendorName=${clauses16('a')}`) },
      keyHyphen: { shape: 'keyHyphen', bad: `${'a'.repeat(8000)}-=1`, good: Array(8).fill(`vendorName=${'a'.repeat(999)}`).join('&') },
    };
    const fns: Record<string, () => unknown> = {};
    for (const [name, { shape, bad, good }] of Object.entries(PAIRS)) {
      if (bad.length > 8192 || good.length > 8192) throw new Mismatch(`${name} is over the default maxQueryLength`);
      assertRefused(shape, bad);
      if (!check(good, vendors).ok) throw new Mismatch(`the valid twin of ${name} was refused`);
      fns[`${name}:bad`] = () => check(bad, vendors);
      fns[`${name}:good`] = () => check(good, vendors);
    }
    const ns = await compare(fns, { quick });
    let worstWithin = 0;
    let worstWithinAt = '';
    const withinRows = Object.entries(PAIRS).map(([name, { shape, bad, good }]) => {
      const perChar = ns[`${name}:bad`]! / bad.length;
      if (perChar > worstWithin) [worstWithin, worstWithinAt] = [perChar, SHAPES[shape]!.shown];
      // Per character, for the twins whose length differs (no valid key is as short as a-).
      const ratio = perChar / (ns[`${name}:good`]! / good.length);
      return [SHAPES[shape]!.shown, `${bad.length} / ${good.length}`, duration(ns[`${name}:bad`]!), `${perChar.toFixed(0)} ns`, duration(ns[`${name}:good`]!), times(ratio)];
    });
    tables.push({
      title: 'within the default limits: check refusing a query, per character, and accepting its valid twin',
      columns: ['query', 'chars (bad / twin)', 'check, refused', 'per char', 'check, accepted', 'ratio per char'],
      rows: withinRows,
      notes: [
        'Twins: "ab" for "a"b, gt:1 for gte:, 1 for x, a closed quote, \\; for \\q, id=1 for a-=1, 8 values of 1,000 letters for a key of 8,000.',
        'Before issue 14: 1,024 clauses "a"b took 14 ms to refuse, gte: alone 23 ms, a valid query of as many clauses 0.8 ms.',
      ],
    });

    return {
      tables,
      // The per-doubling ratios are shown but not a goal: one collection more or less in
      // one of the two runs moves a single ratio by 30% on this shared machine; the
      // exponent over an 8- or 16-fold length is the steady figure.
      goals: [
        {
          goal: 'refusing hostile input: growth exponent k of time ∝ length^k, 1 Ki to 8 Ki (16 Ki)',
          target: '≤ 1.2',
          actual: `worst ${steepest.toFixed(2)} (${steepestAt}); worst single doubling ${times(worst)} (${worstAt})`,
          pass: steepest <= 1.2,
        },
        {
          // Issue 31 (replacing issue 14's ratio to a valid twin, which the one-token fast path made meaningless).
          goal: 'check refusing a query within the default limits, per character',
          target: '≤ 150 ns',
          actual: `worst ${worstWithin.toFixed(0)} ns (${worstWithinAt})`,
          pass: worstWithin <= 150,
        },
      ],
    };
  },
});
