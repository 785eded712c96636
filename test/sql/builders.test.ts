import type { PGlite } from '@electric-sql/pglite';
import { and, asc, gt, sql as drizzleSql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { doublePrecision, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { Kysely, PostgresDialect, sql as kyselySql, type Generated } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { check, compile, detectCaseFolding, toSqlTemplate, type CaseFolding, type Filter, type SqlTarget } from '../../src/index';
import { specInvoices as invoices } from '../check/support';
import { SERVERS, useDatabase, type Database } from '../support/databases';

/**
 * Query builders take a filter through their own `sql` template tag, which numbers the
 * placeholders itself: `sql(...toSqlTemplate(filter, target))`. Tested through each
 * library's own query execution, next to conditions and a limit of the builder's own
 * (whose placeholders come before and after the filter's), on PGlite and on the server.
 */

const target: SqlTarget = {
  table: 'invoices',
  columns: { totalAmount: 'total_amount', vendorName: 'vendor_name', issueDate: 'issue_date', 'customerRef.id': 'customer_id' },
  arrays: { lines: { table: 'invoice_lines', parentKey: 'id', foreignKey: 'invoice_id', columns: { description: 'description', amount: 'amount' } } },
};

interface Invoice {
  id: number;
  totalAmount: number;
  vendorName: string;
  issueDate: Date;
  customerRef: { id: string };
  lines: { description: string; amount: number }[];
}

const INVOICES: Invoice[] = Array.from({ length: 40 }, (_, i) => ({
  id: i + 1,
  totalAmount: (i * 37) % 500,
  vendorName: `${i % 3 === 0 ? 'INV' : 'inv'}-${1000 + i}${i % 7 === 0 ? ' Éclair' : ''}`,
  issueDate: new Date(Date.UTC(2023, 0, 1 + i * 5)),
  customerRef: { id: String(40 + (i % 5)) },
  lines: [
    { description: i % 2 === 0 ? 'Consulting FEE' : 'travel', amount: (i * 13) % 90 },
    { description: `item ${i}`, amount: i },
  ],
}));

const QUERIES = [
  'totalAmount=gte:100;lte:400&vendorName=INV-10%25',
  'lines.description=%25fee%25&lines.amount=gte:10;lt:60&customerRef.id=42',
  'issueDate=gte:2023-03-01;lt:2023-06-01&vendorName=%25%C3%A9CLAIR',
  'totalAmount=gt:0',
];

function filterOf(query: string): Filter {
  const checked = check(query, invoices);
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
  return checked.value;
}

/** What compile accepts among the rows the builder's own conditions keep (id > 3), the first 20. */
function expected(filter: Filter): number[] {
  const matches = compile(filter, { caseInsensitive: true });
  return INVOICES.filter((invoice) => invoice.id > 3 && matches(invoice))
    .map((invoice) => invoice.id)
    .slice(0, 20);
}

async function createInvoices(db: Database): Promise<void> {
  await db.exec(`
    CREATE TABLE invoices (id int PRIMARY KEY, total_amount float8, vendor_name text, issue_date timestamptz, customer_id text);
    CREATE TABLE invoice_lines (invoice_id int, description text, amount float8);
  `);
  await db.query(
    `INSERT INTO invoices SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(id int, total_amount float8, vendor_name text, issue_date timestamptz, customer_id text)`,
    [JSON.stringify(INVOICES.map((i) => ({ id: i.id, total_amount: i.totalAmount, vendor_name: i.vendorName, issue_date: i.issueDate, customer_id: i.customerRef.id })))],
  );
  await db.query(`INSERT INTO invoice_lines SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(invoice_id int, description text, amount float8)`, [
    JSON.stringify(INVOICES.flatMap((i) => i.lines.map((line) => ({ invoice_id: i.id, ...line })))),
  ]);
}

// Kysely's table types, and Drizzle's table definitions.
interface Tables {
  invoices: { id: Generated<number>; total_amount: number; vendor_name: string; issue_date: Date; customer_id: string };
}
const invoicesTable = pgTable('invoices', {
  id: integer('id').primaryKey(),
  totalAmount: doublePrecision('total_amount'),
  vendorName: text('vendor_name'),
  issueDate: timestamp('issue_date', { withTimezone: true }),
  customerId: text('customer_id'),
});

/** Kysely's PostgresDialect over a PGlite: the pool and client shape the dialect drives. */
function pgliteDialect(db: PGlite): PostgresDialect {
  const client = {
    query: async (text: string, values: readonly unknown[]) => {
      const result = await db.query(text, [...values]);
      return { command: 'SELECT' as const, rowCount: result.rows.length, rows: result.rows };
    },
    release: () => {},
  };
  return new PostgresDialect({ pool: { connect: async () => client, end: async () => {} } as never });
}

describe.each(SERVERS)('query builders on $label', (server) => {
  let folding: CaseFolding;
  let kysely: Kysely<Tables>;
  let drizzle: ReturnType<typeof drizzlePglite> | ReturnType<typeof drizzleNodePg>;

  useDatabase(server, {}, async (db) => {
    await createInvoices(db);
    folding = await detectCaseFolding(db);
    if (db.pglite !== undefined) {
      kysely = new Kysely<Tables>({ dialect: pgliteDialect(db.pglite) });
      drizzle = drizzlePglite({ client: db.pglite });
    } else {
      const pool = new pg.Pool({ connectionString: db.url });
      kysely = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
      drizzle = drizzleNodePg({ client: pool });
    }
  });

  // Kysely's destroy ends the pool it was given; it runs before the database is dropped (after hooks run in reverse).
  afterAll(async () => {
    await kysely?.destroy();
  });

  it.each(QUERIES)('Kysely: %s', async (query) => {
    const filter = filterOf(query);
    const where = toSqlTemplate(filter, target, { caseInsensitive: true, caseFolding: folding });
    const rows = await kysely
      .selectFrom('invoices')
      .select('id')
      .where('id', '>', 3)
      .where(kyselySql<boolean>(...where))
      .orderBy('id')
      .limit(20)
      .execute();
    expect(rows.map((r) => r.id)).toEqual(expected(filter));
  });

  it.each(QUERIES)('Drizzle: %s', async (query) => {
    const filter = filterOf(query);
    const where = toSqlTemplate(filter, target, { caseInsensitive: true, caseFolding: folding });
    const rows = await drizzle
      .select({ id: invoicesTable.id })
      .from(invoicesTable)
      .where(and(gt(invoicesTable.id, 3), drizzleSql(...where)))
      .orderBy(asc(invoicesTable.id))
      .limit(20);
    expect(rows.map((r) => r.id)).toEqual(expected(filter));
  });

  it('finds something for most queries, so the comparison means something', () => {
    expect(QUERIES.filter((q) => expected(filterOf(q)).length > 0).length).toBeGreaterThanOrEqual(QUERIES.length - 1);
  });
});
