/**
 * SQL pushdown against in-memory evaluation, on 1M invoices in Postgres (PGlite, in
 * process): the filter run inside the database through `toSql` (with a btree index on
 * the amount column), against loading every row into JS and filtering with `compile`.
 * Both must count the same rows before anything is timed. The same again for a
 * document layout (one `jsonb` column, no index). Timings by mitata's `measure`.
 *
 *   npx tsx bench/sql.bench.ts            1M rows
 *   npx tsx bench/sql.bench.ts --rows 100000
 *   npx tsx bench/sql.bench.ts --quick    20k rows (what `npm run bench -- --quick` runs)
 */
import { cpus } from 'node:os';
import { PGlite } from '@electric-sql/pglite';
import { measure } from 'mitata';
import { check, compile, invoices, toSql, type Filter, type SqlTarget } from '../src/index';

// Generating and indexing 1M rows alone takes about 15 s: a quick run only checks the answers agree and shows the ratios on fewer.
const ROWS = Number(process.argv[process.argv.indexOf('--rows') + 1] || 0) || (process.argv.includes('--quick') ? 20_000 : 1_000_000);
const QUERY = 'businessName=Acme&serviceName=quickbooks&totalAmount=gte:100;lte:110&postedDate=gte:2023-01-01&invoiceNumber=%25-1%25';

const checked = check(QUERY, invoices);
if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
const filter: Filter = checked.value;

const relational: SqlTarget = {
  table: 'invoices',
  columns: { totalAmount: 'total_amount', postedDate: 'posted_date', invoiceNumber: 'invoice_number' },
};
const document: SqlTarget = { document: 'doc', table: 'invoice_docs' };

const db = await PGlite.create();
let started = performance.now();
// Deterministic pseudo-random rows, generated inside Postgres: loading rows is the slow part.
await db.exec(`
  CREATE TABLE invoices (id int PRIMARY KEY, total_amount float8, posted_date timestamptz, invoice_number text);
  INSERT INTO invoices
    SELECT i, ((i::bigint * 7919) % 100000) / 100.0,
           timestamptz '2022-01-01T00:00:00Z' + ((i::bigint * 104729) % (730 * 86400)) * interval '1 second',
           'INV-' || i
      FROM generate_series(1, ${ROWS}) AS i;
  CREATE INDEX ON invoices (total_amount);
  CREATE TABLE invoice_docs (id int PRIMARY KEY, doc jsonb);
  INSERT INTO invoice_docs
    SELECT id, jsonb_build_object('totalAmount', total_amount, 'invoiceNumber', invoice_number,
                                  'postedDate', to_char(posted_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
      FROM invoices;
  ANALYZE;
`);
const setup = performance.now() - started;

async function sqlCount(target: SqlTarget, table: string): Promise<number> {
  const sql = toSql(filter, target);
  const result = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${sql.text}`, sql.values);
  return result.rows[0]!.n;
}

const predicate = compile(filter);

/** Reads every row into JS, as an application without pushdown would, and filters it. */
async function loadAndCompile(select: string): Promise<number> {
  const { rows } = await db.query<unknown>(select);
  let n = 0;
  for (const row of rows) if (predicate(row)) n++;
  return n;
}

const RELATIONAL_ROWS = 'SELECT total_amount AS "totalAmount", posted_date AS "postedDate", invoice_number AS "invoiceNumber" FROM invoices';
const DOCUMENT_ROWS = 'SELECT doc FROM invoice_docs';
const loadDocuments = async (): Promise<number> => {
  const { rows } = await db.query<{ doc: unknown }>(DOCUMENT_ROWS);
  let n = 0;
  for (const row of rows) if (predicate(row.doc)) n++;
  return n;
};

// Same answers first.
const counts = {
  relationalSql: await sqlCount(relational, 'invoices'),
  relationalJs: await loadAndCompile(RELATIONAL_ROWS),
  documentSql: await sqlCount(document, 'invoice_docs'),
  documentJs: await loadDocuments(),
};
if (counts.relationalSql !== counts.relationalJs || counts.documentSql !== counts.documentJs || counts.relationalSql !== counts.documentSql) {
  throw new Error(`the back ends disagree: ${JSON.stringify(counts)}`);
}

const OPTIONS = { min_samples: 5, max_samples: 5, min_cpu_time: 0, warmup_samples: 1 };
const ms = async (f: () => Promise<unknown>) => (await measure(f, OPTIONS)).avg / 1e6;

const relationalSql = await ms(() => sqlCount(relational, 'invoices'));
const relationalJs = await ms(() => loadAndCompile(RELATIONAL_ROWS));
const documentSql = await ms(() => sqlCount(document, 'invoice_docs'));
const documentJs = await ms(loadDocuments);

const fmt = (t: number) => `${t.toFixed(t < 10 ? 2 : 0)} ms`;
console.log(`qsfilter SQL pushdown, ${ROWS.toLocaleString('en')} rows, ${counts.relationalSql.toLocaleString('en')} match`);
console.log(`filter: ${QUERY}`);
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`);
console.log(`setup (generate rows, index, analyze): ${fmt(setup)}\n`);
console.table({
  'relational, toSql + btree index': { time: fmt(relationalSql), 'vs load + compile': `${(relationalJs / relationalSql).toFixed(0)}× faster` },
  'relational, load all rows + compile': { time: fmt(relationalJs), 'vs load + compile': '1×' },
  'document (jsonb), toSql, no index': { time: fmt(documentSql), 'vs load + compile': `${(documentJs / documentSql).toFixed(1)}× faster` },
  'document (jsonb), load all + compile': { time: fmt(documentJs), 'vs load + compile': '1×' },
});
await db.close();
