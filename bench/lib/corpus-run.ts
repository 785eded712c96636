/**
 * The parse and check scenarios share the corpora (`CORPUS`, and `HARD_CORPUS` of issue
 * 26), the baselines and the checks that every baseline gives the answer qsfilter gives
 * before any of them is timed.
 */
import { CORPUS, HARD_CORPUS, type CorpusQuery } from '../corpus';
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

function entries(corpus: readonly CorpusQuery[]): readonly Entry[] {
  return corpus.map((c) => {
    const schema: Schema = qsfilter.catalog[c.resource];
    return { ...c, schema, parseOptions: { params: schema.params } };
  });
}

export const ENTRIES: readonly Entry[] = entries(CORPUS);
export const HARD_ENTRIES: readonly Entry[] = entries(HARD_CORPUS);

/** One corpus as the scenarios time it: its entries, and what its tables and goals call it. */
export interface CorpusSet {
  readonly name: string;
  readonly entries: readonly Entry[];
  readonly baselines: Baselines;
}

/** Checks, query by query, that every baseline reads the corpus as qsfilter does. */
export function verifyCorpus(corpus: readonly Entry[]): void {
  for (const e of corpus) {
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

/** The baselines over one corpus, each one pass over all of it. */
function baselinesOf(corpus: readonly Entry[]) {
  const queries = corpus.map((e) => e.query);
  const rsql = corpus.map((e) => e.rsql);
  const passThrough = corpus.map((e) => e.schema.params);
  return {
    floor: {
      label: 'URLSearchParams (decoding floor)',
      run: (): void => {
        for (const q of queries) consume(urlSearchParams(q));
      },
    },
    naive: {
      label: 'naive split parser, no diagnostics',
      run: (): void => {
        for (let i = 0; i < queries.length; i++) consume(naiveParse(queries[i]!, passThrough[i]!));
      },
    },
    qs: {
      label: 'qs.parse',
      run: (): void => {
        for (const q of queries) consume(qsParse(q));
      },
    },
    rsql: {
      label: '@rsql/parser (RSQL form, already decoded)',
      run: (): void => {
        for (const r of rsql) consume(rsqlParse(r));
      },
    },
  } as const;
}

type Baselines = ReturnType<typeof baselinesOf>;
export type BaselineName = keyof Baselines;

/** Both corpora: `bench/`'s own, and the harder one of issue 26. */
export const CORPORA: readonly CorpusSet[] = [
  { name: 'corpus', entries: ENTRIES, baselines: baselinesOf(ENTRIES) },
  { name: 'harder corpus', entries: HARD_ENTRIES, baselines: baselinesOf(HARD_ENTRIES) },
];

export interface Timed {
  readonly label: string;
  readonly ns: number;
}

/** Times the subjects and the baselines over one corpus in this process, and tabulates them against the floor and the first subject. */
export async function timeCorpus(
  corpus: CorpusSet,
  subjects: readonly { label: string; run: () => void }[],
  quick: boolean,
): Promise<{ table: Table; subjects: Timed[]; baselines: Record<BaselineName, Timed> }> {
  const fns: Record<string, () => void> = {};
  for (const s of subjects) fns[`subject:${s.label}`] = s.run;
  for (const [name, b] of Object.entries(corpus.baselines)) fns[name] = b.run;
  const ns = await compare(fns, { quick });
  const timedSubjects: Timed[] = subjects.map((s) => ({ label: s.label, ns: ns[`subject:${s.label}`]! }));
  const baselines = Object.fromEntries(
    Object.entries(corpus.baselines).map(([name, b]) => [name, { label: b.label, ns: ns[name]! }]),
  ) as Record<BaselineName, Timed>;
  const main = timedSubjects[0]!;
  const floor = baselines.floor.ns;
  const n = corpus.entries.length;
  const row = (t: Timed): string[] => [t.label, duration(t.ns), duration(t.ns / n), times(t.ns / floor), times(t.ns / main.ns)];
  return {
    subjects: timedSubjects,
    baselines,
    table: {
      title: `${n} queries of the ${corpus.name}, median of one pass over all of them`,
      columns: ['', 'corpus', 'per query', 'vs floor', `vs ${main.label}`],
      rows: [...timedSubjects.map(row), ...Object.values(baselines).map(row)],
      notes: [
        `"vs floor": time / URLSearchParams time (lower is better). "vs ${main.label}": time / ${main.label} time (above 1: ${main.label} is faster).`,
        `Every baseline was first checked to read every query as qsfilter does (naive: except the ${corpus.entries.filter((e) => e.naiveSplitBreaks === true).length} queries with ";" inside quotes, which it is asserted to get wrong).`,
      ],
    },
  };
}

/**
 * The goals of a corpus scenario (issue 26): at most `maxVsFloor` times the floor and,
 * with `minVsRsql`, at least that many times faster than @rsql/parser.
 */
export function corpusGoals(subject: 'parse' | 'check', corpus: CorpusSet, ns: number, baselines: Record<BaselineName, Timed>, maxVsFloor: number, minVsRsql?: number): Goal[] {
  const vsFloor = ns / baselines.floor.ns;
  const vsRsql = baselines.rsql.ns / ns;
  const goals: Goal[] = [{ goal: `${subject} vs URLSearchParams floor, ${corpus.name}`, target: `≤ ${maxVsFloor}x`, actual: times(vsFloor), pass: vsFloor <= maxVsFloor }];
  if (minVsRsql !== undefined) {
    goals.push({ goal: `${subject} faster than @rsql/parser, ${corpus.name}`, target: `≥ ${minVsRsql}x`, actual: times(vsRsql), pass: vsRsql >= minVsRsql });
  }
  return goals;
}
