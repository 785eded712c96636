import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { invoices } from '../../src/index';
import * as adapter from '../../src/integrations/hono';
import { startHono } from './servers';
import { adapterSuite, getAnswer, getProblem } from './suite';

adapterSuite('qsfilter/hono (Hono on @hono/node-server)', (options) => startHono(adapter, options));

describe('qsfilter/hono', () => {
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

  it('works in Hono\'s own request handling too (app.request), where c.req.url is a full URL', async () => {
    const app = new Hono().get('/invoices', adapter.filterQuery(invoices), (c) => c.json(c.req.valid('query').conditions.length));
    expect(await (await app.request('/invoices?totalAmount=1&totalAmount=2')).json()).toBe(2);
    const refused = await app.request('http://api.example/invoices?totalAmount=%');
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(await refused.json()).toMatchObject({ instance: '/invoices', errors: [{ code: 'MALFORMED_ENCODING' }] });
  });

  it('refuses a schema spec when the validator is made, with a TypeError', () => {
    expect(() => adapter.filterQuery({ fields: {} } as never)).toThrow(TypeError);
  });
});
