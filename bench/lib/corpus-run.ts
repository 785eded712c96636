/**
 * The parse and check scenarios share the corpus, the baselines and the checks that
 * every baseline gives the answer qsfilter gives before any of them is timed.
 */
import { CORPUS, type CorpusQuery } from '../corpus';
import type { ParseOptions, Schema } from '../../src/index';
import { duration, times } from './format';
import { compare, consume } from './measure';
import {
  astComparisons,
  astPairs,
  naiveParse,
  qsPairs,
  qsParse,
  rsqlComparisons,
  rsqlParse,
  summarize,
  urlSearchParams,
  urlSearchParamsPairs,
} from './peers';
import { qsfilter } from './qsfilter';
import { assertSame, Mismatch, type Goal, type Table } from './scenario';

export interface Entry extends CorpusQuery {
  readonly schema: Schema;
  /** What `parse` is given: the resource's pass-through parameters, as `check` passes them. */
  readonly parseOptions: ParseOptions;
}

export const ENTRIES: readonly Entry[] = CORPUS.map((c) => {
  const schema: Schema = qsfilter.catalog[c.resource];
  return { ...c, schema, parseOptions: { params: schema.params } };
});

/** Checks, query by query, that every baseline reads the corpus as qsfilter does. */
export function verifyCorpus(): void {
  for (const e of ENTRIES) {
    const parsed = qsfilter.parse(e.query, e.parseOptions);
    if (!parsed.ok) throw new Mismatch(`corpus query ${e.query} does not parse: ${parsed.errors[0]?.message}`);
    const checked = qsfilter.check(e.query, e.schema);
    if (!checked.ok) throw new Mismatch(`corpus query ${e.query} does not check: ${checked.errors[0]?.message}`);
    const summary = summarize(parsed.value);
    const pairs = astPairs(parsed.value);
    assertSame(`URLSearchParams decodes ${e.query} differently`, pairs, urlSearchParamsPairs(e.query));
    assertSame(`qs decodes ${e.query} differently`, pairs, qsPairs(e.query));
    const naive = naiveParse(e.query, e.schema.params);
    if (e.naiveSplitBreaks === true) {
      if (JSON.stringify(naive) === JSON.stringify(summary)) throw new Mismatch(`the naive parser was expected to get ${e.query} wrong`);
    } else {
      assertSame(`the naive parser reads ${e.query} differently`, summary, naive);
    }
    assertSame(`the RSQL form of ${e.query} (${e.rsql}) has other comparisons`, astComparisons(summary), rsqlComparisons(rsqlParse(e.rsql)));
    // check: one condition per filter parameter, one test per clause, same pass-through parameters.
    assertSame(
      `check reads ${e.query} differently from parse`,
      { conditions: summary.filters.map((f) => [f.key, f.clauses.length]), params: summary.params },
      {
        conditions: checked.value.conditions.map((c) => [c.key, c.tests.length]),
        params: summarize({ type: 'Query', filters: [], params: checked.value.params }).params,
      },
    );
  }
}

const QUERIES = ENTRIES.map((e) => e.query);
const RSQL = ENTRIES.map((e) => e.rsql);
const PASS_THROUGH = ENTRIES.map((e) => e.schema.params);

/** The baselines, each one pass over the whole corpus. */
export const BASELINES = {
  floor: {
    label: 'URLSearchParams (decoding floor)',
    run: (): void => {
      for (const q of QUERIES) consume(urlSearchParams(q));
    },
  },
  naive: {
    label: 'naive split parser, no diagnostics',
    run: (): void => {
      for (let i = 0; i < QUERIES.length; i++) consume(naiveParse(QUERIES[i]!, PASS_THROUGH[i]!));
    },
  },
  qs: {
    label: 'qs.parse',
    run: (): void => {
      for (const q of QUERIES) consume(qsParse(q));
    },
  },
  rsql: {
    label: '@rsql/parser (RSQL form, already decoded)',
    run: (): void => {
      for (const r of RSQL) consume(rsqlParse(r));
    },
  },
} as const;

export type BaselineName = keyof typeof BASELINES;

export interface Timed {
  readonly label: string;
  readonly ns: number;
}

/** Times the subjects and the baselines in this process, and tabulates them against the floor and the first subject. */
export async function timeCorpus(
  subjects: readonly { label: string; run: () => void }[],
  quick: boolean,
): Promise<{ table: Table; subjects: Timed[]; baselines: Record<BaselineName, Timed> }> {
  const fns: Record<string, () => void> = {};
  for (const s of subjects) fns[`subject:${s.label}`] = s.run;
  for (const [name, b] of Object.entries(BASELINES)) fns[name] = b.run;
  const ns = await compare(fns, { quick });
  const timedSubjects: Timed[] = subjects.map((s) => ({ label: s.label, ns: ns[`subject:${s.label}`]! }));
  const baselines = Object.fromEntries(
    Object.entries(BASELINES).map(([name, b]) => [name, { label: b.label, ns: ns[name]! }]),
  ) as Record<BaselineName, Timed>;
  const main = timedSubjects[0]!;
  const floor = baselines.floor.ns;
  const n = QUERIES.length;
  const row = (t: Timed): string[] => [t.label, duration(t.ns), duration(t.ns / n), times(t.ns / floor), times(t.ns / main.ns)];
  return {
    subjects: timedSubjects,
    baselines,
    table: {
      title: `${n} corpus queries, median of one pass over all of them`,
      columns: ['', 'corpus', 'per query', 'vs floor', `vs ${main.label}`],
      rows: [...timedSubjects.map(row), ...Object.values(baselines).map(row)],
      notes: [
        `"vs floor": time / URLSearchParams time (lower is better). "vs ${main.label}": time / ${main.label} time (above 1: ${main.label} is faster).`,
        'Every baseline was first checked to read every query as qsfilter does (naive: except the 2 queries with ";" inside quotes, which it is asserted to get wrong).',
      ],
    },
  };
}

/** The two goals of a corpus scenario: at most `maxVsFloor` times the floor, and at least 5x faster than @rsql/parser. */
export function corpusGoals(subject: 'parse' | 'check', ns: number, baselines: Record<BaselineName, Timed>, maxVsFloor: number): Goal[] {
  const vsFloor = ns / baselines.floor.ns;
  const vsRsql = baselines.rsql.ns / ns;
  return [
    { goal: `${subject} vs URLSearchParams floor`, target: `≤ ${maxVsFloor}x`, actual: times(vsFloor), pass: vsFloor <= maxVsFloor },
    { goal: `${subject} faster than @rsql/parser`, target: '≥ 5x', actual: times(vsRsql), pass: vsRsql >= 5 },
  ];
}
