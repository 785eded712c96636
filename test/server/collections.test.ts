import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleData } from '../../examples/server/data/sample';
import { getPage, getProblem, quotedOperand, startServer, type TestServer } from '../support/server';

// The oracle: the same sample data, filtered by hand in plain JavaScript.
const sample = sampleData();
type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const rows = (resource: keyof typeof sample): Row[] => sample[resource] as Row[];

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** Every match of a filter, in one page (the collections here have at most 500 matches). */
async function all(path: string): Promise<Row[]> {
  const page = await getPage<Row>(server, `${path}${path.includes('?') ? '&' : '?'}limit=500`);
  expect(page.data.length).toBe(page.pagination.count);
  return page.data;
}

function ids(list: Row[]): string[] {
  return list.map((row) => row.id as string);
}

describe('GET /invoices', () => {
  it('filters on a ref id and a number range', async () => {
    const data = await all('/invoices?customerRef.id=42&totalAmount=gte:100;lte:2000');
    expect(data.length).toBeGreaterThan(0);
    for (const invoice of data) {
      expect(invoice.customerRef.id).toBe('42');
      expect(invoice.totalAmount).toBeGreaterThanOrEqual(100);
      expect(invoice.totalAmount).toBeLessThanOrEqual(2000);
    }
    const expected = rows('invoices').filter((i) => i.customerRef.id === '42' && i.totalAmount >= 100 && i.totalAmount <= 2000);
    expect(ids(data)).toEqual(ids(expected));
  });

  it('holds the clauses of one lines parameter to the same line, and separate parameters to any lines', async () => {
    const same = await all('/invoices?lines.amount=gte:10;lte:40');
    const some = (i: Row, test: (amount: number) => boolean) => (i.lines as Row[]).some((l) => test(l.amount as number));
    expect(ids(same)).toEqual(ids(rows('invoices').filter((i) => some(i, (a) => a >= 10 && a <= 40))));
    const separate = await all('/invoices?lines.amount=gte:2400&lines.amount=lte:40');
    const expected = rows('invoices').filter((i) => some(i, (a) => a >= 2400) && some(i, (a) => a <= 40));
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(separate)).toEqual(ids(expected));
    // Those invoices have no single line that is both ≥ 2400 and ≤ 40.
    expect((await all('/invoices?lines.amount=gte:2400;lte:40')).length).toBe(0);
  });

  it('matches a line description with an encoded space, case-insensitively in this server', async () => {
    const page = await getPage<Row>(server, '/invoices?lines.description=consulting%20FEE');
    const expected = rows('invoices').filter((i) => (i.lines as Row[]).some((l) => l.description === 'Consulting fee'));
    expect(expected.length).toBeGreaterThan(100);
    expect(page.pagination.count).toBe(expected.length);
    expect(ids(page.data)).toEqual(ids(expected.slice(0, 100)));
  });

  it('reads a date-only literal as the whole UTC day, and ranges of days', async () => {
    const day = await all('/invoices?issueDate=2023-01-09');
    expect(ids(day)).toEqual(ids(rows('invoices').filter((i) => i.issueDate === '2023-01-09')));
    expect(day.length).toBeGreaterThan(0);
    const january = await all('/invoices?issueDate=gte:2023-01-01;lt:2023-02-01');
    expect(ids(january)).toEqual(ids(rows('invoices').filter((i) => (i.issueDate as string).startsWith('2023-01'))));
    const after = await all('/invoices?dueDate=gt:2023-12-30');
    expect(ids(after)).toEqual(ids(rows('invoices').filter((i) => i.dueDate >= '2023-12-31')));
  });

  it('keeps every occurrence of a repeated key, combined with AND', async () => {
    const data = await all('/invoices?totalAmount=gte:1000&totalAmount=lte:1100');
    expect(ids(data)).toEqual(ids(rows('invoices').filter((i) => i.totalAmount >= 1000 && i.totalAmount <= 1100)));
  });
});

describe('GET /vendors', () => {
  it('finds names containing a text with the %25 wildcard', async () => {
    const data = await all('/vendors?vendorName=%25acme%25');
    expect(data.map((v) => v.vendorName)).toEqual(
      rows('vendors').filter((v) => (v.vendorName as string).toLowerCase().includes('acme')).map((v) => v.vendorName),
    );
    expect(data.map((v) => v.vendorName)).toEqual(expect.arrayContaining(['Acme & Sons', 'ACME Logistics', 'acme-widgets.com']));
  });

  it.each([['Café Zoë'], ["O'Brien; Partners"], ['100% Organic'], ['Plus+Minus Ltd'], ['50/50 Catering'], ['Back\\slash Tools'], ['"Best" Printing'], ['Sushi 🍣 Supplies']])(
    'finds exactly %j by equality',
    async (name) => {
      const data = await all(`/vendors?vendorName=${quotedOperand(name)}`);
      expect(data.map((v) => v.vendorName)).toEqual([name]);
    },
  );

  it('starts-with and ends-with patterns', async () => {
    const starts = await all('/vendors?vendorName=north%25');
    expect(starts.map((v) => v.vendorName)).toEqual(rows('vendors').filter((v) => /^north/i.test(v.vendorName as string)).map((v) => v.vendorName));
    expect(starts.length).toBeGreaterThan(0);
    const ends = await all('/vendors?vendorName=%25gmbh');
    expect(ends.map((v) => v.vendorName)).toEqual(rows('vendors').filter((v) => /gmbh$/i.test(v.vendorName as string)).map((v) => v.vendorName));
    expect(ends.length).toBeGreaterThan(0);
  });
});

describe('GET /balanceSheets', () => {
  it('selects a report by its request parameters and filters its lines', async () => {
    const data = await all('/balanceSheets?businessName=Acme%20%26%20Sons&reportFrequency=month&serviceName=quickbooks&group=assets&value=gt:1000');
    const expected = rows('balanceSheets').filter(
      (l) => l.businessName === 'Acme & Sons' && l.reportFrequency === 'month' && l.serviceName === 'quickbooks' && l.group === 'assets' && l.value > 1000,
    );
    expect(expected.length).toBeGreaterThan(24);
    expect(ids(data)).toEqual(ids(expected));
  });

  it('takes the request parameters as exact values, not filters', async () => {
    // A "%" in businessName is text here: the business is named "100% Organic".
    const data = await all('/balanceSheets?businessName=100%25%20Organic&reportFrequency=quarter&group=equity');
    expect(data.length).toBe(8 * 2);
    for (const line of data) expect(line).toMatchObject({ businessName: '100% Organic', reportFrequency: 'quarter', group: 'equity' });
    expect((await getPage(server, '/balanceSheets?businessName=100%25')).pagination.count).toBe(0);
  });

  it('refuses a request parameter given twice', async () => {
    const { status, body } = await getProblem(server, '/balanceSheets?businessName=a&businessName=b');
    expect(status).toBe(400);
    expect(body.errors).toMatchObject([{ code: 'INVALID_PARAMETER', parameter: 'businessName' }]);
  });
});

describe('the other collections', () => {
  it('GET /deposits: memo pattern and a date range', async () => {
    const data = await all('/deposits?memo=%25payout%25&txnDate=gte:2023-01-01');
    const expected = rows('deposits').filter((d) => (d.memo as string).toLowerCase().includes('payout') && d.txnDate >= '2023-01-01');
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(data)).toEqual(ids(expected));
  });

  it('GET /bills: a vendor ref and a memo with special characters', async () => {
    const vendor = rows('bills')[0]!.vendorRef.id as string;
    expect(ids(await all(`/bills?vendorRef.id=${vendor}`))).toEqual(ids(rows('bills').filter((b) => b.vendorRef.id === vendor)));
    const memo = await all(`/bills?memo=${quotedOperand('Net 30; PO #1234')}`);
    expect(ids(memo)).toEqual(ids(rows('bills').filter((b) => b.memo === 'Net 30; PO #1234')));
    expect(memo.length).toBeGreaterThan(0);
  });

  it('GET /connections and /syncStatus: syncTime', async () => {
    const slow = await all('/connections?syncTime=gt:3600');
    expect(ids(slow)).toEqual(ids(rows('connections').filter((c) => c.syncTime > 3600)));
    const fast = await all('/syncStatus?syncTime=lte:3600&status=complete');
    expect(ids(fast)).toEqual(ids(rows('syncStatus').filter((s) => s.syncTime <= 3600 && s.status === 'complete')));
    expect(slow.length + fast.length).toBeGreaterThan(0);
  });

  it('GET /businesses: a name containing "&"', async () => {
    const data = await all('/businesses?businessName=%25%26%25');
    expect(data.map((b) => b.businessName)).toEqual(['Acme & Sons']);
  });
});

describe('paging', () => {
  it('gives 100 items from offset 0 by default, and the total count', async () => {
    const page = await getPage(server, '/invoices');
    expect(page.data).toHaveLength(100);
    expect(page.pagination).toEqual({ offset: 0, limit: 100, count: 1200 });
    expect(ids(page.data as Row[])).toEqual(ids(rows('invoices').slice(0, 100)));
  });

  it('gives up to 500 items, and pages that fit together', async () => {
    const big = await getPage<Row>(server, '/invoices?limit=500');
    expect(big.data).toHaveLength(500);
    const middle = await getPage<Row>(server, '/invoices?offset=120&limit=50');
    expect(middle.pagination).toEqual({ offset: 120, limit: 50, count: 1200 });
    expect(ids(middle.data)).toEqual(ids(big.data.slice(120, 170)));
  });

  it('gives the last items, and an empty page past the end with the count', async () => {
    const last = await getPage<Row>(server, '/invoices?offset=1190');
    expect(ids(last.data)).toEqual(ids(rows('invoices').slice(1190)));
    const past = await getPage(server, '/invoices?offset=5000&totalAmount=gt:100');
    expect(past.data).toEqual([]);
    expect(past.pagination.count).toBe(rows('invoices').filter((i) => i.totalAmount > 100).length);
  });

  it('counts without items for limit=0', async () => {
    const page = await getPage(server, '/vendors?limit=0&vendorName=%25acme%25');
    expect(page.data).toEqual([]);
    expect(page.pagination.count).toBe(4);
  });

  it.each([
    ['limit=501', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=010', 'limit'],
    ['limit=', 'limit'],
    ['limit=1e2', 'limit'],
    ['offset=-5', 'offset'],
    ['offset=x', 'offset'],
    ['offset=99999999999999999999', 'offset'],
  ])('answers %s with a 400 problem on that parameter', async (query, parameter) => {
    const { status, body } = await getProblem(server, `/invoices?${query}`);
    expect(status).toBe(400);
    expect(body.instance).toBe('/invoices');
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]).toMatchObject({ code: 'INVALID_PARAMETER', parameter });
    expect(body.errors[0]!.message).toContain(JSON.stringify(query.split('=')[1]));
  });

  it('reports a bad limit and a bad offset together, and a repeated limit', async () => {
    const both = await getProblem(server, '/invoices?limit=1000&offset=-1');
    expect(both.body.errors.map((e) => e.parameter)).toEqual(['limit', 'offset']);
    const twice = await getProblem(server, '/invoices?limit=1&limit=2');
    expect(twice.body.errors).toMatchObject([{ code: 'INVALID_PARAMETER', parameter: 'limit' }]);
    expect(twice.body.errors[0]!.message).toContain('2 times');
  });
});
