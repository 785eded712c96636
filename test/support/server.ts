import type { ProblemDetails } from '../../src/index';
import { buildApp } from '../../examples/server/app';
import { sampleData } from '../../examples/server/data/sample';
import { openStore } from '../../examples/server/store/open';
import { SERVER } from './databases';

export { quotedOperand } from './operand';

/** A running example server on an ephemeral port, over fresh sample data. */
export interface TestServer {
  readonly base: string;
  /** `fetch` of a path as written (already percent-encoded: it is sent as is). */
  request(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** Which store a test server keeps its data in: memory, an embedded PGlite, or the Postgres server of a URL. */
export type StoreKind = 'memory' | 'pglite' | { readonly databaseUrl: string };

/** A place a test server can keep its data: `open` makes one (a database of its own, on a server), `close` drops it. */
export interface StorePlace {
  /** `the memory store`, `the Postgres store in PGlite`, `the Postgres store on the PostgreSQL 15.18 server`. */
  readonly label: string;
  open(): Promise<{ kind: StoreKind; close(): Promise<void> }>;
}

/** The Postgres stores: in an embedded PGlite, and by URL (as `DATABASE_URL` gives it) in a database of its own on the main server. */
export const DATABASE_STORES: readonly StorePlace[] = [
  { label: 'the Postgres store in PGlite', open: async () => ({ kind: 'pglite', close: async () => {} }) },
  {
    label: `the Postgres store on the ${SERVER.label}`,
    open: async () => {
      const db = await SERVER.open();
      return { kind: { databaseUrl: db.url! }, close: () => db.close() };
    },
  },
];

/** Every store of the example: memory, then the Postgres ones. */
export const STORES: readonly StorePlace[] = [{ label: 'the memory store', open: async () => ({ kind: 'memory', close: async () => {} }) }, ...DATABASE_STORES];

/** Options of `startServer`. */
export interface TestServerOptions {
  /** Where log lines go; nowhere by default. */
  readonly logStream?: { write(line: string): unknown };
  /** The server's case choice (`buildApp`'s, which `CASE_SENSITIVE=1` turns off); true by default, as `main.ts`. */
  readonly caseInsensitive?: boolean;
  /** The database stores' statement timeout (`STATEMENT_TIMEOUT_MS`); 2000 by default. */
  readonly statementTimeoutMs?: number;
}

/**
 * Starts the example API the way `main.ts` does (case-insensitive text unless told
 * otherwise), on port 0, over the memory store, the Postgres store in an embedded
 * PGlite, or the Postgres store on a server (a database of its own: see
 * test/support/databases.ts).
 */
export async function startServer(kind: StoreKind = 'memory', options: TestServerOptions = {}): Promise<TestServer> {
  const place = kind === 'memory' ? { store: 'memory' } : kind === 'pglite' ? {} : { databaseUrl: kind.databaseUrl };
  const settings = { ...place, statementTimeoutMs: options.statementTimeoutMs };
  const opened = await openStore(settings, sampleData());
  const app = buildApp({
    store: opened.store,
    ...(opened.answerTimeoutMs === undefined ? {} : { answerTimeoutMs: opened.answerTimeoutMs }),
    logStream: options.logStream ?? { write: () => true },
    ...(options.caseInsensitive === undefined ? {} : { caseInsensitive: options.caseInsensitive }),
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    base: address,
    request: (path, init) => fetch(`${address}${path}`, init),
    close: async () => {
      await app.close();
      await opened.close();
    },
  };
}

/** A page of a collection, as the server answers it. */
export interface Page<T> {
  data: T[];
  pagination: { offset: number; limit: number; count: number };
}

/** GETs a path that must succeed, and returns its page. */
export async function getPage<T = Record<string, unknown>>(server: TestServer, path: string): Promise<Page<T>> {
  const response = await server.request(path);
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Page<T>;
}

/** GETs a path that must fail with a problem, checking the media type; returns the status and body. */
export async function getProblem(server: TestServer, path: string, init?: RequestInit): Promise<{ status: number; body: ProblemDetails & Record<string, unknown> }> {
  const response = await server.request(path, init);
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('application/problem+json')) throw new Error(`${path}: ${response.status} with ${type}: ${await response.text()}`);
  return { status: response.status, body: (await response.json()) as ProblemDetails & Record<string, unknown> };
}

