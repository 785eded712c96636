/**
 * SQL at production size (issue 24, reference §14.1): `toSql` on the relational and the
 * typed document target, with `sqlIndexes`' indexes, against the SQL a Postgres user
 * would write by hand with indexes of their own choosing, on invoices with two lines
 * each, in npm's Postgres 15 build (a throwaway cluster on a loopback port, JIT off) and in
 * PGlite. Each query is `SELECT count(*)` of its matches, after a check that both sides
 * count the same; each time is the median of 5 runs after one warm-up. `EXPLAIN` shows
 * what serves each selective filter. Then `toSql`'s own cost per bound number.
 *
 *   npx tsx bench/indexes.bench.ts                         1M invoices, Postgres 15 and PGlite
 *   npx tsx bench/indexes.bench.ts --rows 200000 --pglite  one engine (or --postgres)
 *   npx tsx bench/indexes.bench.ts --quick                 20k invoices
 *   npx tsx bench/indexes.bench.ts --tosql                 toSql's own cost only
 */
import { cpus } from 'node:os';
import { check, defineSchema, sqlIndexes, toSql, type Filter, type RelationalTarget, type DocumentTarget, type SqlValue } from '../src/index';
import { loadInvoices, openPGlite, openPostgres, type Engine } from './lib/invoices-sql';

const argv = process.argv;
const ROWS = Number(argv[argv.indexOf('--rows') + 1] || 0) || (argv.includes('--quick') ? 20_000 : 1_000_000);
const ENGINES = argv.includes('--pglite') ? ['pglite'] : argv.includes('--postgres') ? ['postgres'] : ['postgres', 'pglite'];

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
 * The filters: the four, and two that match most rows. `hand` is what a
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

/** What a Postgres user would index by hand (with sqlIndexes' indexes dropped, so that each side has its own). */
const HAND_INDEXES = `
  CREATE INDEX hand_customer ON invoices (customer_id);
  CREATE INDEX hand_status ON invoices (status);
  CREATE INDEX hand_total ON invoices (total_amount);
  CREATE INDEX hand_posted ON invoices (posted_date);
  CREATE INDEX hand_line_invoice ON invoice_lines (invoice_id);
  CREATE INDEX hand_line_description ON invoice_lines (description);
  CREATE INDEX hand_doc ON invoice_docs USING gin (doc jsonb_path_ops);
  CREATE INDEX hand_doc_total ON invoice_docs (((doc->>'totalAmount')::numeric));
  CREATE INDEX hand_doc_posted ON invoice_docs ((doc->>'postedDate'));
`;

/** Median of 5 runs after one warm-up, in milliseconds. */
async function time(run: () => Promise<unknown>): Promise<number> {
  await run();
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    await run();
    runs.push(performance.now() - t0);
  }
  return runs.sort((a, b) => a - b)[2]!;
}

function filterOf(query: string): Filter {
  const checked = check(query, schema);
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
  return checked.value;
}

const ms = (x: number) => (x < 10 ? `${x.toFixed(2)} ms` : `${x.toFixed(0)} ms`);
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

/** One filter's four queries, each counting its matches. */
function sides(engine: Engine, f: (typeof FILTERS)[number]) {
  const filter = filterOf(f.query);
  const rel = toSql(filter, relational);
  const doc = toSql(filter, typed);
  const count = async (text: string, values: readonly SqlValue[] = []) => Number((await engine.query(text, values))[0]!.n);
  return {
    rel: () => count(`SELECT count(*) AS n FROM invoices WHERE ${rel.text}`, rel.values),
    doc: () => count(`SELECT count(*) AS n FROM invoice_docs WHERE ${doc.text}`, doc.values),
    relHand: () => count(`SELECT count(*) AS n FROM invoices WHERE ${f.relational}`),
    docHand: () => count(`SELECT count(*) AS n FROM invoice_docs WHERE ${f.document}`),
    sql: { rel, doc },
  };
}

async function runEngine(engine: Engine): Promise<void> {
  let t0 = performance.now();
  await engine.exec(loadInvoices(ROWS));
  const load = performance.now() - t0;
  // First toSql with sqlIndexes' indexes alone, then the hand-written SQL with its own.
  t0 = performance.now();
  const ours = [...sqlIndexes(schema, relational), ...sqlIndexes(schema, typed)];
  for (const statement of ours) await engine.exec(statement);
  await engine.exec('VACUUM ANALYZE');
  const indexing = performance.now() - t0;
  const counts = new Map<string, number>();
  const times = new Map<string, { rel: number; doc: number; relHand: number; docHand: number }>();
  const plans: string[] = [];
  for (const f of FILTERS) {
    const s = sides(engine, f);
    const n = [await s.rel(), await s.doc()];
    if (n[0] !== n[1]) throw new Error(`${f.query}: the targets count differently: ${n.join(', ')}`);
    counts.set(f.query, n[0]!);
    times.set(f.query, { rel: await time(s.rel), doc: await time(s.doc), relHand: NaN, docHand: NaN });
    if (f.selective) {
      for (const [what, table, sql] of [['relational', 'invoices', s.sql.rel], ['typed document', 'invoice_docs', s.sql.doc]] as const) {
        const plan = await engine.query(`EXPLAIN (COSTS OFF) SELECT count(*) FROM ${table} WHERE ${sql.text}`, sql.values);
        const lines = plan.map((row) => String(row['QUERY PLAN']));
        plans.push(`- \`${f.query}\`, ${what}: ${lines.filter((l) => /Scan|Join/.test(l)).map((l) => l.trim().replace(/^-> +/, '')).join('; ')}`);
      }
    }
  }
  for (const statement of ours) await engine.exec(`DROP INDEX ${/EXISTS (".*?") ON/.exec(statement)![1]}`);
  await engine.exec(HAND_INDEXES);
  await engine.exec('VACUUM ANALYZE');
  for (const f of FILTERS) {
    const s = sides(engine, f);
    const n = [await s.relHand(), await s.docHand()];
    if (n[0] !== counts.get(f.query) || n[1] !== counts.get(f.query)) throw new Error(`${f.query}: the hand-written SQL counts ${n.join(', ')}, toSql ${counts.get(f.query)}`);
    const t = times.get(f.query)!;
    t.relHand = await time(s.relHand);
    t.docHand = await time(s.docHand);
  }
  console.log(`\n### ${engine.label}: ${ROWS.toLocaleString('en')} invoices, ${(2 * ROWS).toLocaleString('en')} lines`);
  console.log(`\nLoaded in ${(load / 1000).toFixed(0)} s; sqlIndexes' ${ours.length} indexes built in ${(indexing / 1000).toFixed(0)} s.\n`);
  console.log('| filter | matches | relational `toSql` | hand-written, b-tree | ratio | typed document `toSql` | hand-written `jsonb` | ratio |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const f of FILTERS) {
    const t = times.get(f.query)!;
    console.log(`| \`${f.query}\` | ${counts.get(f.query)!.toLocaleString('en')} | ${ms(t.rel)} | ${ms(t.relHand)} | ${ratio(t.rel, t.relHand)} | ${ms(t.doc)} | ${ms(t.docHand)} | ${ratio(t.doc, t.docHand)} |`);
  }
  console.log(`\nPlans of the selective filters through toSql (EXPLAIN, COSTS OFF; scan and join nodes):\n\n${plans.join('\n')}`);
}

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
  ];
  for (const [label, filters] of cases) {
    const per = (target: RelationalTarget | DocumentTarget) => {
      for (const filter of filters) toSql(filter, target);
      const runs: number[] = [];
      for (let r = 0; r < 9; r++) {
        const t0 = performance.now();
        for (let i = 0; i < 20; i++) toSql(filters[i % filters.length]!, target);
        runs.push(((performance.now() - t0) * 1000) / 20 / 128);
      }
      return `${runs.sort((a, b) => a - b)[4]!.toFixed(1)} µs`;
    };
    console.log(`| ${label} | ${per(relational)} | ${per({ document: 'doc' })} | ${per(typed)} |`);
  }
}

console.log(`Machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores (shared with other work); Node ${process.version}; ${new Date().toISOString().slice(0, 10)}.`);
toSqlCost();
for (const name of argv.includes('--tosql') ? [] : ENGINES) {
  const engine = name === 'postgres' ? await openPostgres() : await openPGlite();
  try {
    await runEngine(engine);
  } finally {
    await engine.close();
    if ('stop' in engine) await (engine as { stop(): Promise<void> }).stop();
  }
}
