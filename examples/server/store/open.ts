import pg from 'pg';
import { detectCaseFolding, type CaseFolding } from 'qsfilter';
import type { Resource } from '../resources';
import { HeavyGate } from './gate';
import { MemoryStore } from './memory';
import { PostgresStore, type SqlClient } from './postgres';
import type { Item, Store } from './store';
import { WorkerDatabase } from './worker';

/** `STATEMENT_TIMEOUT_MS` when unset: a query running longer is a 503. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 2000;

/** An open store, what to call it in the start-up banner, and how to close it. */
export interface OpenStore {
  readonly store: Store;
  readonly description: string;
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
  if (settings.databaseUrl !== undefined && settings.databaseUrl !== '') {
    // JIT compiling the document target's expressions costs seconds on a large table
    // and saves nothing (README, "Postgres versions"): off for this pool's sessions.
    // The server cancels a statement past the timeout itself.
    const pool = new pg.Pool({ connectionString: settings.databaseUrl, options: `-c jit=off -c statement_timeout=${timeout}` });
    try {
      const { store, version, caseFolding } = await filled(pool, data, false);
      const description = `Postgres ${version} at ${redact(settings.databaseUrl)}, case folding ${caseFolding}, filtered by toSql()`;
      return { store, description, close: () => pool.end() };
    } catch (error) {
      await pool.end();
      throw error;
    }
  }
  const db = await WorkerDatabase.open();
  try {
    const { store, version, caseFolding } = await filled(db, data, true);
    db.statementTimeoutMs = timeout;
    return { store, description: `embedded PGlite (Postgres ${version} in a worker thread), case folding ${caseFolding}, filtered by toSql()`, close: () => db.close() };
  } catch (error) {
    await db.close();
    throw error;
  }
}

/**
 * A Postgres store with its table, and the sample data if the table is empty (always,
 * for a fresh database); and the server's version and case folding, to print.
 */
export async function filled(
  db: SqlClient,
  data: Readonly<Partial<Record<Resource, readonly Item[]>>>,
  fresh: boolean,
): Promise<{ store: PostgresStore; version: string; caseFolding: CaseFolding }> {
  const caseFolding = await detectCaseFolding(db);
  const store = new PostgresStore(db, { caseFolding, gate: new HeavyGate() });
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
