/**
 * Starts the example API with its sample data: `npm start` (which builds the package
 * first, in `prestart`: this example imports `qsfilter` as its users do, through the
 * package's `exports`, i.e. from `dist/`, and runs in one Node process with tsx loaded).
 *
 * Environment: PORT (default 3000), HOST (default localhost), CASE_SENSITIVE=1 to
 * compare text case-sensitively (the default here is case-insensitive: the API
 * document's own example, vendorName=%25acme%25, is meant to find "Acme & Sons"),
 * LOG=1 for Fastify's request log. The data lives in an embedded PGlite by default,
 * in the Postgres server of DATABASE_URL when it is set, or in memory with
 * STORE=memory. STATEMENT_TIMEOUT_MS (default 2000): a database query that runs longer
 * is answered with a 503 problem. QUEUE_LENGTH and HEAVY_QUEUE_LENGTH (default 64 and 5):
 * how many queries may wait for a database store, cheap and heavy; past them, a query is
 * answered at once with a 503 problem (see store/queue.ts).
 */
import type { AddressInfo } from 'node:net';
import { buildPlayground } from '../playground/build';
import { buildApp } from './app';
import { sampleData } from './data/sample';
import { EXAMPLE_REQUESTS } from './examples';
import { DEFAULT_STATEMENT_TIMEOUT_MS, openStore } from './store/open';
import { DEFAULT_QUEUE_LENGTH } from './store/queue';

const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, not ${JSON.stringify(process.env.PORT)}.`);
  process.exit(2);
}
const host = process.env.HOST ?? 'localhost';
const caseInsensitive = process.env.CASE_SENSITIVE !== '1';
const statementTimeoutMs = wholeNumber('STATEMENT_TIMEOUT_MS', DEFAULT_STATEMENT_TIMEOUT_MS, 1, 'milliseconds');
const queueLength = { cheap: wholeNumber('QUEUE_LENGTH', DEFAULT_QUEUE_LENGTH.cheap, 0, 'queries'), heavy: wholeNumber('HEAVY_QUEUE_LENGTH', DEFAULT_QUEUE_LENGTH.heavy, 0, 'queries') };

const data = sampleData();
const opened = await openStore({ store: process.env.STORE, databaseUrl: process.env.DATABASE_URL, statementTimeoutMs, queueLength }, data);
const app = buildApp({
  store: opened.store,
  logger: process.env.LOG === '1',
  caseInsensitive,
  playground: await buildPlayground(),
  ...(opened.answerTimeoutMs === undefined ? {} : { answerTimeoutMs: opened.answerTimeoutMs }),
});
try {
  await app.listen({ port, host });
} catch (error) {
  const problem = listenProblem(error);
  if (problem === undefined) throw error;
  await opened.close();
  console.error(problem);
  process.exit(1);
}

// Stopped by a signal, the server closes: no new connections, requests in flight
// answered, the store closed. npm start execs this process, so that `kill <pid>` of
// what npm started reaches it (a shell in between would die and leave it running).
// A signal can come twice (Ctrl-C reaches npm and this process, and npm passes it on):
// the first one closes, the others wait for it.
let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app
      .close()
      .then(() => opened.close())
      .then(
        () => {
          console.log(`Stopped (${signal}).`);
          process.exit(0);
        },
        (error: unknown) => {
          console.error('The server did not close cleanly:', error);
          process.exit(1);
        },
      );
  });
}

// PORT=0 takes any free port: print the one the server has.
const base = `http://${host}:${(app.server.address() as AddressInfo).port}`;
const rows = Object.values(data).reduce((n, items) => n + items.length, 0);
console.log(`Example financial-data API on ${base}: ${rows} sample rows, text compared case-${caseInsensitive ? 'in' : ''}sensitively.`);
console.log(`Data: ${opened.description}.`);
console.log(`Playground: ${base}/`);
console.log(`OpenAPI document: ${base}/openapi.json`);
console.log('Try:');
for (const { path, note } of EXAMPLE_REQUESTS) console.log(`  curl -s '${base}${path}'\n      # ${note}`);

/** The whole number of environment variable `name` (`fallback` when unset); exit status 2, saying why, when it is not one of at least `min`. */
function wholeNumber(name: string, fallback: number, min: number, unit: string): number {
  const text = process.env[name];
  const value = Number(text ?? fallback);
  if (Number.isInteger(value) && value >= min && text?.trim() !== '') return value;
  console.error(`${name} must be a whole number of ${unit}, at least ${min}, not ${JSON.stringify(text)}.`);
  process.exit(2);
}

/** One line for the listen errors a user can fix with PORT or HOST; `undefined` for a bug. */
function listenProblem(error: unknown): string | undefined {
  switch ((error as NodeJS.ErrnoException | undefined)?.code) {
    case 'EADDRINUSE':
      return `Port ${port} on ${host} is already in use: stop what is using it, or start on another port (PORT=${port === 3000 ? 3001 : 3000} npm start).`;
    case 'EACCES':
      return `Port ${port} on ${host} needs privileges: start on a port above 1023 (PORT=3000 npm start).`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return `HOST=${host} is not an address of this machine: use localhost, 127.0.0.1 or 0.0.0.0.`;
    default:
      return undefined;
  }
}
