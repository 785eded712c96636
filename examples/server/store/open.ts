import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Resource } from '../resources';
import { MemoryStore } from './memory';
import { PostgresStore, type SqlClient } from './postgres';
import type { Item, Store } from './store';

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
  readonly caseInsensitive: boolean;
}

/**
 * Opens the store the settings name, with the sample data in it. A Postgres server
 * keeps what it has: the sample data is loaded only into an empty table.
 */
export async function openStore(settings: StoreSettings, data: Readonly<Record<Resource, readonly Item[]>>): Promise<OpenStore> {
  const { caseInsensitive } = settings;
  if (settings.store === 'memory') {
    return { store: new MemoryStore(data, { caseInsensitive }), description: 'in memory, filtered by compile()', close: async () => {} };
  }
  if (settings.databaseUrl !== undefined && settings.databaseUrl !== '') {
    const pool = new pg.Pool({ connectionString: settings.databaseUrl });
    const store = await filled(pool, data, caseInsensitive, false);
    return { store, description: `Postgres at ${redact(settings.databaseUrl)}, filtered by toSql()`, close: () => pool.end() };
  }
  const db = new PGlite();
  const store = await filled(db, data, caseInsensitive, true);
  return { store, description: 'embedded PGlite (Postgres in process), filtered by toSql()', close: () => db.close() };
}

/** A Postgres store with its table, and the sample data if the table is empty (always, for a fresh database). */
export async function filled(
  db: SqlClient,
  data: Readonly<Partial<Record<Resource, readonly Item[]>>>,
  caseInsensitive: boolean,
  fresh: boolean,
): Promise<PostgresStore> {
  const store = new PostgresStore(db, { caseInsensitive });
  await store.migrate();
  if (fresh || (await store.size()) === 0) await store.load(data);
  return store;
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
