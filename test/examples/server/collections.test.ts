import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleData } from '../../../examples/server/data/sample';
import { getPage, getProblem, quotedOperand, startServer, type TestServer } from '../../support/server';
import { describeEachStore } from '../../support/stores';

// The oracle: the same sample data, filtered by hand in plain JavaScript.
const sample = sampleData();
type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const rows = (resource: keyof typeof sample): Row[] => sample[resource] as Row[];

/** The connection the data requests read, as the API requires it: the books of "Acme & Sons" in QuickBooks. */
const ACME = 'businessName=Acme%20%26%20Sons&serviceName=quickbooks';
/** The items of that connection, in storage order. */
const acme = (resource: keyof typeof sample): Row[] => rows(resource).filter((r) => r.businessName === 'Acme & Sons' && r.serviceName === 'quickbooks');

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

/** The API's date-time without an offset, as a UTC instant: what a filter compares. */
function utc(text: string): number {
  return Date.parse(`${text}Z`);
}

describe('GET /invoices', () => {
  it('filters on a ref id and a number range', async () => {
    const data = await all(`/invoices?${ACME}&customerRef.id=42&totalAmount=gte:100;lte:2000`);
    expect(data.length).toBeGreaterThan(0);
    for (const invoice of data) {
      expect(invoice.customerRef.id).toBe('42');
      expect(invoice.totalAmount).toBeGreaterThanOrEqual(100);
      expect(invoice.totalAmount).toBeLessThanOrEqual(2000);
    }
    const expected = acme('invoices').filter((i) => i.customerRef.id === '42' && i.totalAmount >= 100 && i.totalAmount <= 2000);
    expect(ids(data)).toEqual(ids(expected));
  });

  it('holds the clauses of one lines parameter to the same line, and separate parameters to any lines', async () => {
    const same = await all(`/invoices?${ACME}&lines.amount=gte:10;lte:40`);
    const some = (i: Row, test: (amount: number) => boolean) => (i.lines as Row[]).some((l) => test(l.amount as number));
    expect(ids(same)).toEqual(ids(acme('invoices').filter((i) => some(i, (a) => a >= 10 && a <= 40))));
    expect(same.length).toBeGreaterThan(0);
    const separate = await all(`/invoices?${ACME}&lines.amount=gte:2000&lines.amount=lte:100`);
    const expected = acme('invoices').filter((i) => some(i, (a) => a >= 2000) && some(i, (a) => a <= 100));
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(separate)).toEqual(ids(expected));
    // Those invoices have no single line that is both ≥ 2000 and ≤ 100.
    expect((await all(`/invoices?${ACME}&lines.amount=gte:2000;lte:100`)).length).toBe(0);
  });

  it('matches a line description with an encoded space, case-insensitively in this server', async () => {
    const page = await getPage<Row>(server, `/invoices?${ACME}&lines.description=consulting%20FEE&limit=50`);
    const expected = acme('invoices').filter((i) => (i.lines as Row[]).some((l) => l.description === 'Consulting fee'));
    expect(expected.length).toBeGreaterThan(50);
    expect(page.pagination.count).toBe(expected.length);
    expect(ids(page.data)).toEqual(ids(expected.slice(0, 50)));
  });

  it('reads the API\'s date-times, which have no offset, as UTC; a date-only literal is the whole UTC day', async () => {
    // The busiest posting day of these books.
    const day = '2022-11-18';
    const onDay = await all(`/invoices?${ACME}&postedDate=${day}`);
    expect(ids(onDay)).toEqual(ids(acme('invoices').filter((i) => i.postedDate === `${day}T00:00:00`)));
    expect(onDay.length).toBeGreaterThan(1);
    const january = await all(`/invoices?${ACME}&postedDate=gte:2023-01-01;lt:2023-02-01`);
    expect(ids(january)).toEqual(ids(acme('invoices').filter((i) => (i.postedDate as string).startsWith('2023-01'))));
    expect(january.length).toBeGreaterThan(0);
    const after = await all(`/invoices?${ACME}&dueDate=gt:2023-12-30`);
    expect(ids(after)).toEqual(ids(acme('invoices').filter((i) => i.dueDate >= '2023-12-31')));
    expect(after.length).toBeGreaterThan(0);
    // An instant with an offset against data without one: 2022-06-01T10:00:00+02:00 is 08:00 UTC.
    const modified = await all(`/invoices?${ACME}&sourceModifiedDate=gte:2022-06-01T10:00:00%2B02:00`);
    expect(ids(modified)).toEqual(ids(acme('invoices').filter((i) => utc(i.sourceModifiedDate) >= Date.UTC(2022, 5, 1, 8))));
  });

  it('filters on the reference\'s fields: a status and an amount still due', async () => {
    const data = await all(`/invoices?${ACME}&status=partiallyPaid&amountDue=gt:500`);
    expect(ids(data)).toEqual(ids(acme('invoices').filter((i) => i.status === 'partiallyPaid' && i.amountDue > 500)));
    expect(data.length).toBeGreaterThan(0);
  });

  it('keeps every occurrence of a repeated key, combined with AND', async () => {
    const data = await all(`/invoices?${ACME}&totalAmount=gte:1000&totalAmount=lte:1100`);
    expect(ids(data)).toEqual(ids(acme('invoices').filter((i) => i.totalAmount >= 1000 && i.totalAmount <= 1100)));
    expect(data.length).toBeGreaterThan(0);
  });
});

describe('GET /vendors', () => {
  it('finds names containing a text with the %25 wildcard', async () => {
    const data = await all(`/vendors?${ACME}&vendorName=%25acme%25`);
    expect(data.map((v) => v.vendorName)).toEqual(
      acme('vendors').filter((v) => (v.vendorName as string).toLowerCase().includes('acme')).map((v) => v.vendorName),
    );
    expect(data.map((v) => v.vendorName)).toEqual(expect.arrayContaining(['Acme & Sons', 'ACME Logistics', 'acme-widgets.com']));
  });

  it.each([['Café Zoë'], ["O'Brien; Partners"], ['100% Organic'], ['Plus+Minus Ltd'], ['50/50 Catering'], ['Back\\slash Tools'], ['"Best" Printing'], ['Sushi 🍣 Supplies']])(
    'finds exactly %j by equality',
    async (name) => {
      const data = await all(`/vendors?${ACME}&vendorName=${quotedOperand(name)}`);
      expect(data.map((v) => v.vendorName)).toEqual([name]);
    },
  );

  it('starts-with and ends-with patterns', async () => {
    const starts = await all(`/vendors?${ACME}&vendorName=north%25`);
    expect(starts.map((v) => v.vendorName)).toEqual(acme('vendors').filter((v) => /^north/i.test(v.vendorName as string)).map((v) => v.vendorName));
    expect(starts.length).toBeGreaterThan(0);
    const ends = await all(`/vendors?${ACME}&vendorName=%25gmbh`);
    expect(ends.map((v) => v.vendorName)).toEqual(acme('vendors').filter((v) => /gmbh$/i.test(v.vendorName as string)).map((v) => v.vendorName));
    expect(ends.length).toBeGreaterThan(0);
  });
});

describe('GET /balanceSheets', () => {
  it('selects a report by its request parameters and filters its lines', async () => {
    const data = await all('/balanceSheets?businessName=Acme%20%26%20Sons&reportFrequency=month&serviceName=quickbooks&group=Current%20Assets&value=gt:1000');
    const expected = rows('balanceSheets').filter(
      (l) => l.businessName === 'Acme & Sons' && l.reportFrequency === 'month' && l.serviceName === 'quickbooks' && l.group === 'Current Assets' && l.value > 1000,
    );
    expect(expected.length).toBeGreaterThan(24);
    expect(ids(data)).toEqual(ids(expected));
  });

  it('takes the request parameters as exact values, not filters', async () => {
    // A "%" in businessName is text here: the business is named "100% Organic".
    const data = await all('/balanceSheets?businessName=100%25%20Organic&serviceName=oracleNetsuite&reportFrequency=quarter&group=Equity');
    expect(data.length).toBe(8 * 2);
    for (const line of data) expect(line).toMatchObject({ businessName: '100% Organic', reportFrequency: 'quarter', group: 'Equity' });
    expect((await getPage(server, '/balanceSheets?businessName=100%25&serviceName=oracleNetsuite&reportFrequency=quarter')).pagination.count).toBe(0);
  });

  it('refuses a request parameter given twice', async () => {
    const { status, body } = await getProblem(server, '/balanceSheets?businessName=a&businessName=b&serviceName=xero&reportFrequency=month');
    expect(status).toBe(400);
    expect(body.errors).toMatchObject([{ code: 'INVALID_PARAMETER', param: 'businessName' }]);
  });
});

describe('the other collections', () => {
  it('GET /deposits: memo pattern and a date range', async () => {
    const data = await all(`/deposits?${ACME}&memo=%25payout%25&postedDate=gte:2023-01-01`);
    const expected = acme('deposits').filter((d) => (d.memo as string).toLowerCase().includes('payout') && d.postedDate >= '2023-01-01');
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(data)).toEqual(ids(expected));
  });

  it('GET /bills: open bills due before a day, and a memo with special characters', async () => {
    const open = await all(`/bills?${ACME}&status=open&dueDate=lt:2023-01-01`);
    expect(ids(open)).toEqual(ids(acme('bills').filter((b) => b.status === 'open' && b.dueDate < '2023-01-01')));
    expect(open.length).toBeGreaterThan(0);
    const memo = await all(`/bills?${ACME}&memo=${quotedOperand('Net 30; PO #1234')}`);
    expect(ids(memo)).toEqual(ids(acme('bills').filter((b) => b.memo === 'Net 30; PO #1234')));
    expect(memo.length).toBeGreaterThan(0);
  });

  it('GET /connections and /syncStatus: syncTime', async () => {
    const key = (list: Row[]) => list.map((row) => `${row.connectionUuid} ${row.dataType ?? ''}`);
    const slow = await all('/connections?syncTime=gt:3600');
    expect(key(slow)).toEqual(key(rows('connections').filter((c) => c.syncTime > 3600)));
    expect(slow.length).toBeGreaterThan(0);
    const synced = await all(`/syncStatus?${ACME}&syncTime=gt:3600&dataType=invoices`);
    expect(key(synced)).toEqual(key(acme('syncStatus').filter((s) => s.syncTime > 3600 && s.dataType === 'invoices')));
    expect(synced.length).toBe(1);
  });

  it('GET /businesses: a name containing "&"', async () => {
    const data = await all('/businesses?businessName=%25%26%25');
    expect(data.map((b) => b.businessName)).toEqual(['Acme & Sons']);
  });
});

describe('paging', () => {
  it('gives 100 items from offset 0 by default, and the total count', async () => {
    const page = await getPage(server, `/invoices?${ACME}`);
    expect(page.data).toHaveLength(100);
    expect(page.pagination).toEqual({ offset: 0, limit: 100, count: acme('invoices').length, nextCursor: expect.any(String) });
    expect(ids(page.data as Row[])).toEqual(ids(acme('invoices').slice(0, 100)));
  });

  it('gives up to 500 items, and pages that fit together', async () => {
    // These books hold fewer than 500 invoices: one page of 500 has them all.
    expect(acme('invoices').length).toBeGreaterThan(400);
    const everything = await getPage<Row>(server, `/invoices?${ACME}&limit=500`);
    expect(everything.data).toHaveLength(acme('invoices').length);
    const middle = await getPage<Row>(server, `/invoices?${ACME}&offset=120&limit=50`);
    expect(middle.pagination).toEqual({ offset: 120, limit: 50, count: acme('invoices').length, nextCursor: expect.any(String) });
    expect(ids(middle.data)).toEqual(ids(everything.data.slice(120, 170)));
  });

  it('gives the last items, and an empty page past the end with the count', async () => {
    const n = acme('invoices').length;
    const last = await getPage<Row>(server, `/invoices?${ACME}&offset=${n - 10}`);
    expect(ids(last.data)).toEqual(ids(acme('invoices').slice(n - 10)));
    const past = await getPage(server, `/invoices?${ACME}&offset=5000&totalAmount=gt:100`);
    expect(past.data).toEqual([]);
    expect(past.pagination.count).toBe(acme('invoices').filter((i) => i.totalAmount > 100).length);
  });

  it.each([
    ['limit=0', 'limit'],
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
  ])('answers %s with a 400 problem on that parameter', async (query, param) => {
    const { status, body } = await getProblem(server, `/invoices?${ACME}&${query}`);
    expect(status).toBe(400);
    expect(body.instance).toBe('/invoices');
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]).toMatchObject({ code: 'INVALID_PAGING', param });
    expect(body.errors[0]!.message).toContain(JSON.stringify(query.split('=')[1]));
  });

  it('reports a bad limit and a bad offset together, and a repeated limit', async () => {
    const both = await getProblem(server, `/invoices?${ACME}&limit=1000&offset=-1`);
    expect(both.body.errors.map((e) => e.param)).toEqual(['limit', 'offset']);
    const twice = await getProblem(server, `/invoices?${ACME}&limit=1&limit=2`);
    expect(twice.body.errors).toMatchObject([{ code: 'INVALID_PAGING', param: 'limit' }]);
    expect(twice.body.errors[0]!.message).toContain('2 times');
  });
});

describe('sorting', () => {
  it('sorts by orderBy, descending with "-", ties in storage order', async () => {
    const page = await getPage<Row>(server, `/invoices?${ACME}&orderBy=-totalAmount&limit=500`);
    const expected = [...acme('invoices')].sort((a, b) => b.totalAmount - a.totalAmount);
    expect(ids(page.data)).toEqual(ids(expected));
    const byStatus = await getPage<Row>(server, `/invoices?${ACME}&orderBy=status,-postedDate&limit=20`);
    const statusThenNewest = [...acme('invoices')].sort((a, b) => (a.status < b.status ? -1 : a.status > b.status ? 1 : utc(b.postedDate) - utc(a.postedDate)));
    expect(ids(byStatus.data)).toEqual(ids(statusThenNewest.slice(0, 20)));
  });

  it('pages a sorted collection: the pages fit together', async () => {
    const everything = await getPage<Row>(server, `/bills?${ACME}&orderBy=dueDate&limit=500`);
    const second = await getPage<Row>(server, `/bills?${ACME}&orderBy=dueDate&limit=10&offset=10`);
    expect(ids(second.data)).toEqual(ids(everything.data.slice(10, 20)));
  });

  it('answers a field that does not sort, or a bad sort key, with a 400 problem', async () => {
    const notSortable = await getProblem(server, `/invoices?${ACME}&orderBy=lines.amount`);
    expect(notSortable.body.errors).toMatchObject([{ code: 'NOT_SORTABLE', param: 'orderBy', in: 'value' }]);
    const plus = await getProblem(server, `/invoices?${ACME}&orderBy=+totalAmount`);
    expect(plus.body.errors).toMatchObject([{ code: 'INVALID_SORT', param: 'orderBy', hint: expect.stringMatching(/"\+" sent unencoded/) }]);
  });
});

describe('the connection and the period', () => {
  it('requires the connection on data endpoints, as the API does', async () => {
    const { status, body } = await getProblem(server, '/invoices?totalAmount=gt:5');
    expect(status).toBe(400);
    expect(body.errors.map((e) => [e.code, e.param])).toEqual([
      ['MISSING_PARAMETER', 'businessName'],
      ['MISSING_PARAMETER', 'serviceName'],
    ]);
    expect((await getPage(server, '/connections?limit=1')).data).toHaveLength(1);
  });

  it('says which connection was read in meta', async () => {
    const page = await getPage<Row>(server, `/invoices?${ACME}&limit=1`);
    expect((page as unknown as { meta: unknown }).meta).toEqual({ businessName: 'Acme & Sons', serviceName: 'quickbooks' });
  });

  it('reads transactions posted from startDate to endDate, both days included', async () => {
    const data = await all(`/invoices?${ACME}&startDate=2022-03-01&endDate=2022-03-31`);
    const expected = acme('invoices').filter((i) => utc(i.postedDate) >= Date.UTC(2022, 2, 1) && utc(i.postedDate) < Date.UTC(2022, 3, 1));
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(data)).toEqual(ids(expected));
    const bad = await getProblem(server, `/invoices?${ACME}&startDate=2022-13-01`);
    expect(bad.body.errors).toMatchObject([{ code: 'INVALID_DATE', param: 'startDate' }]);
  });
});

// Issue 23, item 8: the catalog (and the README's table) declares connectionUuid on the
// data endpoints, and the server dropped it from its schema: UNKNOWN_FIELD.
describeEachStore('connectionUuid, a connection of GET /connections', (current) => {
  const uuidOf = (businessName: string, serviceName: string): string =>
    rows('connections').find((c) => c.businessName === businessName && c.serviceName === serviceName)!.connectionUuid as string;

  it('is taken beside the connection it names, and says so in meta', async () => {
    const uuid = uuidOf('Acme & Sons', 'quickbooks');
    const page = await getPage<Row>(current(), `/invoices?${ACME}&connectionUuid=${uuid}&totalAmount=gte:1000&limit=500`);
    expect(ids(page.data)).toEqual(ids(acme('invoices').filter((i) => i.totalAmount >= 1000)));
    expect(page.data.length).toBeGreaterThan(0);
    expect((page as unknown as { meta: unknown }).meta).toEqual({ businessName: 'Acme & Sons', serviceName: 'quickbooks', connectionUuid: uuid });
  });

  it('matches nothing when it names another connection, or none', async () => {
    const other = rows('connections').find((c) => c.businessName !== 'Acme & Sons')!.connectionUuid as string;
    for (const uuid of [other, 'CON-00000000-0000-4000-8000-000000000000']) {
      const page = await getPage(current(), `/vendors?${ACME}&connectionUuid=${uuid}`);
      expect(page.pagination.count, uuid).toBe(0);
    }
  });

  it('is a request parameter of every data endpoint in /openapi.json, not required', async () => {
    const document = (await (await current().request('/openapi.json')).json()) as { paths: Record<string, { get: { parameters: { name: string; required?: boolean }[] } }> };
    for (const path of ['/balanceSheets', '/invoices', '/vendors', '/deposits', '/bills', '/syncStatus']) {
      expect(document.paths[path]!.get.parameters.find((p) => p.name === 'connectionUuid'), path).toMatchObject({ in: 'query' });
      expect(document.paths[path]!.get.parameters.find((p) => p.name === 'connectionUuid')!.required ?? false).toBe(false);
    }
  });
});

describeEachStore('paging by cursor', (current) => {
  it('walks every page by cursor (after = the previous pagination.nextCursor), each item once, in the order asked for', async () => {
    for (const order of ['-totalAmount', 'status,-postedDate', '']) {
      const sort = order === '' ? '' : `&orderBy=${order}`;
      const everything = await getPage<Row>(current(), `/invoices?${ACME}${sort}&limit=500`);
      const walked: Row[] = [];
      let next: string | undefined;
      for (let pages = 0; pages < 30; pages++) {
        const page = await getPage<Row>(current(), `/invoices?${ACME}${sort}&limit=37${next === undefined ? '' : `&after=${next}`}`);
        expect(page.pagination.count).toBe(acme('invoices').length);
        walked.push(...page.data);
        next = (page.pagination as { nextCursor?: string }).nextCursor;
        if (next === undefined) break;
      }
      expect(ids(walked)).toEqual(ids(everything.data));
    }
  });

  it('refuses a cursor of another query, and after with offset', async () => {
    const first = await getPage<Row>(current(), `/invoices?${ACME}&orderBy=-totalAmount&limit=5`);
    const cursor = (first.pagination as { nextCursor?: string }).nextCursor!;
    const other = await getProblem(current(), `/invoices?${ACME}&orderBy=totalAmount&limit=5&after=${cursor}`);
    expect([other.status, other.body.errors.map((e) => e.code)]).toEqual([400, ['INVALID_CURSOR']]);
    const both = await getProblem(current(), `/invoices?${ACME}&orderBy=-totalAmount&offset=5&after=${cursor}`);
    expect([both.status, both.body.errors.map((e) => e.code)]).toEqual([400, ['INVALID_PAGING']]);
  });

});
