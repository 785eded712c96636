import type { FastifyInstance } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../examples/server/app';
import { sampleData } from '../../../examples/server/data/sample';
import { MemoryStore } from '../../../examples/server/store/memory';
import type { Store } from '../../../examples/server/store/store';
import { heldStore } from './held';
import { exchange, expectProblem, parseAnswers, rawConnection } from './raw-http';

// Issue 33, item 5 (SPEC §14.4): every error answer is problem+json, also those that
// Node's HTTP server makes before Fastify sees a request. They were Fastify's
// `application/json` ({"message":"Client Error"}), or Node's empty bodies. Sent over
// real loopback connections, byte for byte, since no HTTP client sends these requests.

const ACME = 'businessName=Acme%20%26%20Sons&serviceName=quickbooks';

/** Starts the app on port 0 over `store`; resolves with it and its port. */
async function listen(store: Store, options: { requestTimeoutMs?: number; answerTimeoutMs?: number } = {}): Promise<{ app: FastifyInstance; port: number }> {
  const app = buildApp({ store, logStream: { write: () => true }, ...options });
  const address = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));
  return { app, port: Number(address.port) };
}

describe("the answers of Node's HTTP server are problems", () => {
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    ({ app, port } = await listen(new MemoryStore(sampleData()), { requestTimeoutMs: 300 }));
  });
  afterAll(() => app?.close());

  it.each([
    ['a malformed header line', 'GET /connections HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 400, 'The request is not valid HTTP/1.1: Invalid header token.'],
    ['a malformed request line', 'GET /connections HTTP/3.7\r\nHost: x\r\n\r\n', 400, 'The request is not valid HTTP/1.1: Invalid HTTP version.'],
    ['a method HTTP does not have', 'FETCH /connections HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'The request is not valid HTTP/1.1: Invalid method encountered.'],
    ['Content-Length beside Transfer-Encoding', 'POST /Deposit HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400, /^The request is not valid HTTP\/1\.1: Transfer-Encoding can't be present with Content-Length\.$/],
    ['a query over the header limit', `GET /invoices?${ACME}&vendorName=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431, /^The request line and headers come to more than \d+ bytes, the most this server reads; a filter query is at most 8192 characters\.$/],
    ['headers over the limit', `GET /connections HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`, 431, /^The request line and headers come to more than \d+ bytes/],
    ['chunk extensions over their limit', `POST /Deposit HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1;${'e'.repeat(30_000)}\r\nx\r\n0\r\n\r\n`, 413, 'The chunk extensions of the request body are longer than this server reads.'],
    ['HTTP/1.1 without Host', 'GET /connections HTTP/1.1\r\n\r\n', 400, 'An HTTP/1.1 request names the server in a Host header, and this one has none.'],
    ['an expectation other than 100-continue', 'GET /connections HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n\r\n', 417, 'This server meets no expectation but "100-continue", not "teapot": send the request without that Expect header.'],
    ['CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 501, 'This server is not a proxy: it takes no CONNECT request.'],
    ['a path segment over the router\'s limit', `DELETE /businesses/${'n'.repeat(5000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 414, 'A segment of the path is longer than this server reads (4096 characters).'],
  ])('%s', async (_name, request, status, detail) => {
    const answers = await exchange(port, request);
    expect(answers).toHaveLength(1);
    const body = expectProblem(answers[0], status);
    expect(body.detail).toEqual(typeof detail === 'string' ? detail : expect.stringMatching(detail));
  });

  it('a request that does not arrive in full within the request timeout is a 408 problem', async () => {
    // The head of a request, never finished (nor the connection half-closed): Node gives up on it, and the app says why.
    const answers = await rawConnection(port, 'GET /connections HTTP/1.1\r\nHost: x\r\nX-Slow: ').closed;
    expect(answers).toHaveLength(1);
    expect(expectProblem(answers[0], 408).detail).toBe('The request did not arrive in full within 300 ms.');
  });

  it('a valid request on the same server is still answered as usual', async () => {
    const answers = await exchange(port, 'GET /connections?syncTime=gt:3600 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(answers.map((a) => [a.status, a.headers['content-type']])).toEqual([[200, 'application/json; charset=utf-8']]);
  });

  it('every error answer to bytes of any shape is a problem (property)', async () => {
    const token = fc.constantFrom('GET', 'POST', 'DELETE', 'HEAD', 'OPTIONS', 'CONNECT', 'PRI', 'get', 'FETCH', 'G T', '');
    const target = fc.oneof(
      fc.constantFrom('/connections', '/invoices?vendorName=%acme%', `/vendors?${ACME}&vendorName=%25a%25`, '/businesses/x', '*', 'http://x/connections', '/nowhere', '/%zz'),
      fc.string({ unit: 'binary', maxLength: 40 }),
    );
    const version = fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1x', 'http/1.1', '');
    const header = fc.oneof(
      fc.constantFrom('Host: x', 'Content-Length: 3', 'Content-Length: -1', 'Transfer-Encoding: chunked', 'Transfer-Encoding: gzip', 'Expect: 100-continue', 'Expect: x', 'Content-Type: application/json', 'Connection: upgrade', 'Upgrade: h2c'),
      fc.tuple(fc.string({ unit: 'binary', maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 20 })).map(([n, v]) => `${n}: ${v}`),
      fc.string({ unit: 'binary', maxLength: 30 }),
    );
    const request = fc
      .record({ method: token, target, version, headers: fc.array(header, { maxLength: 5 }), body: fc.string({ maxLength: 20 }), lineEnd: fc.constantFrom('\r\n', '\n') })
      .map(({ method, target, version, headers, body, lineEnd }) => `${method} ${target} ${version}${lineEnd}${headers.map((h) => h + lineEnd).join('')}${lineEnd}${body}`)
      // Then a request that closes the connection once answered, unless the first one made the server close it (or
      // swallowed it as a body: then the request timeout closes it).
      .map((request) => Buffer.from(`${request}GET /connections HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 'utf8'));
    await fc.assert(
      fc.asyncProperty(request, async (bytes) => {
        for (const answer of await exchange(port, bytes)) {
          if (answer.status < 400) continue;
          expect(answer.headers['content-type'], `${answer.status} to ${JSON.stringify(bytes.toString('latin1'))}`).toMatch(/^application\/problem\+json/);
          expect(JSON.parse(answer.body)).toMatchObject({ status: answer.status });
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('a connection that sends nothing', () => {
  it('is closed, unanswered, after the request timeout', async () => {
    const { app, port } = await listen(new MemoryStore({}), { requestTimeoutMs: 300 });
    try {
      expect(await rawConnection(port).closed).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('does not hold a stopping server open (Node closes neither it nor, once closing, times it out)', async () => {
    // A request timeout no test waits for: only the server's stop can close this connection.
    const { app, port } = await listen(new MemoryStore({}), { requestTimeoutMs: 600_000 });
    const silent = rawConnection(port);
    await new Promise((resolve) => silent.socket.once('connect', resolve));
    await exchange(port, 'GET /connections HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await app.close();
    expect(await silent.closed).toEqual([]);
  });
});

describe('a request behind another on one connection (pipelined)', () => {
  it('a malformed request is answered after the one before it, in order', async () => {
    const { store, inFind, release } = heldStore();
    const { app, port } = await listen(store);
    try {
      const connection = rawConnection(port, 'GET /connections HTTP/1.1\r\nHost: x\r\n\r\n');
      await inFind;
      // Refused by Node's parser while the first answer waits for the store.
      connection.write('GET /connections HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(connection.answers()).toEqual([]);
      release();
      const answers = await connection.closed;
      expect(answers.map((a) => a.status)).toEqual([200, 400]);
      expect(expectProblem(answers[1], 400).detail).toBe('The request is not valid HTTP/1.1: Invalid header token.');
    } finally {
      await app.close();
    }
  });
});

describe('a handler that does not answer in time', () => {
  it('is a 503 problem with Retry-After', async () => {
    const never = new Promise<never>(() => {});
    const store: Store = { find: () => never, insert: () => never, remove: () => never };
    const { app, port } = await listen(store, { answerTimeoutMs: 200 });
    try {
      const [answer, ...more] = await exchange(port, 'GET /connections HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      expect(more).toEqual([]);
      expect(expectProblem(answer, 503)).toMatchObject({ detail: 'The server is busy: it could not answer within 200 ms. Send the request again in 1 s.', instance: '/connections' });
      expect(answer!.headers['retry-after']).toBe('1');
    } finally {
      await app.close();
    }
  });
});

// parseAnswers reads what the tests above read: held to its own two framings.
describe('parseAnswers', () => {
  it('reads answers framed by content-length and chunked, and leaves out an incomplete one', () => {
    const data = Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nokHTTP/1.1 417 Expectation Failed\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\nHTTP/1.1 400 Bad\r\ncontent-length: 9\r\n\r\nabc');
    expect(parseAnswers(data)).toEqual([
      { status: 200, headers: { 'content-length': '2' }, body: 'ok' },
      { status: 417, headers: { 'transfer-encoding': 'chunked' }, body: 'abcde' },
    ]);
  });
});
