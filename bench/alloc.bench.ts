/**
 * Scenario 6, allocation: bytes allocated per parsed or checked query (corpus average,
 * next to the baselines), per compiled filter, and per evaluated item (which should be
 * about zero: a predicate that allocates makes the GC part of every scan). The method is
 * described in lib/alloc-child.ts; it runs in a child process with a young generation
 * large enough that no collection interferes.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FILTERS } from './lib/filters';
import { bytes } from './lib/format';
import { defineScenario } from './lib/scenario';

const CHILD = fileURLToPath(new URL('./lib/alloc-child.ts', import.meta.url));

export default defineScenario({
  name: 'alloc',
  title: 'bytes allocated',
  async run({ quick }) {
    const out = execFileSync(
      process.execPath,
      ['--expose-gc', '--min-semi-space-size=128', '--max-semi-space-size=128', '--import', 'tsx', CHILD, ...(quick ? ['--quick'] : [])],
      { encoding: 'utf8' },
    );
    const r = JSON.parse(out.trim().split('\n').pop()!) as Record<string, number>;
    const pick = (prefix: string): string[][] =>
      Object.entries(r)
        .filter(([k]) => k.startsWith(prefix))
        .map(([k, v]) => [k.slice(prefix.length), bytes(v)]);
    const worstItem = Math.max(...FILTERS.map((f) => r[`item:${f.name}`]!));
    return {
      tables: [
        { title: 'per query (corpus average)', columns: ['', 'allocated'], rows: pick('query:') },
        { title: 'per filter (the 8 filters of the evaluate scenario, average)', columns: ['', 'allocated'], rows: pick('filter:') },
        {
          title: 'per evaluated item (100k invoices)',
          columns: ['filter', 'qsfilter', 'hand-written'],
          rows: FILTERS.map((f) => [f.name, bytes(r[`item:${f.name}`]!), bytes(r[`hand:${f.name}`]!)]),
          notes: ['Allocation of optimized code: V8\'s escape analysis removes objects that never leave an inlined function.'],
        },
      ],
      goals: [
        {
          goal: 'evaluation allocates nothing per item',
          target: '< 1 B/item',
          actual: `worst ${bytes(worstItem)}`,
          pass: worstItem < 1,
        },
      ],
    };
  },
});
