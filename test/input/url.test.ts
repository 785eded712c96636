import { describe, expect, it } from 'vitest';
import { splitRequestUrl } from '../../src/input/url';

describe('splitRequestUrl: the path and query of a request URL, as sent', () => {
  it.each([
    // Node's req.url, Fastify's request.url, Express's req.originalUrl
    ['/vendors?vendorName=%acme%', '/vendors', '?vendorName=%acme%'],
    ['/vendors', '/vendors', ''],
    ['/vendors?', '/vendors', '?'],
    // A query that looks like a path or a URL stays a query: its "?" is kept.
    ['/x?/y=1', '/x', '?/y=1'],
    ['/x?http://a/?b=1', '/x', '?http://a/?b=1'],
    // Hono's c.req.url, or an absolute-form request target
    ['http://127.0.0.1:3000/invoices?totalAmount=gt:1', '/invoices', '?totalAmount=gt:1'],
    ['https://api.example', '/', ''],
    ['https://api.example?a=1', '/', '?a=1'],
    ['https://user@api.example/a/b?c=%25#frag?x', '/a/b', '?c=%25'],
    // A fragment never reaches a server, but a "?" after "#" would not be a query.
    ['/a#b?c=1', '/a', ''],
    ['*', '*', ''],
    ['', '/', ''],
  ])('%s', (url, pathname, search) => {
    expect(splitRequestUrl(url)).toEqual({ pathname, search });
  });

  it('decodes nothing', () => {
    expect(splitRequestUrl('/caf%C3%A9%2F?name=%22a%26b%22+c')).toEqual({ pathname: '/caf%C3%A9%2F', search: '?name=%22a%26b%22+c' });
  });
});
