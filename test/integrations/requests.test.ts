import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check, invoices, requestChecks, splitRequestUrl, type FilterQueryOptions } from '../../src/index';
import { startNodeHttp } from './servers';
import { adapterSuite } from './suite';

// The main entry's requestChecks, which the three adapters are made of, as the adapter of
// a framework qsfilter has none for uses it: here node:http alone, over real HTTP, held to
// what every adapter must do (reference §10).
adapterSuite('requestChecks on node:http, no framework', (options) => startNodeHttp(options));

describe('requestChecks: set-up errors, each a TypeError that begins with the adapter\'s name', () => {
  const usage = { name: 'filterQuery', call: 'filterQuery(schema)', route: 'app.get(path, filterQuery(schema), handler)' };
  it.each<[string, () => unknown, RegExp]>([
    ['a schema spec', () => requestChecks({ name: 'koa-filter' })({ fields: { a: 'number' } }), /^koa-filter: the schema must be a schema made by defineSchema\(\), not an object\. This is a schema spec/],
    ['a schema where the adapter says where', () => requestChecks({ name: 'koa-filter' })('invoices', 'route GET /x config.filter'), /^koa-filter: route GET \/x config\.filter must be a schema made by defineSchema\(\), not the string "invoices"\.$/],
    ['an unknown option', () => requestChecks({ name: 'koa-filter' }, { onError: () => undefined } as never), /^koa-filter: unknown option "onError"; the options are caseInsensitive, limits, params, problem\.$/],
    ['a hook that is no function', () => requestChecks({ name: 'koa-filter', hooks: ['onError'] }, { onError: 'log' } as never), /^koa-filter: "onError" must be a function, not the string "log"\.$/],
    ['options that are no object', () => requestChecks({ name: 'koa-filter', hooks: ['onError'] }, 'strict' as never), /^koa-filter: the options must be an object \(caseInsensitive, limits, params, problem, onError\), not the string "strict"\.$/],
    ['a bad limit', () => requestChecks({ name: 'koa-filter' }, { limits: { maxClauses: -1 } }), /^koa-filter: the limit "maxClauses" must be a non-negative integer or Infinity, not the number -1\.$/],
    ['a request where the schema goes, with the usage', () => requestChecks({ name: 'koa-filter', usage })({ req: {}, res: {} }), /^koa-filter: the schema must be a schema made by defineSchema\(\), not an object\. The route was given filterQuery itself: give it filterQuery\(schema\), app\.get\(path, filterQuery\(schema\), handler\)\.$/],
    ['no setup', () => requestChecks(undefined as never), /^requestChecks: the setup must be an object: \{ name, hooks\?, usage\? \}, name a string that is not empty, not undefined\.$/],
    ['an empty name', () => requestChecks({ name: '' }), /^requestChecks: the setup must be an object: \{ name, hooks\?, usage\? \}, name a string that is not empty, not an object\.$/],
    ['a hook named as an option of every adapter', () => requestChecks({ name: 'koa-filter', hooks: ['onError', 'limits'] }), /^requestChecks: the hook "limits" is an option of every adapter \(caseInsensitive, limits, params, problem\): name it otherwise\.$/],
    ['a request URL that is no string', () => requestChecks({ name: 'koa-filter' })(invoices)(new URL('http://x/invoices?totalAmount=1') as never), /^koa-filter: the URL must be a string \(the request URL as received: path and query\), not a URL\.$/],
    ['hooks that are no names', () => requestChecks({ name: 'koa-filter', hooks: 'onError' as never }), /^requestChecks: "hooks" must be an array of option names, not the string "onError"\.$/],
    ['a usage short of a string', () => requestChecks({ name: 'koa-filter', usage: { name: 'filterQuery' } as never }), /^requestChecks: "usage" must be an object of three strings: \{ name, call, route \}, not an object\.$/],
  ])('%s', (_name, make, message) => {
    expect(make).toThrow(TypeError);
    expect(make).toThrow(message);
  });

  it('takes a schema as one whatever Object.prototype holds: a polluted "headers" or "req" is no request', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.headers = {};
    proto.req = {};
    try {
      const checkUrl = requestChecks({ name: 'koa-filter', usage })(invoices);
      expect(checkUrl('/invoices?totalAmount=gt:1').ok).toBe(true);
    } finally {
      delete proto.headers;
      delete proto.req;
    }
  });

  it('reads no option, and no hook, from Object.prototype: given no options or some', () => {
    const proto = Object.prototype as Record<string, unknown>;
    const polluted = { caseInsensitive: true, problem: { type: 'https://evil.example' }, params: ['x'], limits: { maxParams: 0 }, onError: () => 'hijacked' };
    Object.assign(proto, polluted);
    try {
      for (const options of [undefined, {}, { params: ['csrf'] }]) {
        const checks = requestChecks({ name: 'koa-filter', hooks: ['onError'] }, options);
        expect(checks.hooks.onError).toBeUndefined();
        const good = checks(invoices)('/invoices?totalAmount=gt:1&x=1');
        expect(good.ok).toBe(false);
        const bad = checks(invoices)('/invoices?totalAmount=x');
        expect(bad.ok || bad.problem.type).toBe('about:blank');
        const fine = checks(invoices)('/invoices?totalAmount=gt:1');
        // The filter is a plain object: read on it, the polluted key shows through; it has none of its own.
        expect(fine.ok && Object.hasOwn(fine.value, 'caseInsensitive')).toBe(false);
      }
    } finally {
      for (const key of Object.keys(polluted)) delete proto[key];
    }
  });

  it('reads its options once: a getter is called once, and what the caller changes later changes nothing', () => {
    let reads = 0;
    const problem = { type: 'urn:query' };
    const limits = { maxParams: 2 };
    const params = ['csrf'];
    const options = {
      get onError() {
        reads++;
        return reads === 1 ? () => undefined : 'not a function';
      },
      problem,
      limits,
      params,
    };
    const checks = requestChecks({ name: 'koa-filter', hooks: ['onError'] }, options);
    expect(reads).toBe(1);
    expect(typeof checks.hooks.onError).toBe('function');
    const checkUrl = checks(invoices);
    Object.assign(problem, { type: 42 });
    Object.assign(limits, { maxParams: -1 });
    params.push(7 as never);
    const outcome = checkUrl('/invoices?totalAmount=x&csrf=1');
    expect(outcome).toMatchObject({ ok: false, problem: { type: 'urn:query' }, errors: [{ code: 'INVALID_NUMBER' }] });
    expect(checkUrl('/invoices?a=1&b=2&c=3')).toMatchObject({ ok: false, errors: [{ code: 'LIMIT_EXCEEDED' }] });
    expect(reads).toBe(1);
  });

  it('takes a hook that is a function, and leaves it to the adapter', () => {
    // As an adapter holds them: its options type extends FilterQueryOptions with its hook.
    const options: FilterQueryOptions & { onError?: () => void } = { onError: () => undefined };
    const checkUrl = requestChecks({ name: 'koa-filter', hooks: ['onError'] }, options)(invoices);
    expect(checkUrl('/invoices?totalAmount=gt:1')).toMatchObject({ ok: true, value: { conditions: [{ key: 'totalAmount' }] } });
  });

  it('answers a bad query with the diagnostics and the problem, its instance the path as sent', () => {
    const checkUrl = requestChecks({ name: 'koa-filter' }, { problem: { type: 'https://example.com/problems/query', title: 'Bad query' } })(invoices);
    const outcome = checkUrl('http://api.example.com/v2/invoices?totalAmount=x');
    expect(outcome).toMatchObject({
      ok: false,
      errors: [{ code: 'INVALID_NUMBER', param: 'totalAmount' }],
      problem: { type: 'https://example.com/problems/query', title: 'Bad query', status: 400, instance: '/v2/invoices' },
    });
  });
});

describe('requestChecks: any request URL (property)', () => {
  const checkUrl = requestChecks({ name: 'koa-filter' }, { limits: { maxQueryLength: 256 } })(invoices);
  // Paths and queries of the characters that matter to a URL and to the language, and any text.
  const piece = fc.oneof(fc.constantFrom('/', '?', '#', '&', '=', ';', '%', '%25', '%zz', '+', ':', 'totalAmount', 'gte:', '1', 'lines.amount', 'orderBy', '\u00e9', '\ud800'), fc.string({ unit: 'binary', maxLength: 8 }));
  const url = fc.array(piece, { maxLength: 24 }).map((parts) => parts.join(''));

  it('never throws, and answers what check answers of the query as sent, the problem\'s instance its path', () => {
    fc.assert(
      fc.property(url, (sent) => {
        const outcome = checkUrl(sent);
        const { pathname, search } = splitRequestUrl(sent);
        const checked = check(search, invoices, { limits: { maxQueryLength: 256 } });
        expect(outcome.ok).toBe(checked.ok);
        if (outcome.ok || checked.ok) return;
        expect(outcome.errors).toEqual(checked.errors);
        expect(outcome.problem.instance).toBe(pathname);
        expect(outcome.problem.errors).toHaveLength(outcome.errors.length);
      }),
      { numRuns: 600 },
    );
  });
});
