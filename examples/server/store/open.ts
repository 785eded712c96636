import pg from 'pg';
import { detectCaseFolding, type CaseFolding } from 'qsfilter';
import type { Resource } from '../resources';
import { MemoryStore } from './memory';
import { PostgresStore, type SqlClient } from './postgres';
import { DEFAULT_QUEUE_LENGTH, MAX_WAIT_MS, StoreQueue } from './queue';
import type { Item, Store } from './store';
import { WorkerDatabase } from './worker';

/** `STATEMENT_TIMEOUT_MS` when unset: a query running longer is a 503. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 2000;

/** How many connections the pool to a Postgres server holds, and so how many queries the store runs on it at once. */
const POOL_SIZE = 10;

/** An open store, what to call it in the start-up banner, and how to close it. */
export interface OpenStore {
  readonly store: Store;
  readonly description: string;
  /**
   * How long an answer may take, its store work included (a heavy query's longest wait,
   * its statement timeout, and a second for the rest): the app's handler timeout. None for
   * the memory store, whose work runs in the request itself.
   */
  readonly answerTimeoutMs?: number;
  close(): Promise<void>;
}

/** Which store to open: `STORE=memory`, a Postgres server (`DATABASE_URL`), or by default an embedded PGlite. */
export interface StoreSettings {
  readonly store?: string | undefined;
  readonly databaseUrl?: string | undefined;
  /**
   * How long one query may run in a database store (`STATEMENT_TIMEOUT_MS`; 2000 by
   * default): past it, it fails with SQLSTATE 57014, which the app answers with a 503.
   * The memory store has no database: its filters run in the request, bounded by the
   * query's limits.
   */
  readonly statementTimeoutMs?: number | undefined;
  /**
   * How many pieces of work may wait for a database store, in each lane of its queue
   * (`QUEUE_LENGTH`, `HEAVY_QUEUE_LENGTH`; 64 and 5 by default): see `StoreQueue`.
   */
  readonly queueLength?: { readonly cheap: number; readonly heavy: number } | undefined;
}

/**
 * Opens the store the settings name, with the sample data in it. A Postgres server
 * keeps what it has: the sample data is loaded only into an empty table. Which case
 * folding the database has is asked once, here. Whether to fold case is not the store's
 * to know: each filter says so (the server sets it once, on its adapter).
 */
export async function openStore(settings: StoreSettings, data: Readonly<Record<Resource, readonly Item[]>>): Promise<OpenStore> {
  if (settings.store === 'memory') {
    return { store: new MemoryStore(data), description: 'in memory, filtered by compile()', close: async () => {} };
  }
  const timeout = settings.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const queue = (concurrency: number) => new StoreQueue({ concurrency, statementTimeoutMs: timeout, length: settings.queueLength ?? DEFAULT_QUEUE_LENGTH });
  const answerTimeoutMs = MAX_WAIT_MS.heavy + timeout + 1000;
  if (settings.databaseUrl !== undefined && settings.databaseUrl !== '') {
    // JIT compiling the document target's expressions costs seconds on a large table
    // and saves nothing (README, "Postgres versions"): off for this pool's sessions.
    // The server cancels a statement past the timeout itself.
    const pool = new pg.Pool({ connectionString: settings.databaseUrl, max: POOL_SIZE, options: `-c jit=off -c statement_timeout=${timeout}` });
    try {
      const { store, version, caseFolding } = await filled(pool, data, false, queue(POOL_SIZE));
      const description = `Postgres ${version} at ${redact(settings.databaseUrl)}, case folding ${caseFolding}, filtered by toSql()`;
      return { store, description, answerTimeoutMs, close: () => pool.end() };
    } catch (error) {
      await pool.end();
      throw error;
    }
  }
  const db = await WorkerDatabase.open();
  try {
    // One at a time, as PGlite runs them: all the waiting is done in the queue, under its bounds.
    const { store, version, caseFolding } = await filled(db, data, true, queue(1));
    db.statementTimeoutMs = timeout;
    return {
      store,
      description: `embedded PGlite (Postgres ${version} in a worker thread), case folding ${caseFolding}, filtered by toSql()`,
      answerTimeoutMs,
      close: () => db.close(),
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}

/**
 * A Postgres store with its table, its work waiting in `queue`, and the sample data if
 * the table is empty (always, for a fresh database); and the server's version and case
 * folding, to print.
 */
export async function filled(
  db: SqlClient,
  data: Readonly<Partial<Record<Resource, readonly Item[]>>>,
  fresh: boolean,
  queue: StoreQueue,
): Promise<{ store: PostgresStore; version: string; caseFolding: CaseFolding }> {
  const caseFolding = await detectCaseFolding(db);
  const store = new PostgresStore(db, { caseFolding, queue });
  await store.migrate();
  if (fresh || (await store.size()) === 0) await store.load(data);
  const { rows } = await db.query<{ version: string }>(`SELECT current_setting('server_version') AS version`);
  return { store, version: rows[0]!.version.replace(/ .*/, ''), caseFolding };
}

/** A connection string without its password, for printing. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'DATABASE_URL';
  }
}
