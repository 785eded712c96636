/**
 * Measures bytes allocated per operation; run by alloc.bench.ts as
 * `node --expose-gc --min-semi-space-size=128 --max-semi-space-size=128 --import tsx
 * alloc-child.ts [--quick]`.
 *
 * Method: the operation runs until optimized; then a full GC; then `used_heap_size` is
 * read, the operation runs n times, and `used_heap_size` is read again. With a 128 MiB
 * young generation and n chosen to allocate about 32 MiB (or to take about 0.3 s when
 * it allocates little), no collection runs in
 * between (checked: a PerformanceObserver counts GC events, and a run with one is
 * repeated with a smaller n), so the difference is every byte allocated, garbage
 * included. V8's escape analysis removes allocations that do not outlive an optimized
 * function: what is measured is what optimized code really allocates.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { ENTRIES } from './corpus-run';
import { compileFilter, counter, FILTERS, invoiceData } from './filters';
import { generateInvoices } from './invoices';
import { naiveParse, qsParse, rsqlParse, urlSearchParams } from './peers';
import { qsfilter } from './qsfilter';

const gc = globalThis.gc;
if (gc === undefined) throw new Error('alloc-child needs --expose-gc');

let gcEvents = 0;
new PerformanceObserver((list) => {
  gcEvents += list.getEntries().length;
}).observe({ entryTypes: ['gc'] });

const quick = process.argv.includes('--quick');
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5));
let keep: unknown;

/** Bytes allocated by one call of `fn` (`units` operations per call: the result is per operation). */
async function bytesPer(fn: () => unknown, units: number): Promise<number> {
  const warm = performance.now() + (quick ? 60 : 200);
  for (let i = 0; i < 200 && (i < 3 || performance.now() < warm); i++) keep = fn();
  gc!();
  const probe = getHeapStatistics().used_heap_size;
  const t0 = performance.now();
  keep = fn();
  const ms = performance.now() - t0;
  const once = Math.max(1, getHeapStatistics().used_heap_size - probe);
  // About 32 MiB of allocation, and at most about 300 ms of work (100 ms when quick).
  let n = Math.max(3, Math.min(Math.floor((quick ? 100 : 300) / Math.max(ms, 1e-3)), Math.floor((32 * 1024 * 1024) / once)));
  for (let attempt = 0; attempt < 6; attempt++) {
    gc!();
    await settle();
    const events = gcEvents;
    const before = getHeapStatistics().used_heap_size;
    for (let i = 0; i < n; i++) keep = fn();
    const after = getHeapStatistics().used_heap_size;
    await settle();
    if (gcEvents === events) return (after - before) / n / units;
    n = Math.max(1, n >> 2);
  }
  throw new Error('a GC ran during every attempt');
}

const queries = ENTRIES.length;
const result: Record<string, number> = {};
const corpus = {
  'URLSearchParams (floor)': () => {
    for (const e of ENTRIES) urlSearchParams(e.query);
  },
  'naive split parser': () => {
    for (const e of ENTRIES) keep = naiveParse(e.query, e.schema.params);
  },
  'qs.parse': () => {
    for (const e of ENTRIES) keep = qsParse(e.query);
  },
  '@rsql/parser': () => {
    for (const e of ENTRIES) keep = rsqlParse(e.rsql);
  },
  'qsfilter parse': () => {
    for (const e of ENTRIES) keep = qsfilter.parse(e.query, e.parseOptions);
  },
  'qsfilter check': () => {
    for (const e of ENTRIES) keep = qsfilter.check(e.query, e.schema);
  },
};
for (const [name, fn] of Object.entries(corpus)) result[`query:${name}`] = await bytesPer(fn, queries);

const checked = FILTERS.map((f) => {
  const r = qsfilter.check(f.query, invoiceData);
  if (!r.ok) throw new Error(f.query);
  return r.value;
});
result['filter:compile'] = await bytesPer(() => {
  for (const c of checked) keep = qsfilter.compile(c);
}, checked.length);
result['filter:check + compile'] = await bytesPer(() => {
  for (const f of FILTERS) keep = compileFilter(f);
}, FILTERS.length);

const items = generateInvoices(100_000);
for (const f of FILTERS) {
  const loop = counter();
  const predicate = compileFilter(f);
  result[`item:${f.name}`] = await bytesPer(() => loop(items, predicate), items.length);
  const handLoop = counter();
  result[`hand:${f.name}`] = await bytesPer(() => handLoop(items, f.hand as (item: unknown) => boolean), items.length);
}
console.log(JSON.stringify(result));
