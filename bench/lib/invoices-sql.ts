import { cpus } from 'node:os';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { SqlValue } from '../../src/index';
import { BUILDS, startBuild } from '../../test/support/postgres-server';

/**
 * The invoices of the SQL benches at production size (`indexes.bench.ts`,
 * `paging.bench.ts`): deterministic rows made inside Postgres, and the two engines they
 * run on, npm's Postgres 15 build (a throwaway cluster on a loopback port, JIT off) and
 * PGlite.
 */

/** A database to bench on. */
export interface Engine {
  readonly label: string;
  query(text: string, values?: readonly SqlValue[]): Promise<Record<string, unknown>[]>;
  exec(text: string): Promise<void>;
  close(): Promise<void>;
}

/** `rows` invoices (the table `invoices`): what the paging bench needs. */
export function loadInvoicesOnly(rows: number): string {
  return `
  CREATE TABLE invoices (id int PRIMARY KEY, customer_id text, status text, total_amount float8, posted_date timestamptz);
  INSERT INTO invoices
    SELECT i, ((i::bigint * 7919) % 10000)::text,
           (ARRAY['paid', 'paid', 'paid', 'open', 'open', 'paid', 'void', 'paid', 'open', 'draft'])[i % 10 + 1],
           ((i::bigint * 7919) % 500000) / 100.0,
           timestamptz '2022-01-01T00:00:00Z' + ((i::bigint * 104729) % (730 * 86400)) * interval '1 second'
      FROM generate_series(1, ${rows}) AS i;
`;
}

/**
 * The invoices of `loadInvoicesOnly` as documents of the typed target's forms, without lines
 * (`invoice_pages`: what the paging bench pages through), the id a JSON number.
 */
export const LOAD_INVOICE_PAGES = `
  CREATE TABLE invoice_pages (id int PRIMARY KEY, doc jsonb);
  INSERT INTO invoice_pages
    SELECT v.id, jsonb_build_object('id', v.id, 'status', v.status, 'totalAmount', v.total_amount,
             'postedDate', to_char(v.posted_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'))
      FROM invoices v;
`;

/** `rows` invoices with two lines each (`invoice_lines`), and the same data as documents (`invoice_docs`). */
export function loadInvoices(rows: number): string {
  return `${loadInvoicesOnly(rows)}
  CREATE TABLE invoice_lines (id int PRIMARY KEY, invoice_id int, description text, amount float8);
  -- Invoice v has the lines 2v - 1 and 2v.
  INSERT INTO invoice_lines
    SELECT i, (i + 1) / 2, 'Consulting fee ' || (i % 5000), (i % 1000) / 10.0 FROM generate_series(1, ${2 * rows}) AS i;
  CREATE TABLE invoice_docs (id int PRIMARY KEY, doc jsonb);
  INSERT INTO invoice_docs
    SELECT v.id, jsonb_build_object('id', v.id::text, 'customerRef', jsonb_build_object('id', v.customer_id), 'status', v.status,
             'totalAmount', v.total_amount, 'postedDate', to_char(v.posted_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'),
             'lines', jsonb_build_array(
               jsonb_build_object('description', 'Consulting fee ' || ((2 * v.id - 1) % 5000), 'amount', ((2 * v.id - 1) % 1000) / 10.0),
               jsonb_build_object('description', 'Consulting fee ' || ((2 * v.id) % 5000), 'amount', ((2 * v.id) % 1000) / 10.0)))
      FROM invoices v;
`;
}

/** npm's Postgres 15 build, the one the SQL suites use (fetched on first use). */
export async function openPostgres(): Promise<Engine & { stop(): Promise<void> }> {
  const server = await startBuild(BUILDS[0]!);
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  await client.query('SET jit = off');
  await client.query('SET max_parallel_workers_per_gather = 0'); // two shared cores: parallel plans only add noise
  const version = (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
  return {
    label: `Postgres ${version}`,
    query: async (text, values) => (await client.query(text, values as unknown[])).rows,
    exec: async (text) => void (await client.query(text)),
    close: () => client.end(),
    stop: () => server.stop(),
  };
}

/** PGlite, in process. */
export async function openPGlite(): Promise<Engine> {
  const db = await PGlite.create();
  const version = (await db.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
  return {
    label: `PGlite (Postgres ${version})`,
    query: async (text, values) => (await db.query<Record<string, unknown>>(text, values as unknown[])).rows,
    exec: async (text) => void (await db.exec(text)),
    close: () => db.close(),
  };
}

/** What the SQL benches' command lines say: `--rows N` (1M by default, 20k with `--quick`), and `--postgres` or `--pglite` (both by default). */
export function benchOptions(argv: readonly string[]): { rows: number; engines: readonly ('postgres' | 'pglite')[] } {
  const rows = Number(argv[argv.indexOf('--rows') + 1] || 0) || (argv.includes('--quick') ? 20_000 : 1_000_000);
  return { rows, engines: argv.includes('--pglite') ? ['pglite'] : argv.includes('--postgres') ? ['postgres'] : ['postgres', 'pglite'] };
}

/** The machine line a SQL bench starts its report with. */
export function machineLine(): string {
  return `Machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores (shared with other work); Node ${process.version}; ${new Date().toISOString().slice(0, 10)}.`;
}

/** Opens each engine in turn, gives it to `run`, and closes it (and stops its server) whatever happens. */
export async function onEachEngine(engines: readonly ('postgres' | 'pglite')[], run: (engine: Engine) => Promise<void>): Promise<void> {
  for (const name of engines) {
    const engine = name === 'postgres' ? await openPostgres() : await openPGlite();
    try {
      await run(engine);
    } finally {
      await engine.close();
      if ('stop' in engine) await (engine as { stop(): Promise<void> }).stop();
    }
  }
}
