/**
 * Scenario 5, wildcard scaling: adversarial `%a%a…%b` patterns, compiled by qsfilter on
 * a string field, against text of doubling length (`aaaa…`, no `b`), and the
 * backtracking RegExp a naive implementation would build for the same pattern.
 *
 * Two patterns, because the text never ends with `b`: `%a…%a%b` is decided by its last
 * segment alone (the text must end with `b`), so it costs the same at every length;
 * `%a…%a%ab%` makes the matcher find the `a`s and then search the whole text for `ab`,
 * which on `aaaa…` is the slowest linear case found (V8's indexOf stops at every `a`:
 * about 7 ns per character, where searching for a lone `b` runs at memory speed and
 * shows cache sizes rather than the algorithm). The RegExp (`/^.*a.*a….*ab.*$/`, built
 * here from a constant) backtracks polynomially in the text length, with the number of
 * `a`s as the exponent; it runs in a child process with a time budget so it cannot hang
 * the run.
 */
import { spawnSync } from 'node:child_process';
import { duration, times } from './lib/format';
import { compare } from './lib/measure';
import { qsfilter } from './lib/qsfilter';
import { defineScenario, Mismatch, type Table } from './lib/scenario';

const AS = 8;
const PATTERNS = {
  anchored: { query: `vendorName=${'%25a'.repeat(AS)}%25b`, regex: `^${'.*a'.repeat(AS)}.*b$`, shown: `${'%a'.repeat(AS)}%b` },
  scanning: {
    query: `vendorName=${'%25a'.repeat(AS - 1)}%25ab%25`,
    regex: `^${'.*a'.repeat(AS - 1)}.*ab.*$`,
    shown: `${'%a'.repeat(AS - 1)}%ab%`,
  },
} as const;
type PatternName = keyof typeof PATTERNS;

function compilePattern(name: PatternName): (item: unknown) => boolean {
  const checked = qsfilter.check(PATTERNS[name].query, qsfilter.vendors);
  if (!checked.ok) throw new Error(`${PATTERNS[name].query}: ${checked.errors[0]?.message}`);
  return qsfilter.compile(checked.value);
}

/** Runs the RegExp on `a`×n for growing n in a child process, until the budget is spent; ns per test. */
function regexTimes(source: string, sizes: readonly number[], budgetMs: number): Map<number, number> {
  const code = `
    const re = new RegExp(${JSON.stringify(source)});
    for (const n of ${JSON.stringify(sizes)}) {
      const text = 'a'.repeat(n);
      let runs = 0; const t0 = performance.now(); let t = 0;
      do { if (re.test(text)) process.exit(4); runs++; t = performance.now() - t0; } while (t < 20);
      console.log(n + ' ' + (t * 1e6 / runs));
    }`;
  const result = spawnSync(process.execPath, ['-e', code], { timeout: budgetMs, encoding: 'utf8' });
  if (result.status === 4) throw new Mismatch(`the RegExp ${source} matched a text without "b"`);
  const measured = new Map<number, number>();
  for (const line of result.stdout.trim().split('\n')) {
    const [n, ns] = line.split(' ');
    if (n !== undefined && ns !== undefined && n !== '') measured.set(Number(n), Number(ns));
  }
  return measured;
}

export default defineScenario({
  name: 'wildcard',
  title: 'wildcard matching scales linearly',
  async run({ quick }) {
    // 1 Ki … 1 Mi characters (256 Ki when quick: a test on 1 Mi takes 7 ms).
    const sizes = Array.from({ length: quick ? 9 : 11 }, (_, i) => 1024 << i);
    const tables: Table[] = [];
    let worst = 0;
    let worstAt = '';
    const predicates = { anchored: compilePattern('anchored'), scanning: compilePattern('scanning') };
    for (const name of Object.keys(PATTERNS) as PatternName[]) {
      const predicate = predicates[name];
      const items = sizes.map((n) => ({ vendorName: 'a'.repeat(n) }));
      for (const item of items) if (predicate(item)) throw new Mismatch(`${PATTERNS[name].shown} matched a text without "b"`);
      if (!predicate({ vendorName: `${'a'.repeat(AS)}b` })) throw new Mismatch(`${PATTERNS[name].shown} does not match ${'a'.repeat(AS)}b`);
      const fns: Record<string, () => unknown> = {};
      items.forEach((item, i) => (fns[String(sizes[i])] = () => predicate(item)));
      const ns = await compare(fns, { quick });
      const rows = sizes.map((n, i) => {
        const t = ns[String(n)]!;
        const previous = i === 0 ? undefined : ns[String(sizes[i - 1])]!;
        const ratio = previous === undefined ? undefined : t / previous;
        if (ratio !== undefined && ratio > worst) [worst, worstAt] = [ratio, `${PATTERNS[name].shown} at ${n} chars`];
        return [n.toLocaleString('en'), duration(t), ratio === undefined ? '' : times(ratio), duration(t / n)];
      });
      tables.push({
        title: `qsfilter ${PATTERNS[name].shown} on "a" × n (no match)`,
        columns: ['n (chars)', 'per test', 'vs n/2', 'per char'],
        rows,
      });
    }

    // The backtracking RegExp on short texts, against qsfilter on the same texts.
    const small = [8, 12, 16, 20, 24, 28, 32, 40, 48, 64];
    const budget = quick ? 1000 : 10_000;
    const regex = regexTimes(PATTERNS.scanning.regex, small, budget);
    const ours = await compare(
      Object.fromEntries(small.map((n) => {
        const item = { vendorName: 'a'.repeat(n) };
        return [String(n), () => predicates.scanning(item)];
      })),
      { quick },
    );
    tables.push({
      title: `backtracking /${PATTERNS.scanning.regex}/ vs qsfilter ${PATTERNS.scanning.shown}, on "a" × n`,
      columns: ['n (chars)', 'RegExp', 'qsfilter', 'RegExp / qsfilter'],
      rows: small.map((n) => {
        const r = regex.get(n);
        const q = ours[String(n)]!;
        return [String(n), r === undefined ? `> ${budget / 1000} s budget, killed` : duration(r), duration(q), r === undefined ? '—' : times(r / q)];
      }),
      notes: ['The RegExp is built by the bench from a constant; qsfilter never builds one from a query (reference §5).'],
    });

    return {
      tables,
      goals: [{ goal: 'wildcard time linear: time per doubling of the text', target: '≤ 2.2x', actual: `worst ${times(worst)} (${worstAt})`, pass: worst <= 2.2 }],
    };
  },
});
