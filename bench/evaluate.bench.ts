/**
 * Scenario 3, evaluate: compiled qsfilter predicates over 100k generated invoices,
 * against a hand-written predicate per filter, sift and mingo with the equivalent
 * MongoDB query, and liqe and filtrex (in-memory filter languages users pick instead)
 * where their languages can say the filter. Each filter is timed twice for qsfilter:
 *
 * - "suite": in this process, after every filter was compiled and run once, which is
 *   the state of a server that has compiled many different filters. V8 shares feedback
 *   between closures created at the same source site, so the evaluator's property reads
 *   and calls have seen every filter's names and shapes.
 * - "alone": in a fresh process where this filter is the only one ever compiled.
 *
 * qsfilter runs its generated code; "closures" is the same filter compiled with
 * `{ codegen: false }`, the evaluator used where code generation is refused. The goals
 * are judged on the suite numbers. Before timing, all of them must find the same
 * number of matches. `--quick` skips the alone processes (about 1.5 s each).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compileExpression, useDotAccessOperatorAndOptionalChaining } from 'filtrex';
import { parse as parseLiqe, test as testLiqe } from 'liqe';
import { Query } from 'mingo';
import sift from 'sift';
import { compileFilter, counter, FILTERS } from './lib/filters';
import { duration, geomean, times } from './lib/format';
import { generateInvoices } from './lib/invoices';
import { compare } from './lib/measure';
import { defineScenario, Mismatch, type Goal } from './lib/scenario';

const ITEMS = 100_000;
const FEW = 2_000;
const ALONE = fileURLToPath(new URL('./lib/evaluate-alone.ts', import.meta.url));

type Predicate = (item: unknown) => boolean;

interface Row {
  readonly count: number;
  readonly hand: number;
  readonly qsfilter: number;
  readonly closures: number;
  readonly alone: number;
  readonly aloneHand: number;
  readonly sift: number;
  readonly mingo: number;
  /** NaN where the language cannot say the filter. */
  readonly liqe: number;
  readonly filtrex: number;
}

/** A filter as liqe or filtrex reads it, or `undefined` where its language cannot say it. */
function liqePredicate(query: string | undefined): Predicate | undefined {
  if (query === undefined) return undefined;
  const ast = parseLiqe(query);
  return (item) => testLiqe(ast, item as object);
}

function filtrexPredicate(query: string | undefined): Predicate | undefined {
  if (query === undefined) return undefined;
  // Dotted paths, and a missing property read as undefined rather than thrown.
  const fn = compileExpression(query, { customProp: useDotAccessOperatorAndOptionalChaining });
  return (item) => fn(item as object) === true;
}

export default defineScenario({
  name: 'evaluate',
  title: 'evaluate compiled filters over 100k invoices',
  async run({ quick }) {
    // The alone runs first, each in its own process, while this one is idle.
    const alone = FILTERS.map((_, i) => {
      if (quick) return undefined;
      const out = execFileSync(process.execPath, ['--import', 'tsx', '--expose-gc', ALONE, String(i), String(ITEMS), String(FEW), quick ? '--quick' : '--full'], {
        encoding: 'utf8',
      });
      return JSON.parse(out.trim().split('\n').pop()!) as { count: number; qsfilter: number; hand: number; fewQsfilter: number; fewHand: number };
    });

    const items = generateInvoices(ITEMS);
    const sides = FILTERS.map((f) => {
      const query = new Query(f.mongo, {});
      return {
        qsfilter: compileFilter(f),
        closures: compileFilter(f, { codegen: false }),
        hand: f.hand as Predicate,
        sift: sift(f.mongo) as Predicate,
        mingo: ((item: unknown) => query.test(item as Record<string, unknown>)) as Predicate,
        liqe: liqePredicate(f.liqe),
        filtrex: filtrexPredicate(f.filtrex),
      };
    });

    // Same answer everywhere, and a filter that neither keeps nor drops everything.
    const counts = sides.map((side, i) => {
      const name = FILTERS[i]!.name;
      const expected = counter()(items, side.hand);
      for (const [who, predicate] of Object.entries(side)) {
        if (predicate === undefined) continue;
        const got = counter()(items, predicate);
        if (got !== expected) throw new Mismatch(`${name}: ${who} finds ${got} invoices, the hand-written predicate ${expected}`);
      }
      if (alone[i] !== undefined && alone[i].count !== expected) throw new Mismatch(`${name}: qsfilter alone finds ${alone[i]!.count}, expected ${expected}`);
      if (expected === 0 || expected === ITEMS) throw new Mismatch(`${name}: matches ${expected} of ${ITEMS}, which tests nothing`);
      return expected;
    });

    const rows: Row[] = [];
    for (let i = 0; i < FILTERS.length; i++) {
      const side = sides[i]!;
      const loops = { hand: counter(), qsfilter: counter(), closures: counter(), sift: counter(), mingo: counter(), liqe: counter(), filtrex: counter() };
      const { liqe, filtrex } = side;
      const fns: Record<string, () => unknown> = {
          hand: () => loops.hand(items, side.hand),
          qsfilter: () => loops.qsfilter(items, side.qsfilter),
          closures: () => loops.closures(items, side.closures),
          sift: () => loops.sift(items, side.sift),
          mingo: () => loops.mingo(items, side.mingo),
          ...(liqe === undefined ? {} : { liqe: () => loops.liqe(items, liqe) }),
          ...(filtrex === undefined ? {} : { filtrex: () => loops.filtrex(items, filtrex) }),
      };
      const ns = await compare(fns, { quick, slow: true });
      const { hand, qsfilter, closures, sift: siftNs, mingo } = ns as Record<'hand' | 'qsfilter' | 'closures' | 'sift' | 'mingo', number>;
      rows.push({ count: counts[i]!, hand, qsfilter, closures, sift: siftNs, mingo, liqe: ns.liqe ?? NaN, filtrex: ns.filtrex ?? NaN, alone: alone[i]?.qsfilter ?? NaN, aloneHand: alone[i]?.hand ?? NaN });
    }

    // The same predicates over a few invoices that stay in cache: the evaluator's own CPU
    // cost, without the memory stalls that dominate (and blur) a pass over 100k objects.
    // Not in a quick run (about 5 s): the goals are judged on the 100k pass above.
    const few = generateInvoices(quick ? 0 : FEW, 7);
    const cached: { hand: number; qsfilter: number }[] = [];
    for (let i = 0; i < (quick ? 0 : FILTERS.length); i++) {
      const side = sides[i]!;
      if (counter()(few, side.qsfilter) !== counter()(few, side.hand)) throw new Mismatch(`${FILTERS[i]!.name}: counts differ on ${FEW} invoices`);
      const loops = { hand: counter(), qsfilter: counter() };
      cached.push(await compare({ hand: () => loops.hand(few, side.hand), qsfilter: () => loops.qsfilter(few, side.qsfilter) }, { quick }));
    }

    const perItem = (ns: number): string => duration(ns / ITEMS);
    const same = rows.filter((_, i) => FILTERS[i]!.semantics === 'same');
    const vsHand = rows.map((r) => r.qsfilter / r.hand);
    const vsBest = (r: Row): number => Math.min(r.sift, r.mingo) / r.qsfilter;
    const geo = {
      hand: geomean(vsHand),
      closures: geomean(rows.map((r) => r.closures / r.hand)),
      alone: geomean(rows.map((r) => r.alone / r.aloneHand)),
      sift: geomean(same.map((r) => r.sift / r.qsfilter)),
      mingo: geomean(same.map((r) => r.mingo / r.qsfilter)),
      best: geomean(same.map(vsBest)),
    };
    // The goal holds in both states: after the whole suite ran, and alone (in a full run).
    const aloneVsHand = rows.map((r) => r.alone / r.aloneHand).filter((ratio) => !Number.isNaN(ratio));
    const worst = Math.max(...vsHand, ...aloneVsHand);
    const worstAt = vsHand.indexOf(worst);
    const worstName = worstAt === -1 ? `${FILTERS[rows.findIndex((r) => r.alone / r.aloneHand === worst)]!.name}, alone` : FILTERS[worstAt]!.name;
    const slowerThanPeer = same.filter((r) => r.qsfilter >= Math.min(r.sift, r.mingo));
    // liqe and filtrex, on the filters their languages can say.
    const peersOf = (r: Row): number[] => [r.liqe, r.filtrex].filter((ns) => !Number.isNaN(ns));
    const measuredByOthers = rows.filter((r) => peersOf(r).length > 0);
    const slowerThanOthers = measuredByOthers.filter((r) => r.qsfilter >= Math.min(...peersOf(r)));

    const goals: Goal[] = [
      {
        goal: quick ? 'compiled predicate vs hand-written, every filter (suite)' : 'compiled predicate vs hand-written, every filter (suite and alone)',
        target: '≤ 1.2x',
        actual: `worst ${times(worst)} (${worstName}), geomean ${times(geo.hand)}`,
        pass: worst <= 1.2,
      },
      {
        goal: 'faster than sift and mingo on every filter where semantics match',
        target: `${same.length} of ${same.length}`,
        actual: `${same.length - slowerThanPeer.length} of ${same.length}`,
        pass: slowerThanPeer.length === 0,
      },
      {
        goal: 'faster than liqe and filtrex on every filter their languages can say',
        target: `${measuredByOthers.length} of ${measuredByOthers.length}`,
        actual: `${measuredByOthers.length - slowerThanOthers.length} of ${measuredByOthers.length}`,
        pass: slowerThanOthers.length === 0,
      },
      {
        goal: 'vs the faster of sift and mingo, geometric mean',
        target: '≥ 5x faster',
        actual: times(geo.best),
        pass: geo.best >= 5,
      },
    ];

    const show = (ratio: number): string => (Number.isNaN(ratio) ? '—' : times(ratio));
    const showTime = (ns: number): string => (Number.isNaN(ns) ? '—' : perItem(ns));
    return {
      tables: [
        {
          title: `${ITEMS.toLocaleString('en')} invoices, median time per item (one pass over all of them, divided)`,
          columns: ['filter', 'matches', 'hand-written', 'qsfilter', 'closures', 'sift', 'mingo', 'liqe', 'filtrex', 'alone: hand-written', 'alone: qsfilter'],
          rows: rows.map((r, i) => [
            FILTERS[i]!.name,
            String(r.count),
            perItem(r.hand),
            perItem(r.qsfilter),
            perItem(r.closures),
            perItem(r.sift),
            perItem(r.mingo),
            showTime(r.liqe),
            showTime(r.filtrex),
            showTime(r.aloneHand),
            showTime(r.alone),
          ]),
          notes: [
            'The first five: this process, after every filter was compiled and run (a server\'s steady state). "closures": qsfilter with { codegen: false }. "alone": a fresh process that compiled only this filter (not run with --quick).',
          ],
        },
        {
          title: 'ratios',
          columns: ['filter', 'qsfilter / hand', 'closures / hand', 'alone: qsfilter / hand', 'pollution', 'sift / qsfilter', 'mingo / qsfilter', 'liqe / qsfilter', 'filtrex / qsfilter', 'MongoDB semantics'],
          rows: [
            ...rows.map((r, i) => [
              FILTERS[i]!.name,
              times(r.qsfilter / r.hand),
              times(r.closures / r.hand),
              show(r.alone / r.aloneHand),
              show(r.qsfilter / r.hand / (r.alone / r.aloneHand)),
              times(r.sift / r.qsfilter),
              times(r.mingo / r.qsfilter),
              show(r.liqe / r.qsfilter),
              show(r.filtrex / r.qsfilter),
              FILTERS[i]!.note,
            ]),
            [
              'geometric mean',
              times(geo.hand),
              times(geo.closures),
              show(geo.alone),
              show(geo.hand / geo.alone),
              `${times(geo.sift)}*`,
              `${times(geo.mingo)}*`,
              `${times(geomean(measuredByOthers.filter((r) => !Number.isNaN(r.liqe)).map((r) => r.liqe / r.qsfilter)))}**`,
              `${times(geomean(measuredByOthers.filter((r) => !Number.isNaN(r.filtrex)).map((r) => r.filtrex / r.qsfilter)))}**`,
              '* over the filters whose semantics match; ** over those the language can say',
            ],
          ],
          notes: [
            'qsfilter / hand: lower is better (1 = as fast as the hand-written predicate). sift / qsfilter, mingo / qsfilter, liqe / qsfilter, filtrex / qsfilter: how many times faster qsfilter is; — where liqe or filtrex cannot say the filter (dates as instants, a field of one element of a list).',
            'pollution: (qsfilter / hand after all filters ran) ÷ (qsfilter / hand alone); each ratio is taken within one process.',
            'The hand-written date range uses Date.parse (the instant, as qsfilter does); MongoDB compares the ISO strings.',
          ],
        },
        ...(quick
          ? []
          : [
            {
              title: `the same, over ${FEW.toLocaleString('en')} invoices that stay in cache (this process, after all filters ran)`,
              columns: ['filter', 'hand-written', 'qsfilter', 'qsfilter / hand', 'alone: qsfilter / hand', 'pollution'],
              rows: [
                ...cached.map((c, i) => {
                  const a = alone[i];
                  const aloneRatio = a === undefined ? NaN : a.fewQsfilter / a.fewHand;
                  return [
                    FILTERS[i]!.name,
                    duration(c.hand / FEW),
                    duration(c.qsfilter / FEW),
                    times(c.qsfilter / c.hand),
                    show(aloneRatio),
                    show(c.qsfilter / c.hand / aloneRatio),
                  ];
                }),
                (() => {
                  const suite = geomean(cached.map((c) => c.qsfilter / c.hand));
                  const lone = geomean(alone.map((a) => (a === undefined ? NaN : a.fewQsfilter / a.fewHand)));
                  return ['geometric mean', '', '', times(suite), show(lone), show(suite / lone)];
                })(),
              ],
              notes: [
                'A pass over 100k invoices waits on memory (each object and its boxed numbers), which hides part of the evaluator\'s own cost and varies with where the GC put the objects: the hand-written number range measured 12 to 60 ns per item in different processes. The goal is judged at 100k, as specified; this table shows the CPU cost.',
              ],
            },
          ]),
      ],
      goals,
    };
  },
});
