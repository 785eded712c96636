import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { invoices } from '../../src/index';
import * as adapter from '../../src/integrations/hono';
import { startHono } from './servers';
import { adapterSuite, getAnswer, getProblem, PROBLEM_TYPE } from './suite';

adapterSuite('qsfilter/hono (Hono on @hono/node-server)', (options) => startHono(adapter, options));
adapterSuite('qsfilter/hono filterRoute (Hono on @hono/node-server)', (options) => startHono(adapter, options, 'route'));

describe('qsfilter/hono', () => {
  it('says so when a route is given filterQuery itself instead of filterQuery(schema)', async () => {
    const app = new Hono();
    app.get('/vendors', adapter.filterQuery as never, (c) => c.json({ unchecked: true }));
    app.onError((error, c) => c.text(error.message, 500));
    const server = await new Promise<Server>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server));
    });
    try {
      const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/vendors?vendorName=acme`);
      expect(answer.status).toBe(500);
      expect(await answer.text()).toMatch(/^qsfilter\/hono filterQuery: the schema must be a schema made by defineSchema\(\), not an instance of .*\. The route was given filterQuery itself: give it filterQuery\(schema\)/);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('lets onError answer, or fall back to the problem when it returns nothing', async () => {
    const custom = await startHono(adapter, {
      onError: (rejection, c) => (c.req.path === '/vendors' ? c.json({ message: rejection.problem.detail }, 422) : undefined),
    });
    try {
      const vendors = await fetch(`${custom.base}/vendors?vendorName=%acme%`);
      expect(vendors.status).toBe(422);
      expect(await vendors.json()).toEqual({ message: 'The value of parameter "vendorName" has "%ac", which is not valid UTF-8.' });
      expect((await getProblem(custom, '/invoices?totalAmount=x')).status).toBe(400);
      expect((await getAnswer(custom, '/invoices?totalAmount=250')).ids).toEqual(['i3']);
    } finally {
      await custom.close();
    }
  });

  it('waits for an async onError, and falls back to the problem when it resolves to nothing', async () => {
    const app = new Hono().get(
      '/invoices',
      adapter.filterQuery(invoices, { onError: async (rejection, c) => (rejection.errors.length > 1 ? c.json({ many: true }, 422) : undefined) }),
      (c) => c.json(c.req.valid('query').conditions.length),
    );
    const many = await app.request('/invoices?totalAmount=x&dueDate=y');
    expect([many.status, await many.json()]).toEqual([422, { many: true }]);
    const one = await app.request('/invoices?totalAmount=x');
    expect([one.status, one.headers.get('content-type')]).toEqual([400, PROBLEM_TYPE]);
    expect(await one.json()).toMatchObject({ instance: '/invoices', errors: [{ code: 'INVALID_NUMBER', param: 'totalAmount' }] });
  });

  it('works in Hono\'s own request handling too (app.request), where c.req.url is a full URL', async () => {
    const app = new Hono().get('/invoices', adapter.filterQuery(invoices), (c) => c.json(c.req.valid('query').conditions.length));
    expect(await (await app.request('/invoices?totalAmount=1&totalAmount=2')).json()).toBe(2);
    const refused = await app.request('http://api.example/invoices?totalAmount=%');
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toBe(PROBLEM_TYPE);
    expect(await refused.json()).toMatchObject({ instance: '/invoices', errors: [{ code: 'MALFORMED_ENCODING' }] });
  });

  it('refuses a schema spec when the validator is made, with a TypeError', () => {
    expect(() => adapter.filterQuery({ fields: {} } as never)).toThrow(TypeError);
    expect(() => adapter.filterRoute({ fields: {} } as never, (c) => c.text('x'))).toThrow(TypeError);
  });

  it('filterRoute: refuses a missing handler when the route is made, and says how to use it when given filterRoute itself', async () => {
    expect(() => adapter.filterRoute(invoices, undefined as never)).toThrow(/^qsfilter\/hono filterRoute: the handler must be a function/);
    const app = new Hono().get('/invoices', adapter.filterRoute as never);
    app.onError((error, c) => c.text(error.message, 500));
    const answer = await app.request('/invoices?totalAmount=1');
    expect(answer.status).toBe(500);
    expect(await answer.text()).toMatch(/The route was given filterRoute itself: give it filterRoute\(schema, handler\), app\.get\(path, filterRoute\(schema, handler\)\)\.$/);
  });

  it('filterRoute: answers from the handler itself, synchronously when it does, and hands it next', async () => {
    let handedNext: unknown;
    const app = new Hono().get(
      '/invoices',
      adapter.filterRoute(invoices, (c, next) => {
        handedNext = next;
        return c.json(c.req.valid('query').conditions.length);
      }),
    );
    const answer = app.fetch(new Request('http://api.example/invoices?totalAmount=1&totalAmount=2'));
    expect(answer).toBeInstanceOf(Response);
    expect(await (answer as Response).json()).toBe(2);
    expect(typeof handedNext).toBe('function');
    const refused = await app.request('/invoices?totalAmount=%');
    expect([refused.status, refused.headers.get('content-type')]).toEqual([400, PROBLEM_TYPE]);
  });
});
