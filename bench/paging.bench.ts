/**
 * Paging at depth (issue 24 item 6, reference §14.2): page 1 against page 5,000 of a
 * sort, by `offset` and by cursor (`after`), through `toSql` on the relational and the
 * typed document target with `sqlIndexes`' indexes (a schema with `paging.cursor`: each
 * sort key followed by the cursor key), on the invoices of `lib/invoices-sql.ts` in npm's
 * Postgres 15 build and in PGlite. Each page is `SELECT … ORDER BY … LIMIT 20` (with
 * `OFFSET` for offset paging); the cursor page's rows are checked equal to the offset
 * page's. Page 1 and each deep page run in turns (see `inTurns`), ROUNDS times after a
 * warm-up, and each time is the median: on a shared machine the ratios hold where the
 * times may not. `EXPLAIN` shows what serves the cursor's page 5,000. Goal: page 5,000 by
 * cursor within 1.5× of page 1.
 *
 * First, issue 32's checks (`lib/awkward.ts`): on 20,000 awkward well-typed invoices, the
 * typed target orders every sorted filter as `sortItems` does, and walks by cursor on
 * both targets equal `pageItems`' walks.
 *
 *   npx tsx bench/paging.bench.ts                         1M invoices, Postgres 15 and PGlite
 *   npx tsx bench/paging.bench.ts --rows 200000 --pglite  one engine (or --postgres)
 *   npx tsx bench/paging.bench.ts --quick                 20k invoices (page 500)
 *   npx tsx bench/paging.bench.ts --order-only            issue 32's checks alone
 *   npx tsx bench/paging.bench.ts --paging-only           the pages alone
 */
import { check, defineSchema, nextCursor, sqlIndexes, toSql, type Filter, type SqlTarget } from '../src/index';
import { checkOrder } from './lib/awkward';
import { benchOptions, LOAD_INVOICE_PAGES, loadInvoicesOnly, machineLine, onEachEngine, type Engine } from './lib/invoices-sql';

const argv = process.argv;
const { rows: ROWS, engines: ENGINES } = benchOptions(argv);
const LIMIT = 20;
/** The deep page: 5,000 (offset 99,980), or one that the rows hold. */
const DEEP = Math.min(5_000, Math.floor(ROWS / LIMIT / 2));
/** Issue 32's checks: 20,000 awkward invoices (fewer with fewer rows). */
const ORDER_ROWS = Math.min(20_000, ROWS);
/** Pages take well under a millisecond: a median of many rounds, or the machine's noise decides. */
const ROUNDS = argv.includes('--quick') ? 21 : 101;

const schema = defineSchema({
  fields: {
    id: { type: 'number', sortable: true },
    status: { type: 'string', sortable: true },
    totalAmount: { type: 'number', sortable: true },
    postedDate: { type: 'date', sortable: true },
  },
  paging: { defaultLimit: LIMIT, maxLimit: 100, cursor: { key: 'id' } },
});
const TARGETS: readonly { readonly name: string; readonly target: SqlTarget; readonly from: string; readonly select: string }[] = [
  { name: 'relational', target: { table: 'invoices', columns: { id: 'id', status: 'status', totalAmount: 'total_amount', postedDate: 'posted_date' } }, from: 'invoices', select: 'id, status, total_amount, posted_date' },
  { name: 'typed document', target: { document: 'doc', table: 'invoice_pages', typed: true }, from: 'invoice_pages', select: 'id, doc' },
];

/** The sorts: newest first (few ties), and by amount (every amount on 2 invoices: the cursor key breaks the ties), and a mixed one. */
const SORTS = ['-postedDate', 'totalAmount', 'status,-totalAmount'];

function filterOf(query: string): Filter {
  const checked = check(query, schema);
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
  return checked.value;
}

type Target = (typeof TARGETS)[number];

/** One page's SQL: the filter's keyset predicate (with a cursor) and its whole order. */
function pageSql({ target, from, select }: Target, filter: Filter): { text: string; values: readonly unknown[] } {
  const { text, values, orderBy } = toSql(filter, target);
  // LIMIT and OFFSET bound as an application binds them: every page then goes through the
  // same protocol (a statement without parameters is a simple query, one round trip cheaper).
  const n = values.length;
  const offset = filter.page!.offset > 0 ? ` OFFSET $${n + 2}::int` : '';
  const paging = [filter.page!.limit, ...(offset === '' ? [] : [filter.page!.offset])];
  return { text: `SELECT ${select} FROM ${from} WHERE ${text} ${orderBy} LIMIT $${n + 1}::int${offset}`, values: [...values, ...paging] };
}

/** A row as the schema's item, what `nextCursor` reads: the columns by the schema's names, or the document. */
const itemOf = (row: Record<string, unknown>) =>
  'doc' in row ? row.doc : { id: row.id, status: row.status, totalAmount: row.total_amount, postedDate: (row.posted_date as Date).toISOString() };

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const ms = (x: number) => (x < 10 ? `${x.toFixed(2)} ms` : `${x.toFixed(0)} ms`);

async function runEngine(engine: Engine): Promise<void> {
  if (!argv.includes('--paging-only')) {
    const order = await checkOrder(engine, ORDER_ROWS, engine.label.startsWith('PGlite') ? 'pg_c_utf8' : 'icu');
    console.log(`\n### ${engine.label}: issue 32's checks\n\n${order.join('\n')}`);
  }
  if (argv.includes('--order-only')) return;
  let t0 = performance.now();
  await engine.exec(loadInvoicesOnly(ROWS));
  await engine.exec(LOAD_INVOICE_PAGES);
  const load = performance.now() - t0;
  t0 = performance.now();
  const indexes = TARGETS.flatMap(({ target }) => sqlIndexes(schema, target));
  for (const statement of indexes) await engine.exec(statement);
  await engine.exec('VACUUM ANALYZE');
  const indexing = performance.now() - t0;
  const rowsOf = async (q: { text: string; values: readonly unknown[] }) => engine.query(q.text, q.values as never);
  const lines: string[] = [];
  const plans: string[] = [];
  for (const at of TARGETS) {
    for (const sort of SORTS) {
      const first = filterOf(`orderBy=${sort}&limit=${LIMIT}`);
      const deepOffset = filterOf(`orderBy=${sort}&limit=${LIMIT}&offset=${LIMIT * (DEEP - 1)}`);
      // The cursor of page DEEP - 1's last row, as a client would hold it after walking there.
      const before = await rowsOf(pageSql(at, filterOf(`orderBy=${sort}&limit=1&offset=${LIMIT * (DEEP - 1) - 1}`)));
      const deepCursor = filterOf(`orderBy=${sort}&limit=${LIMIT}&after=${nextCursor(first, itemOf(before[0]!))}`);
      const queries = { first: pageSql(at, first), deepOffset: pageSql(at, deepOffset), deepCursor: pageSql(at, deepCursor) };
      const ids = async (q: { text: string; values: readonly unknown[] }) => (await rowsOf(q)).map((row) => row.id).join(',');
      if ((await ids(queries.deepOffset)) !== (await ids(queries.deepCursor))) throw new Error(`${at.name} ${sort}: page ${DEEP} by cursor is not page ${DEEP} by offset`);
      // Page 1 against each deep page in turns of their own, which goes first alternating:
      // run among them, the offset page's 50-100 ms scan leaves the server's (and PGlite's
      // in-process) caches cold for whichever query follows it.
      const inTurns = async (deep: 'deepOffset' | 'deepCursor', rounds: number) => {
        const times = { first: [] as number[], deep: [] as number[] };
        for (let round = -1; round < rounds; round++) {
          for (const side of round % 2 === 0 ? (['first', 'deep'] as const) : (['deep', 'first'] as const)) {
            const t = performance.now();
            await rowsOf(queries[side === 'first' ? 'first' : deep]);
            if (round >= 0) times[side].push(performance.now() - t);
          }
        }
        return { first: median(times.first), deep: median(times.deep) };
      };
      const byCursor = await inTurns('deepCursor', ROUNDS);
      const byOffset = await inTurns('deepOffset', Math.ceil(ROUNDS / 5));
      // Each ratio is against the page 1 of its own turns.
      lines.push(`| ${at.name} | \`orderBy=${sort}\` | ${ms(byCursor.first)} | ${ms(byOffset.deep)} | ${(byOffset.deep / byOffset.first).toFixed(1)}× | ${ms(byCursor.deep)} | ${(byCursor.deep / byCursor.first).toFixed(2)}× |`);
      // The plan's nodes; a node's Filter only by its length (its constants are the numbers' bounds, hundreds of digits).
      const plan = await engine.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ${queries.deepCursor.text}`, queries.deepCursor.values as never);
      const nodes = plan.map((row) => String(row['QUERY PLAN'])).map((line) => (line.length > 160 ? `${line.slice(0, line.indexOf(':') + 1)} (${line.length} characters)` : line));
      plans.push(`${at.name}, \`orderBy=${sort}\`, page ${DEEP} by cursor:\n\n\`\`\`\n${nodes.join('\n')}\n\`\`\``);
    }
  }
  console.log(`\n### ${engine.label}: ${ROWS.toLocaleString('en')} invoices, ${LIMIT} a page, page 1 against page ${DEEP.toLocaleString('en')}`);
  console.log(`\nLoaded in ${(load / 1000).toFixed(0)} s; sqlIndexes' ${indexes.length} indexes built in ${(indexing / 1000).toFixed(0)} s. Page 1 and the cursor's page in turns, ${ROUNDS} rounds; page 1 and the offset's page in turns, ${Math.ceil(ROUNDS / 5)} rounds; medians, each ratio against the page 1 of its own turns.\n`);
  console.log(`| target | sort | page 1 | page ${DEEP} by offset | ratio | page ${DEEP} by cursor | ratio |`);
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
  for (const line of lines) console.log(line);
  console.log(`\nPlans (EXPLAIN, COSTS OFF):\n\n${plans.join('\n\n')}`);
}

console.log(machineLine());
await onEachEngine(ENGINES, runEngine);
