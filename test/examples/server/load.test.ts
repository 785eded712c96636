import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../../examples/server/app';
import { EXAMPLE_REQUESTS, HEAVY_REQUEST } from '../../../examples/server/examples';
import { collections } from '../../../examples/server/resources';
import { PostgresStore, type SqlClient } from '../../../examples/server/store/postgres';
import { HEAVY_COST, MAX_WAIT_MS, queryCost, StoreQueue } from '../../../examples/server/store/queue';
import { StoreUnavailable } from '../../../examples/server/store/store';
import { QUERY_CANCELED, WorkerDatabase } from '../../../examples/server/store/worker';
import { check } from '../../../src/index';
import { startServer, type TestServer } from '../../support/server';
import { heldStore } from './held';

// Issue 26, items 1 and 2, and issue 33, item 6 (SPEC §14.4): heavy queries must not take
// the database from the others; every query has a time limit; and load is shed, never
// queued without bound: store work waits in a bounded queue, and past its bounds the
// answer is a 503 problem with Retry-After whose detail says what happened. A flood of
// heavy queries queued without bound (answers after 30 s), and a cheap query that ran past
// the statement timeout behind heavy ones was told to use fewer patterns.

const ACME = 'businessName=Acme%20%26%20Sons&serviceName=quickbooks';
/** A cheap query (cost 3). */
const CHEAP = `/vendors?${ACME}&vendorName=%25acme%25`;

/** What `check` makes of a request path, as the plugin hands it to the store. */
function filterOf(path: string) {
  const [resource, query] = path.slice(1).split('?') as [keyof typeof collections, string];
  const result = check(query, collections[resource]);
  if (!result.ok) throw new Error(`${path}: ${JSON.stringify(result.errors)}`);
  return result.value;
}

/** Lets every promise that can settle, settle (setImmediate is never faked here). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Virtual time for a queue: fake timers (setTimeout alone: faking `performance` leaves
 * Node's HTTP server unable to close idle connections afterwards) and the queue's clock,
 * moved on together.
 */
function virtualTime() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  let now = 0;
  return {
    now: () => now,
    async advance(ms: number) {
      now += ms;
      await vi.advanceTimersByTimeAsync(ms);
    },
  };
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

/** A task whose end the test decides, and the log it writes its start to. */
function heldTask(name: string, log: string[]) {
  let release!: (value: string) => void;
  let fail!: (error: unknown) => void;
  const done = new Promise<string>((resolve, reject) => ((release = resolve), (fail = reject)));
  return {
    task: () => {
      log.push(name);
      return done;
    },
    release: () => release(name),
    fail: (error: unknown) => fail(error),
  };
}

describe('the store queue', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs work at once while there is room, then in order; a full lane refuses more at once, saying the server is busy', async () => {
    const queue = new StoreQueue({ concurrency: 2, length: { cheap: 2, heavy: 1 }, statementTimeoutMs: 2000 });
    const started: string[] = [];
    const tasks = ['a', 'b', 'c', 'd', 'e'].map((name) => heldTask(name, started));
    const results = tasks.slice(0, 4).map((t) => queue.run(1, t.task));
    await settle();
    expect(started).toEqual(['a', 'b']);
    expect(queue.waiting).toEqual({ cheap: 2, heavy: 0 });
    const refused = queue.run(1, tasks[4]!.task);
    await expect(refused).rejects.toThrow(StoreUnavailable);
    await expect(refused).rejects.toMatchObject({
      message: 'The server is busy: 2 queries are waiting for the database already. Send the request again in 2 s.',
      retryAfterSeconds: Math.ceil(MAX_WAIT_MS.cheap / 1000),
    });
    expect(started).toEqual(['a', 'b']);
    expect(queue.waiting).toEqual({ cheap: 2, heavy: 0 });
    tasks[1]!.release();
    await settle();
    expect(started).toEqual(['a', 'b', 'c']);
    for (const t of tasks) t.release();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('with lanes of no length, runs work while there is room and refuses the rest at once', async () => {
    const queue = new StoreQueue({ concurrency: 1, length: { cheap: 0, heavy: 0 }, statementTimeoutMs: 2000 });
    const started: string[] = [];
    const [a, b, h] = ['a', 'b', 'h'].map((name) => heldTask(name, started));
    const first = queue.run(1, a!.task);
    await expect(queue.run(1, b!.task)).rejects.toMatchObject({ message: 'The server is busy: the database is taken, and no query may wait for it. Send the request again in 2 s.' });
    await expect(queue.run(HEAVY_COST + 1, h!.task)).rejects.toMatchObject({ message: expect.stringMatching(/^The server is busy: heavy queries run one at a time, and none may wait\. This query is a heavy one/) });
    expect(started).toEqual(['a']);
    a!.release();
    await first;
  });

  it('runs heavy work one piece at a time, and after one that held the database d ms only cheap work for 2d', async () => {
    const time = virtualTime();
    const queue = new StoreQueue({ concurrency: 3, statementTimeoutMs: 2000, now: time.now });
    const started: string[] = [];
    const [h1, h2, c] = ['h1', 'h2', 'c'].map((name) => heldTask(name, started));
    const heavy = [queue.run(HEAVY_COST + 1, h1!.task), queue.run(HEAVY_COST + 1, h2!.task)];
    await settle();
    expect(started).toEqual(['h1']);
    await time.advance(100);
    h1!.release();
    await settle();
    // h1 held the database 100 ms (virtual time): h2 waits 200 ms, cheap work does not.
    void queue.run(1, c!.task);
    await settle();
    expect(started).toEqual(['h1', 'c']);
    await time.advance(199);
    expect(started).toEqual(['h1', 'c']);
    await time.advance(1);
    expect(started).toEqual(['h1', 'c', 'h2']);
    h2!.release();
    c!.release();
    await Promise.all(heavy);
  });

  it('gives heavy work its turn before cheap work that waits, once its lane is open', async () => {
    const queue = new StoreQueue({ concurrency: 1, statementTimeoutMs: 2000 });
    const started: string[] = [];
    const [c1, h, c2] = ['c1', 'h', 'c2'].map((name) => heldTask(name, started));
    const all = [queue.run(1, c1!.task), queue.run(HEAVY_COST + 1, h!.task), queue.run(1, c2!.task)];
    await settle();
    expect(started).toEqual(['c1']);
    c1!.release();
    await settle();
    expect(started).toEqual(['c1', 'h']);
    h!.release();
    c2!.release();
    await Promise.all(all);
  });

  it('refuses work that waited its lane\'s longest, saying so', async () => {
    const time = virtualTime();
    const queue = new StoreQueue({ concurrency: 1, statementTimeoutMs: 2000, now: time.now });
    const started: string[] = [];
    const [running, cheap, heavy] = ['running', 'cheap', 'heavy'].map((name) => heldTask(name, started));
    const first = queue.run(1, running!.task);
    const waited = [queue.run(1, cheap!.task), queue.run(500, heavy!.task)].map((p) => p.catch((error: unknown) => error));
    await settle();
    await time.advance(MAX_WAIT_MS.cheap - 1);
    expect(queue.waiting).toEqual({ cheap: 1, heavy: 1 });
    await time.advance(1);
    expect(queue.waiting).toEqual({ cheap: 0, heavy: 1 });
    expect(await waited[0]).toMatchObject({ message: `The server is busy: this query waited ${MAX_WAIT_MS.cheap} ms for the database, the longest a cheap query waits. Send the request again in 2 s.` });
    await time.advance(MAX_WAIT_MS.heavy - MAX_WAIT_MS.cheap);
    const refusedHeavy = (await waited[1]) as StoreUnavailable;
    expect(refusedHeavy).toBeInstanceOf(StoreUnavailable);
    expect(refusedHeavy.message).toBe(
      `The server is busy: this query waited ${MAX_WAIT_MS.heavy} ms for the database, the longest a heavy query waits. This query is a heavy one (cost 500, where a query of cost 40 or less is cheap and is not held up by heavy ones): send the request again in 7 s, or make it cheaper (fewer patterns on child arrays, fewer sort keys, a smaller limit).`,
    );
    expect(refusedHeavy.retryAfterSeconds).toBe(7);
    expect(started).toEqual(['running']);
    running!.release();
    await first;
  });

  it('answers work that ran past the statement timeout: a heavy query is told to make itself cheaper, a cheap one only that the database is busy', async () => {
    const queue = new StoreQueue({ concurrency: 1, statementTimeoutMs: 300 });
    const canceled = () => Promise.reject(Object.assign(new Error('canceling statement due to statement timeout'), { code: QUERY_CANCELED }));
    const cheap = await queue.run(3, canceled).catch((error: unknown) => error);
    expect(cheap).toBeInstanceOf(StoreUnavailable);
    expect(cheap).toMatchObject({ message: 'This query ran past the statement timeout (300 ms, STATEMENT_TIMEOUT_MS). The database is busy: send the request again in 2 s.', retryAfterSeconds: 2 });
    expect((cheap as Error).cause).toMatchObject({ code: QUERY_CANCELED });
    const heavy = await queue.run(1508, canceled).catch((error: unknown) => error);
    expect(heavy).toMatchObject({
      message:
        'This query ran past the statement timeout (300 ms, STATEMENT_TIMEOUT_MS). This query is a heavy one (cost 1508, where a query of cost 40 or less is cheap and is not held up by heavy ones): send the request again in 7 s, or make it cheaper (fewer patterns on child arrays, fewer sort keys, a smaller limit).',
      retryAfterSeconds: 7,
    });
    // Any other failure passes as it is.
    const other = new Error('division by zero');
    await expect(queue.run(3, () => Promise.reject(other))).rejects.toBe(other);
    await expect(queue.run(3, async () => 'after')).resolves.toBe('after');
  });

  it('answers at once work whose failure took the database down, and starts nothing else until it is back', async () => {
    const queue = new StoreQueue({ concurrency: 1, statementTimeoutMs: 300 });
    let back!: () => void;
    const recovered = new Promise<void>((resolve) => (back = resolve));
    const started: string[] = [];
    const next = heldTask('next', started);
    const failed = queue.run(3, () => Promise.reject(Object.assign(new Error('The query ran past the statement timeout (300 ms).'), { code: QUERY_CANCELED, recovered })));
    const after = queue.run(3, next.task);
    await expect(failed).rejects.toBeInstanceOf(StoreUnavailable);
    await settle();
    expect(started).toEqual([]);
    expect(queue.waiting.cheap).toBe(1);
    back();
    await settle();
    expect(started).toEqual(['next']);
    next.release();
    await after;
  });

  it('holds its bounds whatever comes (property): no more running than its room, one heavy at a time, no lane past its length, each lane in order', async () => {
    const time = virtualTime();
    const step = fc.oneof(
      fc.record({ kind: fc.constant('cheap' as const) }),
      fc.record({ kind: fc.constant('heavy' as const) }),
      fc.record({ kind: fc.constant('finish' as const), which: fc.nat() }),
      fc.record({ kind: fc.constant('fail' as const), which: fc.nat() }),
      fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 1, max: 3000 }) }),
    );
    const settings = fc.record({ concurrency: fc.integer({ min: 1, max: 3 }), cheap: fc.integer({ min: 0, max: 3 }), heavy: fc.integer({ min: 0, max: 2 }) });
    await fc.assert(
      fc.asyncProperty(settings, fc.array(step, { maxLength: 40 }), async ({ concurrency, cheap, heavy }, steps) => {
        const queue = new StoreQueue({ concurrency, length: { cheap, heavy }, statementTimeoutMs: 2000, now: time.now });
        const started: string[] = [];
        const running: { name: string; task: ReturnType<typeof heldTask> }[] = [];
        const outcome = new Map<string, 'done' | 'failed' | 'full' | 'waited'>();
        const submitted = { cheap: [] as string[], heavy: [] as string[] };
        let n = 0;
        for (const s of steps) {
          if (s.kind === 'cheap' || s.kind === 'heavy') {
            const name = `${s.kind}${n++}`;
            const task = heldTask(name, started);
            submitted[s.kind].push(name);
            const wasFull = queue.waiting[s.kind] >= (s.kind === 'cheap' ? cheap : heavy);
            void queue
              .run(s.kind === 'heavy' ? HEAVY_COST + 1 : 1, () => {
                running.push({ name, task });
                return task.task();
              })
              .then(
                () => outcome.set(name, 'done'),
                (error: unknown) =>
                  outcome.set(name, error instanceof StoreUnavailable ? (/waited/.test(error.message) ? 'waited' : 'full') : 'failed'),
              );
            await settle();
            // Refused at once only when its lane was full, and then unless it could start at once.
            if (outcome.get(name) === 'full') expect(wasFull).toBe(true);
            if (wasFull) expect(outcome.get(name) === 'full' || started.includes(name)).toBe(true);
          } else if (s.kind === 'finish' || s.kind === 'fail') {
            const [done] = running.splice(s.which % Math.max(1, running.length), 1);
            if (done !== undefined) {
              if (s.kind === 'finish') done.task.release();
              else done.task.fail(new Error('no'));
            }
            await settle();
          } else {
            await time.advance(s.ms);
          }
          const heavyRunning = running.filter((r) => r.name.startsWith('heavy')).length;
          expect(running.length).toBeLessThanOrEqual(concurrency);
          expect(heavyRunning).toBeLessThanOrEqual(1);
          expect(queue.waiting.cheap).toBeLessThanOrEqual(cheap);
          expect(queue.waiting.heavy).toBeLessThanOrEqual(heavy);
          // Each lane starts its work in the order it came (work refused never starts).
          for (const lane of ['cheap', 'heavy'] as const) {
            const startedHere = started.filter((name) => name.startsWith(lane));
            expect(startedHere).toEqual(submitted[lane].filter((name) => startedHere.includes(name)));
          }
          for (const [name, how] of outcome) if (how === 'full' || how === 'waited') expect(started).not.toContain(name);
        }
        for (const r of running) r.task.release();
        await time.advance(60_000);
      }),
      { numRuns: 200 },
    );
  });
});

/**
 * A database whose every query waits until the test lets it answer (one row, so that a
 * find asks no more): what the store runs and when is the test's to decide, over real HTTP.
 */
class HeldDatabase implements SqlClient {
  readonly queries: { readonly text: string; answer(): void; fail(error: Error): void }[] = [];

  query<Row>(text: string): Promise<{ rows: Row[] }> {
    return new Promise((resolve, reject) => {
      this.queries.push({ text, answer: () => resolve({ rows: [{ body: { id: 'x' }, total: 1 }] as Row[] }), fail: reject });
    });
  }
}

/** Polls until `ready` holds (the server has reached the state the test needs). */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('the example server sheds load over HTTP', () => {
  let app: FastifyInstance;
  let base: string;
  let db: HeldDatabase;
  let queue: StoreQueue;

  async function serve(options: ConstructorParameters<typeof StoreQueue>[0]): Promise<void> {
    db = new HeldDatabase();
    queue = new StoreQueue(options);
    app = buildApp({ store: new PostgresStore(db, { queue }), logStream: { write: () => true } });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  }
  afterEach(() => app?.close());

  /** GETs `path`, and on its answer logs `name status` to `order`; resolves with the answer and its body. */
  async function get(path: string, name: string, order: string[]) {
    const response = await fetch(`${base}${path}`);
    const body = (await response.json()) as Record<string, unknown>;
    order.push(`${name} ${response.status}`);
    return { response, body };
  }

  function expect503(answer: { response: Response; body: Record<string, unknown> }, retryAfter: number): string {
    expect(answer.response.status).toBe(503);
    expect(answer.response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(answer.response.headers.get('retry-after')).toBe(String(retryAfter));
    expect(answer.body).toMatchObject({ type: 'about:blank', title: 'Service Unavailable', status: 503 });
    return answer.body.detail as string;
  }

  it('answers at once with a 503 when the queue is full, and the waiting ones after, in order', async () => {
    await serve({ concurrency: 1, length: { cheap: 2, heavy: 1 }, statementTimeoutMs: 2000 });
    const order: string[] = [];
    const first = get(CHEAP, 'r1', order);
    await until(() => db.queries.length === 1);
    const waiting = [get(CHEAP, 'r2', order), get(CHEAP, 'r3', order)];
    await until(() => queue.waiting.cheap === 2);
    const refused = await get(CHEAP, 'r4', order);
    expect(expect503(refused, 2)).toBe('The server is busy: 2 queries are waiting for the database already. Send the request again in 2 s.');
    expect(refused.body.instance).toBe('/vendors');
    for (let i = 0; i < 3; i++) {
      await until(() => db.queries.length === i + 1);
      db.queries[i]!.answer();
    }
    await Promise.all([first, ...waiting]);
    expect(order).toEqual(['r4 503', 'r1 200', 'r2 200', 'r3 200']);
  });

  it('sheds heavy queries past their lane while cheap ones pass, telling only the heavy to make themselves cheaper', async () => {
    await serve({ concurrency: 2, length: { cheap: 4, heavy: 1 }, statementTimeoutMs: 2000 });
    const order: string[] = [];
    const h1 = get(HEAVY_REQUEST, 'h1', order);
    await until(() => db.queries.length === 1);
    const h2 = get(HEAVY_REQUEST, 'h2', order);
    await until(() => queue.waiting.heavy === 1);
    const detail = expect503(await get(HEAVY_REQUEST, 'h3', order), 7);
    expect(detail).toMatch(/^The server is busy: heavy queries run one at a time, and 1 are waiting already\. This query is a heavy one \(cost \d+, where a query of cost 40 or less is cheap/);
    expect(detail).toContain('make it cheaper');
    // A cheap query takes the other connection while the heavy one still runs.
    const cheap = get(CHEAP, 'c', order);
    await until(() => db.queries.length === 2);
    db.queries[1]!.answer();
    await cheap;
    db.queries[0]!.answer();
    await h1;
    await until(() => db.queries.length === 3);
    db.queries[2]!.answer();
    await h2;
    expect(order).toEqual(['h3 503', 'c 200', 'h1 200', 'h2 200']);
  });

  it('answers a query that waited its longest with a 503 that says so', async () => {
    await serve({ concurrency: 1, statementTimeoutMs: 2000 });
    const order: string[] = [];
    const first = get(CHEAP, 'r1', order);
    await until(() => db.queries.length === 1);
    const waited = await get(CHEAP, 'r2', order);
    expect(expect503(waited, 2)).toBe(`The server is busy: this query waited ${MAX_WAIT_MS.cheap} ms for the database, the longest a cheap query waits. Send the request again in 2 s.`);
    db.queries[0]!.answer();
    await first;
    expect(order).toEqual(['r2 503', 'r1 200']);
  });

  it('answers a query past the statement timeout with a 503 whose detail fits the query', async () => {
    await serve({ concurrency: 2, statementTimeoutMs: 300 });
    const canceled = () => Object.assign(new Error('canceling statement due to statement timeout'), { code: QUERY_CANCELED });
    const order: string[] = [];
    const cheap = get(CHEAP, 'c', order);
    const heavy = get(HEAVY_REQUEST, 'h', order);
    await until(() => db.queries.length === 2);
    for (const q of db.queries) q.fail(canceled());
    const cheapDetail = expect503(await cheap, 2);
    expect(cheapDetail).toBe('This query ran past the statement timeout (300 ms, STATEMENT_TIMEOUT_MS). The database is busy: send the request again in 2 s.');
    expect(cheapDetail).not.toMatch(/cheaper|fewer|narrow/);
    expect(expect503(await heavy, 7)).toMatch(/^This query ran past the statement timeout \(300 ms, STATEMENT_TIMEOUT_MS\)\. This query is a heavy one \(cost \d+.*make it cheaper \(fewer patterns on child arrays/);
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
  });
});

describe('the example server on PGlite under heavy queries', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('pglite');
  });
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

  it('answers a flood of heavy queries with 200s and 503 problems with Retry-After, and never tells a cheap query to make itself cheaper', async () => {
    const answers = await Promise.all([
      ...Array.from({ length: 16 }, () => server.request(HEAVY_REQUEST).then(async (r) => ({ kind: 'heavy', response: r, body: await r.text() }))),
      ...Array.from({ length: 4 }, () => server.request(CHEAP).then(async (r) => ({ kind: 'cheap', response: r, body: await r.text() }))),
    ]);
    for (const { kind, response, body } of answers) {
      if (response.status === 200) continue;
      expect(response.status, body).toBe(503);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(response.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      const { detail } = JSON.parse(body) as { detail: string };
      if (kind === 'cheap') expect(detail).not.toMatch(/cheaper|fewer|narrow/);
      else expect(detail).toContain('This query is a heavy one');
    }
    // At most one running and HEAVY_QUEUE_LENGTH waiting when the flood came: the rest was shed.
    expect(answers.filter((a) => a.kind === 'heavy' && a.response.status === 503).length).toBeGreaterThan(0);
  });
});

describe('the statement timeout on PGlite', () => {
  let server: TestServer;
  beforeAll(async () => {
    // 1 ms: every query of the requests runs past it (the sample data loads without it).
    server = await startServer('pglite', { statementTimeoutMs: 1 });
  });
  afterAll(() => server?.close());

  it('answers a query that runs past it with a 503 problem that tells a heavy query, and only a heavy one, to make itself cheaper', async () => {
    // The cheap one first: the heavy one then waits while PGlite's thread starts again, and runs past the timeout in its turn
    // (or, on a machine where the restart takes over 7 s, is refused for waiting that long: told the same about itself).
    const cheap = await server.request(CHEAP);
    expect(cheap.status).toBe(503);
    expect(cheap.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(cheap.headers.get('retry-after')).toBe('2');
    expect(await cheap.json()).toMatchObject({ title: 'Service Unavailable', instance: '/vendors', detail: 'This query ran past the statement timeout (1 ms, STATEMENT_TIMEOUT_MS). The database is busy: send the request again in 2 s.' });
    const heavy = await server.request(HEAVY_REQUEST);
    expect(heavy.status).toBe(503);
    expect(heavy.headers.get('retry-after')).toBe('7');
    expect(await heavy.json()).toMatchObject({
      instance: '/invoices',
      detail: expect.stringMatching(/^(This query ran past the statement timeout \(1 ms, STATEMENT_TIMEOUT_MS\)|The server is busy: this query waited 7000 ms for the database, the longest a heavy query waits)\. This query is a heavy one .*make it cheaper/),
    });
  });
});

describe('closing', () => {
  it('answers a request that comes while the server closes with a 503 problem, and finishes the one in flight', async () => {
    const { store, inFind, release } = heldStore();
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
