/**
 * What the docs' text says a reader already has, for the snippets that name it with a
 * `given:` mark: real parts, not stand-ins.
 *
 * - `pool`: a `pg` Pool on a fresh database of the test's Postgres server
 *   (`DOCS_DATABASE_URL`), whose `invoices` and `invoice_lines` tables hold the items of
 *   the docs' `compile` example (captured from that snippet, never copied here);
 * - `kysely`: a Kysely database on that pool, typed with those tables;
 * - `drizzle` and `invoicesTable`: a Drizzle database on that pool, and its `invoices` table;
 * - `store`: a data store over a few vendors, whose `find(filter)` is `compile` and
 *   `sortItems`, and which remembers each filter it was asked for;
 * - `invoicesOpenApi`: the API's published OpenAPI document of invoices, parsed (the
 *   repository's copy, which the schema tests read too).
 */
import { readFileSync } from 'node:fs';
import { drizzle as drizzleOnPool } from 'drizzle-orm/node-postgres';
import { doublePrecision, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { compile, sortItems, type Filter } from 'qsfilter';

/** The tables, as Kysely types them. */
export interface Tables {
  invoices: { id: number; total_amount: number | null; customer_id: string | null; posted_date: Date | null };
  invoice_lines: { invoice_id: number; description: string | null; amount: number | null };
}

const url = process.env.DOCS_DATABASE_URL;

// Data date-times without an offset are UTC (reference §5): so is the session. JIT only slows small queries.
/** A `pg` Pool on the test's fresh database (the docs' `pool`). */
export const pool = new pg.Pool({ connectionString: url, options: '-c TimeZone=UTC -c jit=off' });

/** A Kysely database on `pool` (the docs' Kysely `db`). */
export const kysely = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });

/** Drizzle's `invoices` table (the docs' Drizzle `invoices`). */
export const invoicesTable = pgTable('invoices', {
  id: integer('id').primaryKey(),
  totalAmount: doublePrecision('total_amount'),
  customerId: text('customer_id'),
  postedDate: timestamp('posted_date', { withTimezone: true }),
});

/** A Drizzle database on `pool` (the docs' Drizzle `db`). */
export const drizzle = drizzleOnPool({ client: pool });

interface Item {
  id: number;
  totalAmount: number | string;
  customerRef: { id: number | string };
  postedDate: string | Date;
  lines: { description: string; amount: number }[];
}

let loaded = false;

/**
 * Loads the docs' items (the `compile` example's, captured as `items`) into the tables,
 * once they are captured: the runner calls this before each snippet that is given names,
 * and a snippet that runs before the `compile` example needs no tables (a data store).
 */
export async function prepare(captured: Record<string, unknown>): Promise<void> {
  const items = captured.items as Item[] | undefined;
  if (loaded || items === undefined) return;
  if (url === undefined) throw new Error('given.ts needs DOCS_DATABASE_URL');
  loaded = true;
  await pool.query(`
    CREATE TABLE invoices (id int PRIMARY KEY, total_amount float8, customer_id text, posted_date timestamptz);
    CREATE TABLE invoice_lines (invoice_id int REFERENCES invoices, description text, amount float8)`);
  const rows = items.map((i) => ({ id: i.id, total_amount: i.totalAmount, customer_id: String(i.customerRef.id), posted_date: i.postedDate }));
  await pool.query(`INSERT INTO invoices SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(id int, total_amount float8, customer_id text, posted_date timestamptz)`, [
    JSON.stringify(rows),
  ]);
  const lines = items.flatMap((i) => i.lines.map((line) => ({ invoice_id: i.id, ...line })));
  await pool.query(`INSERT INTO invoice_lines SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(invoice_id int, description text, amount float8)`, [
    JSON.stringify(lines),
  ]);
}

const VENDORS = [
  { id: 'v1', vendorName: 'Acme & Sons', balance: 120, status: 'active' },
  { id: 'v2', vendorName: 'ACME Logistics', balance: 80, status: 'active' },
  { id: 'v3', vendorName: 'Contoso', balance: 300, status: 'archived' },
];

let handled: Filter[] = [];

/** The vendors a filter selects, sorted and paged as it says. */
export const store = {
  find(filter: Filter): typeof VENDORS {
    handled.push(filter);
    const { limit, offset } = filter.page ?? { limit: 100, offset: 0 };
    return sortItems(VENDORS.filter(compile(filter)), filter).slice(offset, offset + limit);
  },
};

/** The filters the store was asked for since the last call. */
export function takeHandled(): Filter[] {
  const taken = handled;
  handled = [];
  return taken;
}

/** Ends the pool (Kysely ends it too, once it used it). */
export async function close(): Promise<void> {
  await kysely.destroy();
  if (!pool.ended) await pool.end();
}

/** The API's published OpenAPI document of invoices, as `JSON.parse` reads it (servers.md's `doc`). */
export const invoicesOpenApi = JSON.parse(readFileSync(new URL('../schema/fixtures/railz-invoice.openapi.json', import.meta.url), 'utf8')) as {
  components: { schemas: { GetInvoiceV2Data: object } };
};
