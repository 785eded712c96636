import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleData } from '../../examples/server/data/sample';
import { filled } from '../../examples/server/store/open';
import { startServer, type TestServer } from '../support/server';

/**
 * The database mode means what the memory store means: the same requests give the
 * same answers, status and body, whether compile() filters in memory or toSql()
 * filters in Postgres (PGlite here; DATABASE_URL runs the same SQL on a server).
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
];

describe('the PGlite store answers as the memory store does', () => {
  let memory: TestServer;
  let database: TestServer;
  beforeAll(async () => {
    [memory, database] = await Promise.all([startServer('memory'), startServer('pglite')]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([memory.close(), database.close()]);
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
});

describe('a Postgres server that already holds data', () => {
  it('keeps it: the sample data is loaded only into an empty table', async () => {
    const db = new PGlite();
    try {
      const data = sampleData();
      const first = await filled(db, data, true, false);
      const size = await first.size();
      expect(size).toBe(Object.values(data).reduce((n, items) => n + items.length, 0));
      const again = await filled(db, data, true, false);
      expect(await again.size()).toBe(size);
    } finally {
      await db.close();
    }
  }, 60_000);
});
