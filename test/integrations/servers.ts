import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { serve } from '@hono/node-server';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { compile, invoices, PROBLEM_CONTENT_TYPE, requestChecks, vendors, type Filter, type FilterQueryOptions, type Schema } from '../../src/index';
import type * as ExpressAdapter from '../../src/integrations/express';
import type * as FastifyAdapter from '../../src/integrations/fastify';
import type * as HonoAdapter from '../../src/integrations/hono';

/** A framework serving the test routes on a loopback port. */
export interface RunningServer {
  readonly base: string;
  close(): Promise<void>;
}

/** What a handler answers: the Filter it was handed, and the ids of the test items it matches. */
export interface Answer {
  filter: Filter;
  ids: string[];
}

/** A business name with every character that a query string or the filter language treats specially. */
export const HARD_NAME = 'Acme & Sons; "50%" \\ + co';

/** The items each route filters with `compile`, so that a test sees what the Filter means, not only its shape. */
export const ITEMS = {
  invoices: [
    { id: 'i1', totalAmount: 50, customerRef: { id: '42' }, postedDate: '2023-01-09T08:00:00' },
    { id: 'i2', totalAmount: 150, customerRef: { id: '42' }, postedDate: '2023-01-09T10:00:00' },
    { id: 'i3', totalAmount: 250, customerRef: { id: '7' }, postedDate: '2023-02-01T00:00:00' },
  ],
  vendors: [
    { id: 'v1', vendorName: HARD_NAME },
    { id: 'v2', vendorName: 'Acme & Sons' },
    { id: 'v3', vendorName: 'Globex' },
  ],
} as const;

/** The routes every framework serves: `GET /<name>`, each checked against the catalog's schema. */
export const ROUTES: Record<keyof typeof ITEMS, Schema> = { invoices, vendors };

export function answer(resource: keyof typeof ITEMS, filter: Filter): Answer {
  return { filter, ids: ITEMS[resource].filter(compile(filter)).map((item) => item.id) };
}

/** Options every adapter takes, for the tests of options. */
export type AdapterOptions = ExpressAdapter.FilterQueryOptions;

/** Fastify 5 with `qsfilter/fastify` registered, and a POST route to show the query is checked before the body. */
export async function startFastify(adapter: typeof FastifyAdapter, options?: FastifyAdapter.FastifyFilterOptions): Promise<RunningServer> {
  const app = Fastify();
  await app.register(adapter.qsfilter, options ?? {});
  for (const [resource, schema] of Object.entries(ROUTES) as [keyof typeof ITEMS, Schema][]) {
    app.get(`/${resource}`, { config: { filter: schema } }, (request) => answer(resource, request.filter));
  }
  app.post('/invoices', { config: { filter: invoices } }, (request) => ({ ...answer('invoices', request.filter), body: request.body }));
  // A route that did not ask for a filter, and reads one anyway: a programmer error.
  app.get('/plain', (request) => ({ filter: request.filter }));
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return { base, close: () => app.close() };
}

/** The `express()` of Express 5 or of Express 4: the same shape, as far as these tests go. */
export type ExpressFactory = typeof import('express');

/** Express (5 or 4) with `filterQuery` on each route. */
export async function startExpress(express: ExpressFactory, adapter: typeof ExpressAdapter, options?: ExpressAdapter.ExpressFilterOptions): Promise<RunningServer> {
  const app = express();
  for (const [resource, schema] of Object.entries(ROUTES) as [keyof typeof ITEMS, Schema][]) {
    app.get(`/${resource}`, adapter.filterQuery(schema, options), (req, res) => {
      res.json(answer(resource, req.filter));
    });
  }
  // Mounted under /api: req.url loses the mount path, req.originalUrl keeps the query as sent either way.
  const api = express.Router();
  api.get('/vendors', adapter.filterQuery(vendors, options), (req, res) => {
    res.json(answer('vendors', req.filter));
  });
  app.use('/api', api);
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => closeServer(server) };
}

/** Hono on @hono/node-server, each route checked by `filterQuery` (a middleware before the handler) or `filterRoute` (the one handler). */
export async function startHono(adapter: typeof HonoAdapter, options?: HonoAdapter.HonoFilterOptions, form: 'middleware' | 'route' = 'middleware'): Promise<RunningServer> {
  const app = new Hono();
  for (const [resource, schema] of Object.entries(ROUTES) as [keyof typeof ITEMS, Schema][]) {
    if (form === 'route') app.get(`/${resource}`, adapter.filterRoute(schema, (c) => c.json(answer(resource, c.req.valid('query'))), options));
    else app.get(`/${resource}`, adapter.filterQuery(schema, options), (c) => c.json(answer(resource, c.req.valid('query'))));
  }
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server));
  });
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => closeServer(server) };
}

/**
 * A server of `node:http` alone, no framework, made with the main entry's `requestChecks`
 * as an adapter of a framework qsfilter has none for would be: it routes by path and
 * answers as the adapters do.
 */
export async function startNodeHttp(options?: FilterQueryOptions): Promise<RunningServer> {
  const checkerOf = requestChecks({ name: 'node:http test server' }, options);
  const routes = new Map(Object.entries(ROUTES).map(([resource, schema]) => [`/${resource}`, { resource: resource as keyof typeof ITEMS, checkUrl: checkerOf(schema) }]));
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const route = routes.get(url.split('?', 1)[0]!);
    if (route === undefined) return void res.writeHead(404).end();
    const outcome = route.checkUrl(url);
    if (!outcome.ok) return void res.writeHead(400, { 'content-type': `${PROBLEM_CONTENT_TYPE}; charset=utf-8` }).end(JSON.stringify(outcome.problem));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer(route.resource, outcome.value)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => closeServer(server) };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.closeAllConnections();
    server.close((error) => (error ? reject(error) : resolve()));
  });
}
