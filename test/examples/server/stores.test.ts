import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleData } from '../../../examples/server/data/sample';
import { EXAMPLE_REQUESTS } from '../../../examples/server/examples';
import { filled, openStore } from '../../../examples/server/store/open';
import { SCHEMA } from '../../../examples/server/store/postgres';
import { StoreQueue } from '../../../examples/server/store/queue';
import { SERVER, useDatabase, type Database } from '../../support/databases';
import { DATABASE_STORES, startServer, STORES, type TestServer } from '../../support/server';

/**
 * The database mode means what the memory store means: the same requests give the
 * same answers, status and body, whether compile() filters in memory or toSql()
 * filters in Postgres: in an embedded PGlite, and on a Postgres server through
 * DATABASE_URL (a database of its own on the test server), with the case folding
 * that server has.
 */
/** The connection the data requests read, as the API requires it. */
const ACME = 'businessName=Acme%20%26%20Sons&serviceName=quickbooks';

const REQUESTS = [
  `/invoices?${ACME}&customerRef.id=42&totalAmount=gte:100;lte:2000`,
  `/invoices?${ACME}&lines.amount=gte:10;lte:40`,
  `/invoices?${ACME}&lines.amount=gte:2000&lines.amount=lte:100`,
  `/invoices?${ACME}&lines.description=consulting%20FEE`,
  `/invoices?${ACME}&lines.description=%25fee`,
  `/invoices?${ACME}&postedDate=2022-11-18`,
  `/invoices?${ACME}&postedDate=gte:2023-01-01;lt:2023-02-01&limit=7&offset=3`,
  `/invoices?${ACME}&dueDate=gt:2023-12-30`,
  `/invoices?${ACME}&sourceModifiedDate=gte:2022-06-01T10:00:00%2B02:00;lt:2022-07-01`,
  `/invoices?${ACME}&totalAmount=gte:1000&totalAmount=lte:1100`,
  `/invoices?${ACME}&totalAmount=gt:5;lt:5`,
  `/invoices?${ACME}&invoiceNumber=INV-1%25&status=PAID`,
  `/invoices?${ACME}&lines.id=inv_0001%25`,
  `/invoices?${ACME}&limit=500`,
  `/invoices?${ACME}&offset=480`,
  `/invoices?${ACME}&offset=5000&totalAmount=gt:100`,
  `/vendors?${ACME}&vendorName=%25acme%25`,
  `/vendors?${ACME}&vendorName=north%25`,
  `/vendors?${ACME}&vendorName=%25gmbh`,
  `/vendors?${ACME}&vendorName=%25%C3%A9%25`,
  `/vendors?${ACME}&vendorName=%25o'brien%25`,
  `/vendors?${ACME}&limit=0&vendorName=%25acme%25`,
  `/vendors?${ACME}&balance=gte:1000;lt:5000&sourceModifiedDate=lt:2023-01-01T00:00:00Z`,
  '/balanceSheets?businessName=Acme%20%26%20Sons&reportFrequency=month&serviceName=quickbooks&group=Current%20Assets&value=gt:1000',
  '/balanceSheets?businessName=100%25%20Organic&serviceName=oracleNetsuite&reportFrequency=quarter&group=Equity',
  '/balanceSheets?businessName=100%25&serviceName=oracleNetsuite&reportFrequency=quarter',
  `/deposits?${ACME}&memo=%25payout%25&postedDate=gte:2023-01-01`,
  `/deposits?${ACME}&lines.amount=gt:100&lines.quantity=gte:2`,
  `/bills?${ACME}&memo=%25%25&status=open`,
  `/bills?${ACME}&amountDue=gt:0&dueDate=lt:2023-01-01`,
  '/connections?syncTime=gt:3600',
  '/connections?serviceAccountRef.id=x&status=active',
  `/syncStatus?${ACME}&syncTime=gt:3600&dataType=INVOICES`,
  '/businesses?businessName=%25%26%25',
  `/vendors?${ACME}&vendorName=%acme%`,
  `/deposits?${ACME}&lines.memo=%25cash%25`,
  `/invoices?${ACME}&totalAmount=GTE:100&postedDate=2023-02-30`,
  `/invoices?${ACME}&invoiceNumber=inv-1%25&lines.description=%25FEE%25&customerRef.id=4%25`,
  `/vendors?${ACME}&vendorName=%25%C3%89%25`,
  ...EXAMPLE_REQUESTS.map((e) => e.path),
];

describe.each(DATABASE_STORES)('$label answers as the memory store does', (where) => {
  let memory: TestServer;
  let database: TestServer;
  let closeDatabase: () => Promise<void>;
  beforeAll(async () => {
    const opened = await where.open();
    closeDatabase = opened.close;
    [memory, database] = await Promise.all([startServer('memory'), startServer(opened.kind)]);
  });
  afterAll(async () => {
    await Promise.all([memory?.close(), database?.close()]);
    await closeDatabase?.();
  });

  async function answer(server: TestServer, path: string, init?: RequestInit): Promise<[number, unknown]> {
    const response = await server.request(path, init);
    return [response.status, await response.json()];
  }

  it.each(REQUESTS)('GET %s', async (path) => {
    const expected = await answer(memory, path);
    expect(await answer(database, path)).toEqual(expected);
  });

  it('finds at least something for most of the good requests, so the comparison means something', async () => {
    let found = 0;
    for (const path of REQUESTS) {
      const [status, body] = await answer(memory, path);
      if (status === 200 && (body as { pagination: { count: number } }).pagination.count > 0) found++;
    }
    expect(found).toBeGreaterThan(REQUESTS.length / 2);
  });

  it('creates, finds and deletes a business with special characters alike', async () => {
    const name = 'Zoë & "Sons"; 100% /O\'Brien+ 😀';
    const body = JSON.stringify({ businessName: name });
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body };
    const created = await Promise.all([answer(memory, '/businesses', init), answer(database, '/businesses', init)]);
    expect(created[1][0]).toBe(created[0][0]);
    const query = `/businesses?businessName=${encodeURIComponent(`"${name.replace(/[\\%"]/g, '\\$&')}"`)}`;
    // Each server stamped its own createdAt: compare what was found, by name.
    const names = async (server: TestServer) => ((await answer(server, query))[1] as { data: { businessName: string }[] }).data.map((b) => b.businessName);
    expect(await names(memory)).toEqual([name]);
    expect(await names(database)).toEqual([name]);
    const path = `/businesses/${encodeURIComponent(name)}`;
    const deleted = await Promise.all([memory.request(path, { method: 'DELETE' }), database.request(path, { method: 'DELETE' })]);
    expect(deleted.map((r) => r.status)).toEqual([204, 204]);
    expect(await names(memory)).toEqual([]);
    expect(await names(database)).toEqual([]);
  });

  it('stores a posted deposit and finds it by its memo and lines alike', async () => {
    const deposit = { memo: 'Ünique payout ∑ 42', postedDate: '2023-02-01', lines: [{ amount: 12.5, description: 'Card SALES' }, { amount: 7 }] };
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(deposit) };
    const posted = await Promise.all([answer(memory, `/Deposit?${ACME}`, init), answer(database, `/Deposit?${ACME}`, init)]);
    expect(posted.map(([status]) => status)).toEqual([201, 201]);
    // Each server drew its own id: compare the rest.
    const found = async (server: TestServer) =>
      ((await answer(server, `/deposits?${ACME}&memo=%25%C3%BCNIQUE%25&lines.amount=gte:12;lt:13`))[1] as { data: Record<string, unknown>[] }).data.map(
        ({ id, ...rest }) => rest,
      );
    expect(await found(database)).toEqual(await found(memory));
    expect(await found(memory)).toMatchObject([{ memo: deposit.memo, totalAmount: 19.5, lines: deposit.lines }]);
  });
});

describe.each(STORES)('creating one business many times at once, on $label', (where) => {
  it('succeeds once: the store refuses the name in the same step as it stores it', async () => {
    const opened = await where.open();
    const server = await startServer(opened.kind);
    try {
      const name = `Concurrent & Co ${Math.random()}`;
      const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ businessName: name }) };
      // Open the connections first (HTTP keep-alive, the database pool), so that the
      // creates arrive together rather than one connection set-up apart.
      await Promise.all(Array.from({ length: 24 }, async () => (await server.request('/businesses?limit=1')).arrayBuffer()));
      for (let round = 0; round < 3; round++) {
        const statuses = (await Promise.all(Array.from({ length: 24 }, () => server.request('/businesses', init)))).map((r) => r.status);
        expect(statuses.filter((s) => s === 201)).toHaveLength(round === 0 ? 1 : 0);
        expect(statuses.filter((s) => s === 409)).toHaveLength(round === 0 ? 23 : 24);
      }
      const found = await server.request(`/businesses?businessName=${encodeURIComponent(`"${name}"`)}`);
      expect(((await found.json()) as { pagination: { count: number } }).pagination.count).toBe(1);
      // Deleted, the name can be taken again.
      expect((await server.request(`/businesses/${encodeURIComponent(name)}`, { method: 'DELETE' })).status).toBe(204);
      expect((await server.request('/businesses', init)).status).toBe(201);
    } finally {
      await server.close();
      await opened.close();
    }
  });
});

describe(`the example in a database of the ${SERVER.label} that has tables of its own`, () => {
  let db: Database;
  useDatabase(SERVER, {}, async (opened) => {
    db = opened;
  });

  it('keeps to its own schema: a user\'s items table is neither read nor touched', async () => {
    await db.exec(`CREATE TABLE items (id int PRIMARY KEY, name text); INSERT INTO items VALUES (1, 'mine')`);
    const server = await startServer({ databaseUrl: db.url! });
    try {
      const response = await server.request(`/vendors?${ACME}&vendorName=%25acme%25`);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { pagination: { count: number } }).pagination.count).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
    expect((await db.query('SELECT * FROM items')).rows).toEqual([{ id: 1, name: 'mine' }]);
    const { rows } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${SCHEMA}.items`);
    expect(Number(rows[0]!.n)).toBeGreaterThan(1000);
  });

  it('refuses to start on a table of its schema\'s name that is not its own, saying so', async () => {
    await db.exec(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE; CREATE SCHEMA ${SCHEMA}; CREATE TABLE ${SCHEMA}.items (id int, name text)`);
    const opening = openStore({ databaseUrl: db.url! }, sampleData());
    await expect(opening).rejects.toThrow(`${SCHEMA}.items exists but is not the example's table (its columns: id integer, name text). Drop the schema ${SCHEMA}, or use another database.`);
    await db.exec(`DROP SCHEMA ${SCHEMA} CASCADE`);
  });
});

describe('a Postgres server that already holds data', () => {
  it('keeps it: the sample data is loaded only into an empty table', async () => {
    const db = new PGlite();
    try {
      const data = sampleData();
      const queue = new StoreQueue({ concurrency: 1, statementTimeoutMs: 2000 });
      const first = await filled(db, data, false, queue);
      const size = await first.store.size();
      expect(size).toBe(Object.values(data).reduce((n, items) => n + items.length, 0));
      const again = await filled(db, data, false, queue);
      expect(await again.store.size()).toBe(size);
    } finally {
      await db.close();
    }
  });
});
