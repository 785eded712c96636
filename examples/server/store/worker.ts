import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SqlClient } from './postgres';

/** Postgres's SQLSTATE for a statement cancelled by `statement_timeout` (query_canceled): the app answers it with a 503. */
export const QUERY_CANCELED = '57014';

/** One query waiting for the database thread, or running in it. */
interface Job {
  readonly text: string;
  readonly values: unknown[] | undefined;
  resolve(rows: unknown[]): void;
  reject(error: Error): void;
}

/**
 * The embedded PGlite in a worker thread, as a `SqlClient`: PGlite runs Postgres on the
 * thread that calls it, and a slow query there would stop every other request, the cheap
 * 400s included (issue 26: 5 heavy clients cut ordinary throughput from 285 to 31
 * requests/s). Here the server's event loop only posts messages.
 *
 * Queries run one at a time, in order (PGlite has one session anyway), so that the
 * statement timeout counts a query's own running time, not its wait. PGlite has no
 * working `statement_timeout` (WASM has no timer signals; tried: `pg_sleep(1)` under a
 * 200 ms timeout sleeps the full second): a query that runs past `statementTimeoutMs`
 * fails with `QUERY_CANCELED`, and the thread is terminated and
 * started again on the same data directory, which Postgres recovers as after a crash
 * (the data is on disk, in a temporary directory removed on `close`, for this reason).
 * The query fails at once, its error carrying `recovered`, a promise of the new thread
 * being ready (a second or two later): the store's queue counts that time as the query's,
 * and starts no other work until then, so that what waits does so in the queue, under
 * its bounds. The queries waiting here meanwhile run on the new thread.
 */
export class WorkerDatabase implements SqlClient {
  /**
   * How long one query may run, in ms; none at first, so that loading the sample data is
   * never cut short on a slow machine: the store sets it once the data is in.
   */
  statementTimeoutMs = Infinity;
  readonly #dataDir: string;
  readonly #queue: Job[] = [];
  #worker: Worker | undefined;
  #running: Job | undefined;
  /** The statement timeout of the running query. */
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  /** Why a new thread could not start after a restart: every query fails with it from then on. */
  #broken: Error | undefined;

  private constructor(dataDir: string) {
    this.#dataDir = dataDir;
  }

  /** A fresh database in a new temporary directory, its thread started. */
  static async open(): Promise<WorkerDatabase> {
    const db = new WorkerDatabase(await mkdtemp(join(tmpdir(), 'qsfilter-example-')));
    await db.#start();
    return db;
  }

  query<Row>(text: string, values?: unknown[]): Promise<{ rows: Row[] }> {
    if (this.#closed) return Promise.reject(new Error('the database is closed'));
    if (this.#broken !== undefined) return Promise.reject(this.#broken);
    return new Promise((resolve, reject) => {
      this.#queue.push({ text, values, resolve: (rows) => resolve({ rows: rows as Row[] }), reject });
      this.#next();
    });
  }

  /** Closes the database and removes its directory; queries still waiting fail. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.reject(new Error('the database is closed'));
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker !== undefined) {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage({ close: true });
      await exited;
    }
    await rm(this.#dataDir, { recursive: true, force: true });
  }

  /** Starts the thread and waits until its database is open. */
  async #start(): Promise<void> {
    const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), { workerData: { dataDir: this.#dataDir } });
    await new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
    });
    if (this.#closed) {
      // Closed while this thread started (after a restart): nothing will use it.
      await worker.terminate();
      return;
    }
    // A terminated thread's last answer can still arrive: only the current thread's count.
    worker.on('message', (message: { rows?: unknown[]; error?: { message: string; code?: string } }) => {
      if (this.#worker === worker) this.#finish(message);
    });
    // A thread that dies on its own (out of memory): its query fails, and the next one gets a new thread.
    worker.on('error', (error) => this.#restart(worker, error));
    this.#worker = worker;
    this.#next();
  }

  #next(): void {
    if (this.#running !== undefined || this.#worker === undefined) return;
    const job = this.#queue.shift();
    if (job === undefined) return;
    this.#running = job;
    const worker = this.#worker;
    const limit = this.statementTimeoutMs;
    if (Number.isFinite(limit)) {
      this.#timer = setTimeout(() => {
        const error = Object.assign(new Error(`The query ran past the statement timeout (${limit} ms).`), { code: QUERY_CANCELED });
        this.#restart(worker, error);
      }, limit);
    }
    worker.postMessage({ text: job.text, values: job.values });
  }

  #finish(message: { rows?: unknown[]; error?: { message: string; code?: string } }): void {
    const job = this.#running;
    if (job === undefined) return;
    clearTimeout(this.#timer);
    this.#running = undefined;
    if (message.error !== undefined) job.reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
    else job.resolve(message.rows ?? []);
    this.#next();
  }

  /**
   * Fails the running query with `error`, its `recovered` set to when the database can
   * take queries again; ends `worker`, and starts a new thread on the same data.
   */
  #restart(worker: Worker, error: Error): void {
    if (this.#worker !== worker) return;
    clearTimeout(this.#timer);
    this.#worker = undefined;
    const recovered: Promise<void> = worker
      .terminate()
      .then(() => {
        if (!this.#closed) return this.#start();
      })
      .catch((failure: unknown) => {
        this.#broken = failure instanceof Error ? failure : new Error(String(failure));
        for (const job of this.#queue.splice(0)) job.reject(this.#broken);
      });
    this.#running?.reject(Object.assign(error, { recovered }));
    this.#running = undefined;
  }
}
