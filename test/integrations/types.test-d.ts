// The types a server author gets from the built subpaths, declaration augmentations included.
import express, { type RequestHandler } from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { invoices, type Filter } from 'qsfilter';
import { filterQuery as expressFilter } from 'qsfilter/express';
import { qsfilter } from 'qsfilter/fastify';
import { filterQuery as honoFilter, filterRoute } from 'qsfilter/hono';
import { describe, expectTypeOf, it } from 'vitest';

describe('the adapters\' types', () => {
  it('qsfilter/fastify: config.filter takes a Schema, and request.filter is a Filter', () => {
    const app = Fastify();
    void app.register(qsfilter, { limits: { maxParams: 10 }, problem: { title: 'Invalid query' } });
    app.get('/invoices', { config: { filter: invoices } }, (request) => {
      expectTypeOf(request.filter).toEqualTypeOf<Filter>();
      return request.filter.conditions.length;
    });
    // @ts-expect-error: a schema spec is not a schema
    app.get('/x', { config: { filter: { fields: {} } } }, () => 'x');
    void app.register(qsfilter, { caseInsensitive: true });
    // @ts-expect-error: an unknown option
    void app.register(qsfilter, { caseSensitive: false });
  });

  it('qsfilter/express: a RequestHandler, and req.filter reads as a Filter', () => {
    const middleware = expressFilter(invoices, { params: ['trace'] });
    expectTypeOf(middleware).toEqualTypeOf<RequestHandler>();
    express().get('/invoices', middleware, (req, res) => {
      expectTypeOf(req.filter).toExtend<Filter>();
      expectTypeOf(req.filter.sort).toEqualTypeOf<Filter['sort']>();
      res.json(req.filter.params);
    });
  });

  it('qsfilter/hono: c.req.valid("query") is the Filter; the input a client sends is strings', () => {
    new Hono().get('/invoices', honoFilter(invoices), (c) => {
      expectTypeOf(c.req.valid('query')).toEqualTypeOf<Filter>();
      return c.json(c.req.valid('query').conditions.length);
    });
    new Hono().get(
      '/invoices',
      filterRoute(invoices, (c) => {
        expectTypeOf(c.req.valid('query')).toEqualTypeOf<Filter>();
        return c.json(c.req.valid('query').conditions.length);
      }),
    );
    // @ts-expect-error: a handler is required
    filterRoute(invoices);
    honoFilter(invoices, {
      onError: (rejection, c) => {
        expectTypeOf(rejection.problem.status).toEqualTypeOf<400>();
        return c.json({ codes: rejection.errors.map((e) => e.code) }, 422);
      },
    });
  });
});
