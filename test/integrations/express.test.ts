import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import express4 from 'express4';
import { describe, expect, it } from 'vitest';
import { invoices } from '../../src/index';
import * as adapter from '../../src/integrations/express';
import { startExpress } from './servers';
import { adapterSuite, getAnswer, getProblem } from './suite';

adapterSuite('qsfilter/express (Express 5)', (options) => startExpress(express, adapter, options));
adapterSuite('qsfilter/express (Express 4, whose qs parser must not matter)', (options) => startExpress(express4, adapter, options));

describe.each([
  ['Express 5', express],
  ['Express 4', express4],
])('qsfilter/express on %s', (_name, framework) => {
  it('reads req.originalUrl: a router mounted under a path checks the query as sent', async () => {
    const server = await startExpress(framework, adapter);
    try {
      expect((await getAnswer(server, '/api/vendors?vendorName=Acme%25')).ids).toEqual(['v1', 'v2']);
      const { body } = await getProblem(server, '/api/vendors?vendorName=%acme%');
      expect(body).toMatchObject({ instance: '/api/vendors', errors: [{ code: 'MALFORMED_ENCODING' }] });
    } finally {
      await server.close();
    }
  });

  it('says so when a route is given filterQuery itself instead of filterQuery(schema)', async () => {
    const app = framework();
    app.get('/vendors', adapter.filterQuery as never, (_req: unknown, res: { json: (body: unknown) => void }) => res.json({ unchecked: true }));
    const server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/vendors?vendorName=acme`);
      expect(answer.status).toBe(500);
      // Express's own error handler shows the error outside production.
      expect(await answer.text()).toContain('The route was given filterQuery itself: give it filterQuery(schema)');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('lets onError answer, or pass the rejection on to an error handler', async () => {
    const custom = await startExpress(framework, adapter, {
      onError: (rejection, req, res, next) => {
        if (req.path === '/vendors') res.status(422).json({ message: rejection.problem.detail });
        else next(new Error(`refused: ${rejection.errors[0]!.code}`));
      },
    });
    try {
      const vendors = await fetch(`${custom.base}/vendors?vendorName=%acme%`);
      expect(vendors.status).toBe(422);
      expect(await vendors.json()).toEqual({ message: 'The value of parameter "vendorName" has "%ac", which is not valid UTF-8.' });
      // Passed to Express's own error handler: a 500 that names the code.
      const passed = await fetch(`${custom.base}/invoices?totalAmount=x`);
      expect(passed.status).toBe(500);
      expect(await passed.text()).toContain('refused: INVALID_NUMBER');
    } finally {
      await custom.close();
    }
  });
});

describe('qsfilter/express: set-up errors', () => {
  it.each<[string, () => unknown, RegExp]>([
    ['a schema spec', () => adapter.filterQuery({ fields: { a: 'number' } } as never), /the schema must be a schema made by defineSchema\(\), not an object\. This is a schema spec/],
    ['no schema', () => adapter.filterQuery(undefined as never), /the schema must be a schema made by defineSchema\(\), not undefined/],
    ['an unknown option', () => adapter.filterQuery(invoices, { caseSensitive: false } as never), /unknown option "caseSensitive"; the options are caseInsensitive, limits, params, problem, onError\.$/],
    ['caseInsensitive that is no boolean', () => adapter.filterQuery(invoices, { caseInsensitive: 'yes' } as never), /^qsfilter\/express filterQuery: "caseInsensitive" must be true or false, not the string "yes"\.$/],
    ['options that are no object', () => adapter.filterQuery(invoices, 'strict' as never), /^qsfilter\/express filterQuery: the options must be an object \(caseInsensitive, limits, params, problem, onError\), not the string "strict"\.$/],
    ['params that are no strings', () => adapter.filterQuery(invoices, { params: [1] } as never), /"params" must be an array of strings/],
    ['a problem label that is no string', () => adapter.filterQuery(invoices, { problem: { title: 5 } } as never), /"problem.title" must be a string/],
    ['an unknown problem label', () => adapter.filterQuery(invoices, { problem: { instance: '/x' } } as never), /"problem" has the unknown property "instance"/],
    // The limits are checked by parse, but the mistake is in the middleware's options, which the message names.
    ['a bad limit', () => adapter.filterQuery(invoices, { limits: { maxClauses: 1.5 } }), /^qsfilter\/express filterQuery: the limit "maxClauses" must be a non-negative integer or Infinity, not the number 1\.5\.$/],
    ['a misspelt limit', () => adapter.filterQuery(invoices, { limits: { maxClause: 1 } as never }), /^qsfilter\/express filterQuery: unknown limit "maxClause"/],
    ['"__proto__" passed through', () => adapter.filterQuery(invoices, { params: ['__proto__'] }), /^qsfilter\/express filterQuery: "__proto__" cannot be a pass-through parameter\.$/],
    ['a schema that is a string', () => adapter.filterQuery('invoices' as never), /the schema must be a schema made by defineSchema\(\), not the string "invoices"\.$/],
    ['onError that is no function', () => adapter.filterQuery(invoices, { onError: true } as never), /"onError" must be a function/],
  ])('%s is a TypeError when the middleware is made', (_name, make, message) => {
    expect(make).toThrow(TypeError);
    expect(make).toThrow(message);
  });
});
