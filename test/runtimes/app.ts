/**
 * The smoke suite's app, run as it is on every runtime (Node, Bun, Deno, workerd): a
 * Hono app that serves a resource through `qsfilter/hono`, and `/self-check`, which
 * answers with what the package computes on that runtime (`self-check.ts`). It imports
 * the package by its name, so it runs against the package installed from the packed
 * tarball (`runtimes.ts`); no code of the runtime's own, so that each runtime serves it in
 * its own way (`Bun.serve`, `Deno.serve`, a Worker's `fetch`, `@hono/node-server`).
 */
import { Hono } from 'hono';
import { filterRoute } from 'qsfilter/hono';
// With its extension: the runtimes load the module as it is written out, beside this one.
import { accounts, answer, selfCheck } from './self-check.js';

const app = new Hono()
  .get('/accounts', filterRoute(accounts, (c) => c.json(answer(c.req.valid('query')))))
  .get('/self-check', (c) => c.json(selfCheck()));

export default app;
