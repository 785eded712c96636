import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { shortVersion, type ProvidedServer } from './postgres-server';

/**
 * The Postgres servers the SQL suites run on: PGlite in process, the main real server
 * (npm's Postgres 15, started by `postgres-server.ts`, or the one `DATABASE_URL` names), and the
 * other supported majors from npm. A suite runs `describe.each(SERVERS)('… on $label', …)`
 * and opens a fresh database in `beforeAll`.
 */

/** One fresh database, on either kind of server. */
export interface Database {
  readonly label: string;
  /** A connection string to this database (real server only), for code that opens its own pool. */
  readonly url: string | undefined;
  /** The PGlite instance itself (PGlite only), for code that takes one. */
  readonly pglite: PGlite | undefined;
  query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: Row[] }>;
  /** Runs statements without parameters, several at once. */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

/** How to make a test database. */
export interface OpenOptions {
  /** The database's encoding (real server only; PGlite's is UTF8). */
  readonly encoding?: 'UTF8' | 'SQL_ASCII';
  /**
   * Whether the server may compile expressions with JIT (its default, where built with
   * LLVM, as Debian's is). Suites that run a hundred filters in one statement turn it off:
   * compiling such a statement takes minutes, and JIT changes no result.
   */
  readonly jit?: boolean;
}

/** Where a suite can open databases. */
export interface DatabaseServer {
  /** What names it in test titles: `PGlite (PostgreSQL 18.6)`, `PostgreSQL 15.18 server`; no two servers share one. */
  readonly label: string;
  readonly kind: 'pglite' | 'server';
  /** `server_version_num`: 150018. */
  readonly version: number;
  open(options?: OpenOptions): Promise<Database>;
}

const provided = inject('postgres');

export const PGLITE: DatabaseServer = {
  label: `PGlite (${shortVersion(provided.pglite.server)})`,
  kind: 'pglite',
  version: provided.pglite.versionNum,
  async open() {
    const db = await PGlite.create();
    return {
      label: PGLITE.label,
      url: undefined,
      pglite: db,
      query: (text, values) => db.query(text, values),
      exec: async (sql) => {
        await db.exec(sql);
      },
      close: () => db.close(),
    };
  },
};

/** A real server. */
function realServer(server: ProvidedServer): DatabaseServer {
  const self: DatabaseServer = {
    label: server.label,
    kind: 'server',
    version: server.versionNum,
    async open({ encoding = 'UTF8', jit = true } = {}) {
      const name = `qsfilter_test_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: server.url });
      await admin.connect();
      // template0: a database of this encoding whatever the server's default is (SQL_ASCII needs the C locale).
      const locale = encoding === 'UTF8' ? '' : ` LC_COLLATE 'C' LC_CTYPE 'C'`;
      await admin.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING '${encoding}'${locale}`);
      if (!jit) await admin.query(`ALTER DATABASE ${name} SET jit = off`);
      const url = withDatabase(server.url, name);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return {
        label: self.label,
        url,
        pglite: undefined,
        query: async <Row>(text: string, values?: unknown[]) => (await client.query(text, values)) as unknown as { rows: Row[] },
        exec: async (sql) => {
          await client.query(sql);
        },
        close: async () => {
          await client.end();
          // A pool that was just ended may still be closing its connections: wait for them
          // (a forced drop would fail them, in a process that stopped listening to them).
          for (let wait = 0; wait < 50; wait++) {
            const { rows } = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
            if (rows[0]!.n === 0) break;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await admin.end();
        },
      };
    },
  };
  return self;
}

/** The main real server: npm's Postgres 15, or `DATABASE_URL`'s. */
export const SERVER: DatabaseServer = realServer(provided);

/** The other supported majors, from npm, oldest first. */
export const MAJORS: readonly DatabaseServer[] = provided.majors.map(realServer);

/** Every server, PGlite first, then the real ones oldest first. */
export const SERVERS: readonly DatabaseServer[] = [PGLITE, ...[SERVER, ...MAJORS].sort((a, b) => a.version - b.version)];

/** Every real server, oldest first. */
export const REAL_SERVERS: readonly DatabaseServer[] = SERVERS.filter((server) => server.kind === 'server');

/** The connection string with another database name. */
function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * A fresh database for the tests of the enclosing suite: opened before them (then
 * `setup` runs, with it), closed after them. Call it in a `describe` body.
 */
export function useDatabase(server: DatabaseServer, options: OpenOptions, setup: (db: Database) => Promise<void>): void {
  let db: Database | undefined;
  beforeAll(async () => {
    db = await server.open(options);
    await setup(db);
  });
  afterAll(async () => {
    await db?.close();
  });
}
