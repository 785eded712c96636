import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LINES } from '../../../examples/server/routes/deposits';
import { getPage, getProblem, quotedOperand, startServer, type TestServer } from '../../support/server';
import { describeEachStore } from '../../support/stores';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** The connection deposits are pushed to and read from in these tests. */
const BOOKS = 'businessName=Test%20Books&serviceName=xero';

function postDeposit(body: unknown, contentType = 'application/json', query = BOOKS): Promise<Response> {
  return server.request(`/Deposit?${query}`, { method: 'POST', headers: { 'content-type': contentType }, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

interface Deposit {
  id: string;
  memo?: string;
  businessName: string;
  serviceName: string;
  postedDate: string;
  totalAmount: number;
  lines: Record<string, unknown>[];
}

describe('POST /Deposit', () => {
  it('stores a deposit with its memo, totals its lines, and GET /deposits finds it', async () => {
    const response = await postDeposit({ memo: 'Test deposit; one', postedDate: '2023-03-01', lines: [{ amount: 100.1, description: 'Cash sales' }, { amount: 0.2 }] });
    expect(response.status).toBe(201);
    expect(response.headers.get('deprecation')).toBeNull();
    const { data, ...rest } = (await response.json()) as { data: Deposit };
    expect(rest).toEqual({});
    expect(data).toMatchObject({
      businessName: 'Test Books',
      serviceName: 'xero',
      memo: 'Test deposit; one',
      postedDate: '2023-03-01T00:00:00',
      totalAmount: 100.3,
      lines: [{ amount: 100.1, description: 'Cash sales' }, { amount: 0.2 }],
    });
    const found = await getPage<Deposit>(server, `/deposits?${BOOKS}&memo=${quotedOperand('Test deposit; one')}&postedDate=2023-03-01`);
    expect(found.data).toEqual([data]);
  });

  it('drops a memo sent under a line, and says so with a Deprecation header and a note', async () => {
    const response = await postDeposit({
      memo: 'On the deposit',
      lines: [{ amount: 1, memo: 'line memo 0' }, { amount: 2 }, { amount: 3, memo: '' }],
    });
    expect(response.status).toBe(201);
    // RFC 9745: "@" and the Unix time of the deprecation, 2023-01-09T00:00:00Z.
    expect(response.headers.get('deprecation')).toBe('@1673222400');
    expect(new Date(1673222400 * 1000).toISOString()).toBe('2023-01-09T00:00:00.000Z');
    const body = (await response.json()) as { data: Deposit; deprecation: { field: string; since: string; droppedFromLines: number[]; detail: string } };
    expect(body.deprecation).toMatchObject({ field: 'lines[].memo', since: '2023-01-09', droppedFromLines: [0, 2] });
    expect(body.deprecation.detail).toContain('lines 0, 2');
    expect(body.data.memo).toBe('On the deposit');
    for (const line of body.data.lines) expect(line).not.toHaveProperty('memo');
    // Stored without the line memos: the deposit's own memo finds it, and its lines have none.
    const found = await getPage<Deposit>(server, `/deposits?${BOOKS}&memo=On%20the%20deposit`);
    expect(found.data.map((d) => d.id)).toEqual([body.data.id]);
    expect(found.data[0]!.lines.some((line) => 'memo' in line)).toBe(false);
    expect(found.data[0]!.totalAmount).toBe(6);
  });

  it('does not move a line memo to a deposit that has none', async () => {
    const response = await postDeposit({ postedDate: '2023-04-02', lines: [{ amount: 5, memo: 'only here' }] });
    expect(response.status).toBe(201);
    const { data } = (await response.json()) as { data: Deposit };
    expect(data).not.toHaveProperty('memo');
    expect((await getPage(server, `/deposits?${BOOKS}&memo=only%20here`)).pagination.count).toBe(0);
  });

  it.each([
    ['a body that is not JSON', '{"lines": [', ''],
    ['an array', [{ amount: 1 }], ''],
    ['no lines', { memo: 'x' }, '/lines'],
    ['lines that are not an array', { lines: { amount: 1 } }, '/lines'],
    ['an empty list of lines', { lines: [] }, '/lines'],
    ['a line that is not an object', { lines: [5] }, '/lines/0'],
    ['an amount that is a string', { lines: [{ amount: 1 }, { amount: '2' }] }, '/lines/1/amount'],
    ['a missing amount', { lines: [{ description: 'x' }] }, '/lines/0/amount'],
    ['a memo that is not a string', { memo: 5, lines: [{ amount: 1 }] }, '/memo'],
    ['a date that does not exist', { postedDate: '2023-02-30', lines: [{ amount: 1 }] }, '/postedDate'],
  ])('refuses %s with a 400 problem', async (_, body, pointer) => {
    const response = await postDeposit(body);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await response.json()) as { status: number; instance: string; errors?: { pointer: string }[] };
    expect(problem).toMatchObject({ status: 400, instance: '/Deposit' });
    if (pointer !== '') expect(problem.errors?.map((e) => e.pointer)).toContain(pointer);
  });

  it('needs the connection in the query, as GET /deposits does', async () => {
    const response = await postDeposit({ lines: [{ amount: 1 }] }, 'application/json', 'businessName=Test%20Books');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ errors: [{ code: 'MISSING_PARAMETER', param: 'serviceName' }] });
  });

  it('refuses a business name that POST /businesses would refuse: control characters, or too long', async () => {
    for (const name of ['%1B%5B2J', 'a%C2%9Bb', 'x'.repeat(201)]) {
      const response = await postDeposit({ lines: [{ amount: 1 }] }, 'application/json', `businessName=${name}&serviceName=xero`);
      expect(response.status, name).toBe(400);
      expect(await response.json()).toMatchObject({ status: 400, detail: expect.stringMatching(/^No business can be named ".*": businessName must /) });
    }
    const stored = await getPage<Deposit>(server, `/deposits?serviceName=xero&businessName=${encodeURIComponent('\u001b[2J')}`);
    expect(stored.data).toEqual([]);
  });

  it('refuses a body sent as another media type: unparsed (415) or not a JSON object (400)', async () => {
    const form = await getProblem(server, `/Deposit?${BOOKS}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'memo=x' });
    expect(form.status).toBe(415);
    const text = await getProblem(server, `/Deposit?${BOOKS}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"lines": [{"amount": 1}]}' });
    expect(text.status).toBe(400);
  });
});

// Issue 14, item 9: each of these was stored (a null total, U+FFFD for the bad bytes) or
// failed with a 500 in Postgres; each is a problem now, and nothing is stored.
describeEachStore('POST /Deposit refuses what it cannot store', (current) => {
  async function count(): Promise<number> {
    return (await getPage(current(), `/deposits?${BOOKS}&limit=1`)).pagination.count;
  }

  function postRaw(body: string): Promise<Response> {
    return current().request(`/Deposit?${BOOKS}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  }

  it.each([
    ['amounts whose total overflows', '{"lines":[{"amount":1e308},{"amount":1e308}]}', '/lines', /add up to more than a number can hold/],
    ['NUL in the memo', '{"memo":"a\\u0000b","lines":[{"amount":1}]}', '/memo', /without NUL/],
    ['a lone surrogate in a description', '{"lines":[{"amount":1,"description":"\\ud800"}]}', '/lines/0/description', /without NUL/],
  ])('%s: a 400 problem pointing at it', async (_, body, pointer, detail) => {
    const before = await count();
    const response = await postRaw(body);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await response.json()) as { errors: { pointer: string; detail: string }[] };
    expect(problem.errors).toEqual([{ pointer, detail: expect.stringMatching(detail) }]);
    expect(await count()).toBe(before);
  });

  it('invalid UTF-8 in the body: a 400 problem, not U+FFFD stored', async () => {
    const before = await count();
    const body = Buffer.concat([Buffer.from('{"memo":"caf'), Buffer.from([0xc3, 0x28]), Buffer.from('","lines":[{"amount":1}]}')]);
    const { status, body: problem } = await getProblem(current(), `/Deposit?${BOOKS}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(status).toBe(400);
    expect(problem.detail).toBe('The body is not valid UTF-8.');
    expect(await count()).toBe(before);
  });

  it('keeps refusing "__proto__" keys in a JSON body', async () => {
    const { status } = await getProblem(current(), `/Deposit?${BOOKS}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"__proto__":{"x":1},"lines":[{"amount":1}]}' });
    expect(status).toBe(400);
  });

  it(`takes ${MAX_LINES} lines, and answers 413 past that`, async () => {
    const lines = (n: number): string => JSON.stringify({ lines: Array.from({ length: n }, () => ({ amount: 1 })) });
    const before = await count();
    const tooMany = await postRaw(lines(MAX_LINES + 1));
    expect(tooMany.status).toBe(413);
    expect(((await tooMany.json()) as { errors: { pointer: string }[] }).errors).toEqual([
      { pointer: '/lines', detail: `A deposit has at most ${MAX_LINES} lines, not ${MAX_LINES + 1}: post the rest as another deposit.` },
    ]);
    expect(await count()).toBe(before);
    const enough = await postRaw(lines(MAX_LINES));
    expect(enough.status).toBe(201);
    expect(((await enough.json()) as { data: { totalAmount: number } }).data.totalAmount).toBe(MAX_LINES);
  });
});

describeEachStore('POST /Deposit takes every date GET /deposits can filter on', (current) => {
  // Date.UTC reads years 0 to 99 as 1900 to 1999: 0050-01-01 came back as 1950 and was refused as "not YYYY-MM-DD".
  it.each(['0000-01-01', '0050-06-30', '0099-12-31', '1900-02-28', '9999-12-31'])('%s', async (day) => {
    const response = await current().request(`/Deposit?${BOOKS}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ memo: `dated ${day}`, postedDate: day, lines: [{ amount: 1 }] }),
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const page = await getPage<Deposit>(current(), `/deposits?${BOOKS}&postedDate=${day}`);
    expect(page.data.map((d) => [d.memo, d.postedDate])).toEqual([[`dated ${day}`, `${day}T00:00:00`]]);
  });

  it('still refuses a day that does not exist, in any century', async () => {
    for (const day of ['0050-02-29', '1900-02-29', '0000-13-01']) {
      const response = await current().request(`/Deposit?${BOOKS}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ postedDate: day, lines: [{ amount: 1 }] }) });
      expect(response.status, day).toBe(400);
    }
  });
});

// Issue 23, item 7: one line of 1e307 was refused as "more than a number can hold" (the
// rounding to cents multiplied by 100 first, which overflowed), and the date-time form
// that GET /deposits returns was refused as a postedDate.
describeEachStore('POST /Deposit takes what GET /deposits returns', (current) => {
  function post(body: unknown): Promise<Response> {
    return current().request(`/Deposit?${BOOKS}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  }

  it.each([
    [[1e307], 1e307],
    [[-1e307, 5e306], -5e306],
    [[Number.MAX_VALUE], Number.MAX_VALUE],
    [[1e15 + 0.25], 1e15 + 0.25],
    [[0.1, 0.2], 0.3],
  ])('lines %j total %d', async (amounts, total) => {
    const memo = `total of ${JSON.stringify(amounts)}`;
    const response = await post({ memo, lines: amounts.map((amount) => ({ amount })) });
    expect(response.status, await response.clone().text()).toBe(201);
    expect(((await response.json()) as { data: Deposit }).data.totalAmount).toBe(total);
    const found = await getPage<Deposit>(current(), `/deposits?${BOOKS}&memo=${quotedOperand(memo)}`);
    expect(found.data.map((d) => d.totalAmount)).toEqual([total]);
  });

  it('a postedDate as GET /deposits writes it: midnight, no offset', async () => {
    const sample = (await getPage<Deposit>(current(), '/deposits?businessName=Acme%20%26%20Sons&serviceName=quickbooks&limit=1')).data[0]!;
    expect(sample.postedDate).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00$/);
    for (const postedDate of [sample.postedDate, '2023-02-01T00:00:00']) {
      const response = await post({ memo: `posted ${postedDate}`, postedDate, lines: [{ amount: 1 }] });
      expect(response.status, await response.clone().text()).toBe(201);
      expect(((await response.json()) as { data: Deposit }).data.postedDate).toBe(postedDate);
    }
  });

  it.each(['2023-02-01T10:30:00', '2023-02-01T00:00:00Z', '2023-02-30T00:00:00', '2023-02-01T'])('still refuses %j, saying which forms it takes', async (postedDate) => {
    const response = await post({ postedDate, lines: [{ amount: 1 }] });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: unknown }).errors).toEqual([
      { pointer: '/postedDate', detail: 'postedDate must be a date written YYYY-MM-DD, or YYYY-MM-DDT00:00:00 as GET /deposits returns it.' },
    ]);
  });
});
