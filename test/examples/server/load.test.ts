import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../examples/server/app';
import { EXAMPLE_REQUESTS, HEAVY_REQUEST } from '../../../examples/server/examples';
import { HEAVY_COST, HeavyGate, queryCost } from '../../../examples/server/store/gate';
import type { Store } from '../../../examples/server/store/store';
import { QUERY_CANCELED, WorkerDatabase } from '../../../examples/server/store/worker';
import { collections } from '../../../examples/server/resources';
import { check } from '../../../src/index';
import { getProblem, startServer, type TestServer } from '../../support/server';

// Issue 26, items 1 and 2 (SPEC §14.4): the embedded PGlite ran on the server's event
// loop, so one heavy query held every other request, the cheap 400s included; no query
// had a time limit; and requests that came during shutdown got Fastify's plain 503.

/** What `check` makes of a request path, as the plugin hands it to the store. */
function filterOf(path: string) {
  const [resource, query] = path.slice(1).split('?') as [keyof typeof collections, string];
  const result = check(query, collections[resource]);
  if (!result.ok) throw new Error(`${path}: ${JSON.stringify(result.errors)}`);
  return result.value;
}

describe('which finds are heavy', () => {
  it('the example requests are cheap, the heavy request of the issue is heavy', () => {
    for (const { path } of EXAMPLE_REQUESTS.filter((r) => r.status === 200)) {
      const filter = filterOf(path);
      expect(queryCost(filter, filter.page!), path).toBeLessThanOrEqual(HEAVY_COST);
    }
    const heavy = filterOf(HEAVY_REQUEST);
    expect(HEAVY_REQUEST.length).toBeGreaterThan(4000);
    expect(queryCost(heavy, heavy.page!)).toBeGreaterThan(10 * HEAVY_COST);
  });
});

describe('the heavy-query gate', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('lets cheap tasks through at once, heavy ones one at a time, each after twice the time the last one held', async () => {
    const gate = new HeavyGate();
    const times: Record<string, number> = {};
    const heavy = (name: string) =>
      gate.run(true, async () => {
        times[`${name} start`] = performance.now();
        await sleep(40);
        times[`${name} end`] = performance.now();
      });
    const both = Promise.all([heavy('h1'), heavy('h2')]);
    await sleep(5);
    await gate.run(false, async () => (times.cheap = performance.now()));
    expect(Object.keys(times)).toEqual(['h1 start', 'cheap']);
    await both;
    // A lower bound only (a timer never fires early by more than its rounding): the gap is 2 × h1's ≥ 40 ms.
    expect(times['h2 start']! - times['h1 end']!).toBeGreaterThanOrEqual(2 * 40 - 2);
  });

  it('passes a failing task\'s error on, and keeps going', async () => {
    const gate = new HeavyGate();
    await expect(gate.run(true, async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await expect(gate.run(true, async () => 'yes')).resolves.toBe('yes');
  });
});

describe('the embedded database in a worker thread', () => {
  it('fails a query that runs past the statement timeout with 57014, and keeps the data for the queries after it', async () => {
    const db = await WorkerDatabase.open();
    try {
      await db.query('CREATE TABLE kept (x int)');
      await db.query('INSERT INTO kept VALUES (1), (2)');
      db.statementTimeoutMs = 100;
      const slow = db.query('SELECT count(*) FROM generate_series(1, 2000000000)');
      // Queued behind the slow one: runs on the new thread, its own time counted from its start.
      const after = db.query<{ x: number }>('SELECT x FROM kept ORDER BY x');
      await expect(slow).rejects.toMatchObject({ code: QUERY_CANCELED, message: 'The query ran past the statement timeout (100 ms).' });
      db.statementTimeoutMs = 60_000;
      expect((await after).rows).toEqual([{ x: 1 }, { x: 2 }]);
      await db.query('INSERT INTO kept VALUES (3)');
      expect((await db.query('SELECT count(*)::int AS n FROM kept')).rows).toEqual([{ n: 3 }]);
    } finally {
      await db.close();
    }
  }, 120_000);
});

describe('the example server on PGlite under a heavy query', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('pglite');
  }, 120_000);
  afterAll(() => server?.close());

  it('answers a 400 while the heavy query runs, not after it', async () => {
    const order: string[] = [];
    const heavy = server.request(HEAVY_REQUEST).then((r) => order.push(`heavy ${r.status}`));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const bad = EXAMPLE_REQUESTS.find((r) => r.status === 400)!.path;
    await server.request(bad).then((r) => order.push(`bad ${r.status}`));
    await heavy;
    expect(order).toEqual(['bad 400', 'heavy 200']);
  });
});

describe('the statement timeout', () => {
  let server: TestServer;
  beforeAll(async () => {
    // 1 ms: every query of the requests runs past it (the sample data loads without it).
    server = await startServer('pglite', { statementTimeoutMs: 1 });
  }, 120_000);
  afterAll(() => server?.close());

  it('answers a query that runs past it with a 503 problem', async () => {
    const response = await server.request(HEAVY_REQUEST);
    expect(response.headers.get('retry-after')).toBe('1');
    const { status, body } = await getProblem(server, HEAVY_REQUEST);
    expect(status).toBe(503);
    expect(body).toMatchObject({ title: 'Service Unavailable', instance: '/invoices', detail: expect.stringMatching(/^The query took longer than this server allows \(STATEMENT_TIMEOUT_MS\)/) });
  });
});

describe('closing', () => {
  it('answers a request that comes while the server closes with a 503 problem, and finishes the one in flight', async () => {
    let release!: () => void;
    let entered!: () => void;
    const inFind = new Promise<void>((resolve) => (entered = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    const store: Store = {
      find: async () => {
        entered();
        await held;
        return { data: [], count: 0 };
      },
      insert: async () => true,
      remove: async () => 0,
    };
    const app = buildApp({ store, logStream: { write: () => true } });
    const address = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));
    // One connection, two requests: the second is read while the first is in the store.
    const socket = connect(Number(address.port), '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    const ended = new Promise((resolve) => socket.on('close', resolve));
    socket.write('GET /connections HTTP/1.1\r\nHost: x\r\n\r\n');
    await inFind;
    const closed = app.close();
    socket.write('GET /connections HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    await closed;
    await ended;
    const answers = received.split(/(?=HTTP\/1\.1 )/);
    expect(answers.map((a) => a.split('\r\n')[0])).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 503 Service Unavailable']);
    expect(answers[1]).toMatch(/content-type: application\/problem\+json/i);
    expect(JSON.parse(answers[1]!.slice(answers[1]!.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 503, detail: 'The server is stopping: send the request again.' });
  });
});
