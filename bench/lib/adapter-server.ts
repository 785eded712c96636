/**
 * One server of `bench/adapters.bench.ts`, in a process of its own so that its CPU time
 * is its own: `tsx adapter-server.ts <framework> <route>` serves `GET /invoices` on a
 * loopback port, says the port over IPC, and answers each `cpu` message with the CPU
 * time it has used so far (µs, user + system).
 *
 * Routes, each answering the same small JSON (the number of conditions):
 * - `plain`: reads nothing of the query: what the framework costs alone;
 * - `check`: calls `check(request.url, invoices)` itself, as a route without the adapter would;
 * - `adapter`: the package's adapter (`qsfilter/fastify`, `/express`, `/hono`) from dist/;
 *   on Hono, `filterRoute`, the form the guide recommends;
 * - `middleware` (Hono): `filterQuery`, the middleware before the route's handler.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { qsfilter } from './qsfilter';

const [framework, route] = process.argv.slice(2) as ['fastify' | 'express' | 'hono', 'plain' | 'check' | 'adapter' | 'middleware'];
const dist = (entry: string) => import(new URL(`../../dist/${entry}.js`, import.meta.url).href);
const { check, invoices } = qsfilter;

/** The body every route answers: a 400 problem for a bad query, else the number of conditions. */
function own(url: string): { status: number; body: unknown } {
  const result = check(url, invoices);
  return result.ok ? { status: 200, body: { conditions: result.value.conditions.length } } : { status: 400, body: { errors: result.errors.length } };
}

async function start(): Promise<number> {
  if (framework === 'fastify') {
    const app = Fastify();
    if (route === 'adapter') {
      await app.register((await dist('fastify')).qsfilter);
      app.get('/invoices', { config: { filter: invoices } }, (request) => ({ conditions: request.filter.conditions.length }));
    } else if (route === 'check') {
      app.get('/invoices', (request, reply) => {
        const { status, body } = own(request.url);
        return reply.code(status).send(body);
      });
    } else app.get('/invoices', () => ({ conditions: 0 }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    return (app.server.address() as AddressInfo).port;
  }
  if (framework === 'express') {
    const app = express();
    if (route === 'adapter') {
      app.get('/invoices', (await dist('express')).filterQuery(invoices), (req: express.Request & { filter: { conditions: readonly unknown[] } }, res: express.Response) => {
        res.json({ conditions: req.filter.conditions.length });
      });
    } else if (route === 'check') {
      app.get('/invoices', (req, res) => {
        const { status, body } = own(req.originalUrl);
        res.status(status).json(body);
      });
    } else app.get('/invoices', (_req, res) => void res.json({ conditions: 0 }));
    const server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    return (server.address() as AddressInfo).port;
  }
  const app = new Hono();
  type Handled = { json(b: unknown): Response; req: { valid(t: 'query'): { conditions: unknown[] } } };
  if (route === 'adapter') {
    const { filterRoute } = await dist('hono');
    app.get('/invoices', filterRoute(invoices, (c: Handled) => c.json({ conditions: c.req.valid('query').conditions.length })));
  } else if (route === 'middleware') {
    const { filterQuery } = await dist('hono');
    app.get('/invoices', filterQuery(invoices), (c: Handled) => c.json({ conditions: c.req.valid('query').conditions.length }));
  } else if (route === 'check') {
    app.get('/invoices', (c) => {
      const { status, body } = own(c.req.url);
      return c.json(body, status as 200);
    });
  } else app.get('/invoices', (c) => c.json({ conditions: 0 }));
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server));
  });
  return (server.address() as AddressInfo).port;
}

const port = await start();
process.on('message', (message) => {
  if (message === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send!({ cpu: user + system });
  } else if (message === 'exit') process.exit(0);
});
process.send!({ port });
