import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices, vendors } from '../../src/index';
import * as adapter from '../../src/integrations/fastify';
import { startFastify, type RunningServer } from './servers';
import { adapterSuite, getAnswer, getProblem } from './suite';

adapterSuite('qsfilter/fastify (Fastify 5)', (options) => startFastify(adapter, options));

describe('qsfilter/fastify: the hook and the request', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startFastify(adapter);
  });
  afterAll(() => server.close());

  it('checks the query before the body is read: a bad query wins over a bad body', async () => {
    const badBody = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"not json' };
    const { status, body } = await getProblem(server, '/invoices?totalAmount=x', badBody);
    expect(status).toBe(400);
    expect(body.errors[0]).toMatchObject({ code: 'INVALID_NUMBER', param: 'totalAmount' });
    // With a good query the body is read, and Fastify refuses it.
    const response = await fetch(`${server.base}/invoices?totalAmount=1`, badBody);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'FST_ERR_CTP_INVALID_JSON_BODY' });
    const good = await fetch(`${server.base}/invoices?totalAmount=gt:100`, { ...badBody, body: '{"a":1}' });
    expect(await good.json()).toMatchObject({ ids: ['i2', 'i3'], body: { a: 1 } });
  });

  it('makes request.filter a programmer error on a route that did not ask for one', async () => {
    const response = await fetch(`${server.base}/plain?totalAmount=1`);
    expect(response.status).toBe(500);
    expect(((await response.json()) as { message: string }).message).toBe(
      'qsfilter/fastify: request.filter is only set on routes declared with config: { filter: schema }, once their query has been checked (this is GET /plain).',
    );
  });

  it('answers HEAD like GET (Fastify\'s automatic HEAD routes carry the config)', async () => {
    expect((await fetch(`${server.base}/vendors?vendorName=%acme%`, { method: 'HEAD' })).status).toBe(400);
    expect((await fetch(`${server.base}/vendors?vendorName=%25acme%25`, { method: 'HEAD' })).status).toBe(200);
  });
});

describe('qsfilter/fastify: options', () => {
  it('lets onError answer instead, or fall back to the problem when it sends nothing', async () => {
    const seen: string[] = [];
    const server = await startFastify(adapter, {
      onError: async (rejection, request, reply) => {
        seen.push(rejection.errors[0]!.code);
        if (request.url.startsWith('/vendors')) await reply.code(422).send({ message: rejection.problem.detail, trace: 't-1' });
      },
    });
    try {
      const custom = await fetch(`${server.base}/vendors?vendorName=%acme%`);
      expect(custom.status).toBe(422);
      expect(await custom.json()).toEqual({ message: 'The value of parameter "vendorName" has "%ac", which is not valid UTF-8.', trace: 't-1' });
      expect((await getProblem(server, '/invoices?totalAmount=x')).status).toBe(400);
      expect(seen).toEqual(['MALFORMED_ENCODING', 'INVALID_NUMBER']);
      expect((await getAnswer(server, '/invoices?totalAmount=50')).ids).toEqual(['i1']);
    } finally {
      await server.close();
    }
  });

  it('refuses bad options and a route\'s bad schema when the app is set up, with a TypeError', async () => {
    const cases: [string, (app: ReturnType<typeof Fastify>) => PromiseLike<unknown>, RegExp][] = [
      ['an unknown option', (app) => app.register(adapter.qsfilter, { limit: 5 } as never), /unknown option "limit"/],
      ['a bad limit', (app) => app.register(adapter.qsfilter, { limits: { maxParams: -1 } }), /^qsfilter\/fastify: the limit "maxParams" must be a non-negative integer or Infinity, not the number -1\.$/],
      ['onError that is no function', (app) => app.register(adapter.qsfilter, { onError: 'x' } as never), /"onError" must be a function/],
      [
        'a schema spec instead of a schema',
        async (app) => {
          await app.register(adapter.qsfilter);
          app.get('/x', { config: { filter: { fields: {} } as never } }, () => 'x');
          return app.ready();
        },
        /config.filter of GET \/x must be a schema made by defineSchema\(\), not an object\. This is a schema spec/,
      ],
    ];
    for (const [name, setUp, message] of cases) {
      const app = Fastify();
      const error = await Promise.resolve(setUp(app)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, name).toBeInstanceOf(TypeError);
      expect((error as Error).message, name).toMatch(message);
      await app.close().catch(() => undefined);
    }
  });

  it('serves routes declared before it finished loading (register without await), and checks their schema on the first request', async () => {
    const app = Fastify();
    void app.register(adapter.qsfilter);
    app.get('/invoices', { config: { filter: invoices } }, (request) => request.filter.conditions.length);
    app.get('/broken', { config: { filter: { fields: {} } as never } }, () => 'never');
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      expect(await (await fetch(`${base}/invoices?totalAmount=1`)).text()).toBe('1');
      expect((await fetch(`${base}/invoices?totalAmount=x`)).status).toBe(400);
      // A programmer error, loud on its first request: a 500 that says what is wrong.
      const broken = await fetch(`${base}/broken`);
      expect(broken.status).toBe(500);
      expect(((await broken.json()) as { message: string }).message).toMatch(/config.filter of GET \/broken must be a schema made by defineSchema\(\)/);
    } finally {
      await app.close();
    }
  });

  it('runs after the application\'s onRequest hooks added before it: authentication answers first', async () => {
    const app = Fastify();
    app.addHook('onRequest', async (request, reply) => {
      if (request.headers.authorization === undefined) await reply.code(401).send({ message: 'Sign in.' });
    });
    await app.register(adapter.qsfilter);
    app.get('/invoices', { config: { filter: invoices } }, (request) => request.filter.conditions.length);
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      expect((await fetch(`${base}/invoices?totalAmount=x`)).status).toBe(401);
      expect((await fetch(`${base}/invoices?totalAmount=x`, { headers: { authorization: 'Bearer t' } })).status).toBe(400);
    } finally {
      await app.close();
    }
  });

  it('serves routes of child contexts registered after it (the plugin is not encapsulated)', async () => {
    const app = Fastify();
    await app.register(adapter.qsfilter);
    await app.register(
      async (child) => {
        child.get('/invoices', { config: { filter: invoices } }, (request) => request.filter.conditions.length);
      },
      { prefix: '/v2' },
    );
    app.get('/vendors', { config: { filter: vendors } }, (request) => request.filter.params);
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      expect(await (await fetch(`${base}/v2/invoices?totalAmount=1&totalAmount=2`)).text()).toBe('2');
      expect((await fetch(`${base}/v2/invoices?totalAmount=%`)).status).toBe(400);
      expect(await (await fetch(`${base}/vendors?businessName=A%26B`)).json()).toEqual({ businessName: 'A&B' });
    } finally {
      await app.close();
    }
  });
});
