/**
 * SQL at production size (issue 24, reference §14.1): `toSql` on the relational and the
 * typed document target, with `sqlIndexes`' indexes, against the SQL a Postgres user
 * would write by hand with indexes of their own choosing, on invoices with two lines
 * each, in npm's Postgres 15 build (a throwaway cluster on a loopback port, JIT off) and in
 * PGlite. Each query is `SELECT count(*)` of its matches, after a check that all four
 * count the same; both index sets stand at once and the four queries of a filter run in
 * turns (see `runEngine`), so that on a shared machine the ratios hold even where the
 * times do not. `EXPLAIN` shows what serves each query. Then `toSql`'s own cost per
 * bound number.
 *
 *   npx tsx bench/indexes.bench.ts                         1M invoices, Postgres 15 and PGlite
 *   npx tsx bench/indexes.bench.ts --rows 200000 --pglite  one engine (or --postgres)
 *   npx tsx bench/indexes.bench.ts --quick                 20k invoices
 *   npx tsx bench/indexes.bench.ts --tosql                 toSql's own cost only
 *   npx tsx bench/indexes.bench.ts --rounds 21             more rounds (7 by default)
 */
import { check, defineSchema, sqlIndexes, toSql, type Filter, type RelationalTarget, type DocumentTarget, type SqlValue } from '../src/index';
import { benchOptions, loadInvoices, machineLine, onEachEngine, type Engine } from './lib/invoices-sql';

const argv = process.argv;
const { rows: ROWS, engines: ENGINES } = benchOptions(argv);


const relational: RelationalTarget = {
  table: 'invoices',
  columns: { 'customerRef.id': 'customer_id', status: 'status', totalAmount: 'total_amount', postedDate: 'posted_date' },
  arrays: { lines: { table: 'invoice_lines', alias: 'line', parentKey: 'id', foreignKey: 'invoice_id', columns: { description: 'description', amount: 'amount' } } },
};
const typed: DocumentTarget = { document: 'doc', table: 'invoice_docs', typed: true };

/** The invoices of the catalog, cut to the fields the tables hold. */
const schema = defineSchema({
  fields: {
    customerRef: { type: 'ref' },
    status: { type: 'string', sortable: true },
    totalAmount: { type: 'number', sortable: true },
    postedDate: { type: 'date', sortable: true },
    lines: { type: 'array', of: { description: 'string', amount: 'number' } },
  },
});

/**
 * The filters: the issue's four, and two that match most rows. `hand` is what a
 * Postgres user writes: b-tree indexes on the columns, and for the documents a GIN
 * `jsonb_path_ops` index plus expression indexes on the fields they compare.
 */
const FILTERS: readonly { query: string; selective: boolean; relational: string; document: string }[] = [
  {
    query: 'totalAmount=gte:100;lte:101&customerRef.id=42',
    selective: true,
    relational: `total_amount BETWEEN 100 AND 101 AND customer_id = '42'`,
    document: `doc @> '{"customerRef":{"id":"42"}}' AND (doc->>'totalAmount')::numeric BETWEEN 100 AND 101`,
  },
  {
    query: 'customerRef.id=42&status=open',
    selective: true,
    relational: `customer_id = '42' AND status = 'open'`,
    document: `doc @> '{"customerRef":{"id":"42"},"status":"open"}'`,
  },
  { query: 'totalAmount=gte:4990', selective: true, relational: 'total_amount >= 4990', document: `(doc->>'totalAmount')::numeric >= 4990` },
  {
    query: 'postedDate=gte:2023-09-01&status=paid',
    selective: false,
    relational: `posted_date >= '2023-09-01' AND status = 'paid'`,
    document: `doc->>'postedDate' >= '2023-09-01' AND doc @> '{"status":"paid"}'`,
  },
  { query: 'totalAmount=gte:1', selective: false, relational: 'total_amount >= 1', document: `(doc->>'totalAmount')::numeric >= 1` },
  {
    query: 'postedDate=gte:2022-02-01',
    selective: false,
    relational: `posted_date >= '2022-02-01'`,
    document: `doc->>'postedDate' >= '2022-02-01'`,
  },
  {
    query: 'lines.description=Consulting%20fee%2017',
    selective: true,
    relational: `EXISTS (SELECT 1 FROM invoice_lines l WHERE l.invoice_id = invoices.id AND l.description = 'Consulting fee 17')`,
    document: `doc @> '{"lines":[{"description":"Consulting fee 17"}]}'`,
  },
];

/**
 * What a Postgres user would index by hand, beside sqlIndexes' indexes. On the relational
 * tables those are what a user would make (a b-tree per column, the child table's
 * foreign key), so both sides use them; on the documents, the GIN `jsonb_path_ops` index
 * is sqlIndexes' too, and these two expression indexes are the hand-written SQL's own.
 */
const HAND_INDEXES = `
  CREATE INDEX hand_doc_total ON invoice_docs (((doc->>'totalAmount')::numeric));
  CREATE INDEX hand_doc_posted ON invoice_docs ((doc->>'postedDate'));
`;

/** How many times each query runs, after one warm-up, its sides interleaved (`--rounds N`: more, on a loaded machine). */
const ROUNDS = Number(argv[argv.indexOf('--rounds') + 1] || 0) || 7;

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

function filterOf(query: string): Filter {
  const checked = check(query, schema);
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
  return checked.value;
}

const ms = (x: number) => (x < 10 ? `${x.toFixed(2)} ms` : `${x.toFixed(0)} ms`);

type Side = 'rel' | 'relHand' | 'doc' | 'docHand';
const SIDES: readonly Side[] = ['rel', 'relHand', 'doc', 'docHand'];

/** One filter's four queries (`count(*)` of the matches), as text and values. */
function sides(f: (typeof FILTERS)[number]): Record<Side, { text: string; values: readonly SqlValue[] }> {
  const filter = filterOf(f.query);
  const rel = toSql(filter, relational);
  const doc = toSql(filter, typed);
  return {
    rel: { text: `SELECT count(*) AS n FROM invoices WHERE ${rel.text}`, values: rel.values },
    relHand: { text: `SELECT count(*) AS n FROM invoices WHERE ${f.relational}`, values: [] },
    doc: { text: `SELECT count(*) AS n FROM invoice_docs WHERE ${doc.text}`, values: doc.values },
    docHand: { text: `SELECT count(*) AS n FROM invoice_docs WHERE ${f.document}`, values: [] },
  };
}

/** The scan and join nodes of a query's plan, one line. */
async function planOf(engine: Engine, { text, values }: { text: string; values: readonly SqlValue[] }): Promise<string> {
  const rows = await engine.query(`EXPLAIN (COSTS OFF) ${text}`, values);
  const lines = rows.map((row) => String(row['QUERY PLAN'])).filter((line) => /Scan|Join|BitmapAnd|BitmapOr/.test(line));
  return lines.map((line) => line.trim().replace(/^-> +/, '')).join('; ');
}

/**
 * Both index sets stand at once, so that `toSql` and the hand-written SQL of a filter
 * run in turns, `ROUNDS` times after a warm-up, which side goes first alternating:
 * whatever else the machine does weighs on both alike. A ratio is the median of the
 * rounds' ratios.
 */
async function runEngine(engine: Engine): Promise<void> {
  let t0 = performance.now();
  await engine.exec(loadInvoices(ROWS));
  const load = performance.now() - t0;
  t0 = performance.now();
  const ours = [...sqlIndexes(schema, relational), ...sqlIndexes(schema, typed)];
  for (const statement of ours) await engine.exec(statement);
  const indexing = performance.now() - t0;
  t0 = performance.now();
  await engine.exec(HAND_INDEXES);
  const handIndexing = performance.now() - t0;
  await engine.exec('VACUUM ANALYZE');
  console.log(`\n### ${engine.label}: ${ROWS.toLocaleString('en')} invoices, ${(2 * ROWS).toLocaleString('en')} lines`);
  console.log(`\nLoaded in ${(load / 1000).toFixed(0)} s; sqlIndexes' ${ours.length} indexes built in ${(indexing / 1000).toFixed(0)} s, the hand-written ones in ${(handIndexing / 1000).toFixed(0)} s.\n`);
  console.log('| filter | matches | relational `toSql` | hand-written, b-tree | ratio | typed document `toSql` | hand-written `jsonb` | ratio |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  const plans: string[] = [];
  for (const f of FILTERS) {
    const queries = sides(f);
    const run = async (side: Side) => {
      const t = performance.now();
      const n = Number((await engine.query(queries[side].text, queries[side].values))[0]!.n);
      return { n, ms: performance.now() - t };
    };
    const counts = new Set<number>();
    for (const side of SIDES) counts.add((await run(side)).n);
    if (counts.size !== 1) throw new Error(`${f.query}: the four queries count differently: ${[...counts].join(', ')}`);
    const times: Record<Side, number[]> = { rel: [], relHand: [], doc: [], docHand: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 === 0 ? SIDES : [...SIDES].reverse()) times[side].push((await run(side)).ms);
    }
    const ratio = (ours: Side, hand: Side) => `${median(times[ours].map((t, i) => t / times[hand][i]!)).toFixed(2)}×`;
    const t = (side: Side) => ms(median(times[side]));
    console.log(`| \`${f.query}\` | ${[...counts][0]!.toLocaleString('en')} | ${t('rel')} | ${t('relHand')} | ${ratio('rel', 'relHand')} | ${t('doc')} | ${t('docHand')} | ${ratio('doc', 'docHand')} |`);
    for (const side of SIDES) plans.push(`- \`${f.query}\`, ${LABELS[side]}: ${await planOf(engine, queries[side])}`);
  }
  console.log(`\nPlans (EXPLAIN, COSTS OFF; scan and join nodes):\n\n${plans.join('\n')}`);
}

const LABELS: Record<Side, string> = { rel: 'relational toSql', relHand: 'relational by hand', doc: 'typed document toSql', docHand: 'jsonb by hand' };

/**
 * toSql's own cost per bound number, 64 parameters of two number clauses each (128
 * numbers): the issue's query repeated (its midpoints are computed once, then found in
 * `rounding.ts`' small memo of recent ones), and 20 queries of distinct numbers, 2,560
 * in all, more than the memo keeps, so that each is computed.
 */
function toSqlCost(): void {
  console.log('\n### toSql, per bound number (64 parameters of two number clauses: 128 numbers)\n');
  console.log('| query | relational | untyped document | typed document |');
  console.log('| --- | ---: | ---: | ---: |');
  const repeated = (clauses: string) => [filterOf(Array.from({ length: 64 }, () => `totalAmount=${clauses}`).join('&'))];
  const distinct = (value: (i: number) => string) =>
    Array.from({ length: 20 }, (_, q) => filterOf(Array.from({ length: 64 }, (_, p) => `totalAmount=gt:${value(128 * q + 2 * p)};lt:${value(128 * q + 2 * p + 1)}`).join('&')));
  const cases: [string, Filter[]][] = [
    ['`totalAmount=gt:1;lt:11` ×64 (the issue\'s)', repeated('gt:1;lt:11')],
    ['distinct decimals `gt:0.37;lt:1.37`…', distinct((i) => `${i}.37`)],
    ['distinct tiny numbers `gt:1e-300;lt:2e-300`…', distinct((i) => `${i + 1}e-300`)],
    ['distinct huge numbers `gt:1e300;lt:2e300`…', distinct((i) => `${i + 1}e300`)],
  ];
  const targets: (RelationalTarget | DocumentTarget)[] = [relational, { document: 'doc' }, typed];
  for (const [label, filters] of cases) {
    for (const target of targets) for (const filter of filters) toSql(filter, target);
    // The targets in turns, the first one rotating, as the queries above.
    const runs: number[][] = targets.map(() => []);
    for (let r = 0; r < 9; r++) {
      for (let k = 0; k < targets.length; k++) {
        const t = (r + k) % targets.length;
        const t0 = performance.now();
        for (let i = 0; i < 20; i++) toSql(filters[i % filters.length]!, targets[t]!);
        runs[t]!.push(((performance.now() - t0) * 1000) / 20 / 128);
      }
    }
    console.log(`| ${label} | ${runs.map((r) => `${median(r).toFixed(1)} µs`).join(' | ')} |`);
  }
}

console.log(machineLine());
toSqlCost();
await onEachEngine(argv.includes('--tosql') ? [] : ENGINES, runEngine);
