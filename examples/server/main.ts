/**
 * Starts the example API with its sample data: `npm start` (which builds the package
 * first: this example imports `qsfilter` as its users do, through the package's
 * `exports`, i.e. from `dist/`).
 *
 * Environment: PORT (default 3000), HOST (default localhost), CASE_SENSITIVE=1 to
 * compare text case-sensitively (the default here is case-insensitive: the API
 * document's own example, vendorName=%25acme%25, is meant to find "Acme & Sons"),
 * LOG=1 for Fastify's request log. The data lives in an embedded PGlite by default,
 * in the Postgres server of DATABASE_URL when it is set, or in memory with
 * STORE=memory.
 */
import { buildPlayground } from '../playground/build';
import { buildApp } from './app';
import { sampleData } from './data/sample';
import { EXAMPLE_REQUESTS } from './examples';
import { openStore } from './store/open';

const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, not ${JSON.stringify(process.env.PORT)}.`);
  process.exit(2);
}
const host = process.env.HOST ?? 'localhost';
const caseInsensitive = process.env.CASE_SENSITIVE !== '1';

const data = sampleData();
const opened = await openStore({ store: process.env.STORE, databaseUrl: process.env.DATABASE_URL, caseInsensitive }, data);
const app = buildApp({ store: opened.store, logger: process.env.LOG === '1', caseInsensitive, playground: await buildPlayground() });
await app.listen({ port, host });

const base = `http://${host}:${port}`;
const rows = Object.values(data).reduce((n, items) => n + items.length, 0);
console.log(`Example financial-data API on ${base}: ${rows} sample rows, text compared case-${caseInsensitive ? 'in' : ''}sensitively.`);
console.log(`Data: ${opened.description}.`);
console.log(`Playground: ${base}/`);
console.log(`OpenAPI document: ${base}/openapi.json`);
console.log('Try:');
for (const { path, note } of EXAMPLE_REQUESTS) console.log(`  curl -s '${base}${path}'\n      # ${note}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app
      .close()
      .then(() => opened.close())
      .then(() => process.exit(0));
  });
}
