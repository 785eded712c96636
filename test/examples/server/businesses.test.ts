import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPage, getProblem, quotedOperand, startServer, type TestServer } from '../../support/server';
import { describeEachStore } from '../../support/stores';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

function post(name: unknown): Promise<Response> {
  return server.request('/businesses', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ businessName: name }) });
}

/** A request whose path is sent exactly as written: `fetch` would resolve "." and ".." segments first. */
function rawRequest(method: string, path: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(server.base);
    const request = httpRequest({ hostname, port, path, method }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, type: String(response.headers['content-type']), body }));
    });
    request.on('error', reject).end();
  });
}

function remove(encodedName: string): Promise<Response> {
  return server.request(`/businesses/${encodedName}`, { method: 'DELETE' });
}

async function names(): Promise<string[]> {
  return (await getPage<{ businessName: string }>(server, '/businesses?limit=500')).data.map((b) => b.businessName);
}

describe('businesses with special characters', () => {
  it.each([
    ['R&D; 100% "pure" + more/less'],
    ["O'Hara & Co"],
    ['Zoë 🍣 Café'],
    ['a+b'],
    ['semi;colon'],
    ['back\\slash'],
    ['?x#y=z'],
    ['%41 not A'],
    ['  spaced  '],
  ])('%j round-trips through POST, GET and DELETE', async (name) => {
    const created = await post(name);
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/businesses/${encodeURIComponent(name)}`);
    expect(((await created.json()) as { data: { businessName: string } }).data.businessName).toBe(name);

    const found = await getPage<{ businessName: string }>(server, `/businesses?businessName=${quotedOperand(name)}`);
    expect(found.data.map((b) => b.businessName)).toEqual([name]);

    expect((await remove(encodeURIComponent(name))).status).toBe(204);
    expect(await names()).not.toContain(name);
    const again = await remove(encodeURIComponent(name));
    expect(again.status).toBe(404);
  });

  it('deletes the sample businesses whose names used to fail', async () => {
    for (const name of ['Acme & Sons', "O'Brien; Partners", '100% Organic', 'A/B Testing Co.', 'Sushi 🍣 Bar', '"Quoted" Bistro']) {
      expect(await names()).toContain(name);
      expect((await remove(encodeURIComponent(name))).status).toBe(204);
      expect(await names()).not.toContain(name);
    }
  });

  it('reads a "+" in the path as a plus, not a space', async () => {
    expect((await post('x+y')).status).toBe(201);
    expect((await post('x y')).status).toBe(201);
    expect((await remove('x+y')).status).toBe(204);
    const left = await names();
    expect(left).toContain('x y');
    expect(left).not.toContain('x+y');
  });

  it('decodes the path once: %2541 names "%41", not "A"', async () => {
    expect((await post('A')).status).toBe(201);
    expect((await remove('%2541')).status).toBe(404);
    expect(await names()).toContain('A');
  });

  it.each([['%acme%'], ['%C3%28'], ['%E0%A4%A'], ['%ED%A0%80']])('answers a malformed path encoding (%s) with a 400 problem', async (segment) => {
    const { status, body } = await getProblem(server, `/businesses/${segment}`, { method: 'DELETE' });
    expect(status).toBe(400);
    expect(body.errors).toMatchObject([{ code: 'MALFORMED_ENCODING' }]);
    expect(body.errors[0]!.hint).toContain('%25');
  });

  it('answers a name that does not exist with a 404 problem naming it', async () => {
    const { status, body } = await getProblem(server, `/businesses/${encodeURIComponent('No & Such')}`, { method: 'DELETE' });
    expect(status).toBe(404);
    expect(body.detail).toBe('No business is named "No & Such".');
  });

  it('refuses a duplicate with 409, and bad names with 400', async () => {
    expect((await post('Twice')).status).toBe(201);
    expect((await post('Twice')).status).toBe(409);
    for (const bad of ['', 'x'.repeat(201), 'tab\there', 42, null, '\ud800']) {
      const response = await post(bad);
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
  });
});

// Issue 23, item 6: "." and ".." were created (Location: /businesses/..) and could not be
// deleted: a client resolves such a path segment away, and fetch (the URL standard) reads
// the encoded "%2E%2E" as ".." too. They are refused, by every route that takes a name.
describe('a business named "." or ".."', () => {
  it('cannot be reached through a URL path, encoded or not (why it is refused)', () => {
    for (const segment of ['..', '%2E%2E', '%2e.', '.', '%2E']) expect(new URL(`/businesses/${segment}`, server.base).pathname, segment).not.toMatch(/^\/businesses\/./);
  });

  it.each([['.'], ['..']])('%j is refused at creation with a 400 problem that says why', async (name) => {
    const response = await post(name);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await response.json()) as { errors: unknown }).errors).toEqual([
      { pointer: '/businessName', detail: expect.stringMatching(/^businessName cannot be "\." or "\.\.": a URL path reads those as /) },
    ]);
    expect(await names()).not.toContain(name);
  });

  it('is refused in a DELETE path sent as is (curl keeps "%2E%2E"), and as the connection of POST /Deposit', async () => {
    for (const segment of ['..', '%2E%2E', '%2e']) {
      const { status, type, body } = await rawRequest('DELETE', `/businesses/${segment}`);
      expect(status, segment).toBe(400);
      expect(type).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(body), segment).toMatchObject({ detail: expect.stringMatching(/^No business can be named "\.\.?": businessName cannot be/) });
    }
    const deposit = await server.request('/Deposit?businessName=..&serviceName=xero', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"lines":[{"amount":1}]}' });
    expect(deposit.status).toBe(400);
    expect(await deposit.json()).toMatchObject({ detail: expect.stringMatching(/^No business can be named "\.\.": businessName cannot be/) });
  });
});

// Issue 14, item 8: Postgres refuses NUL in text, and DELETE /businesses/%00 was a 500.
describeEachStore('names no business can have, in a DELETE path', (current) => {
  it.each([
    ['%00', '%00'],
    ['a%00b', 'a%00b'],
    ['a tab', 'tab%09here'],
    ['201 characters', 'x'.repeat(201)],
  ])('%s is a 400 problem, and nothing is deleted', async (_, segment) => {
    const before = (await getPage(current(), '/businesses?limit=500')).pagination.count;
    const { status, body } = await getProblem(current(), `/businesses/${segment}`, { method: 'DELETE' });
    expect(status).toBe(400);
    expect(body.detail).toMatch(/^No business can be named .*: businessName must /);
    expect((await getPage(current(), '/businesses?limit=500')).pagination.count).toBe(before);
  });
});

// Issue 23, item 5: businessNameOrUuid was compared with a property of that name, which
// no business has: it never matched.
describeEachStore('GET /businesses?businessNameOrUuid', (current) => {
  async function found(value: string): Promise<{ names: string[]; meta: unknown }> {
    const page = await getPage<{ businessName: string }>(current(), `/businesses?businessNameOrUuid=${encodeURIComponent(value)}&limit=500`);
    return { names: page.data.map((b) => b.businessName).sort(), meta: (page as unknown as { meta: unknown }).meta };
  }

  it('finds a business by its UUID', async () => {
    const cafe = (await getPage<{ businessUuid: string }>(current(), `/businesses?businessName=${quotedOperand('Café Zoë')}`)).data[0]!;
    expect(cafe.businessUuid).toMatch(/^BIZ-/);
    expect(await found(cafe.businessUuid)).toEqual({ names: ['Café Zoë'], meta: { businessNameOrUuid: cafe.businessUuid } });
  });

  it('finds businesses by all or part of a name, case folded as the server compares text', async () => {
    expect((await found('Acme & Sons')).names).toEqual(['Acme & Sons']);
    expect((await found('café')).names).toEqual(['Café Zoë']);
    expect((await found('bISTRO')).names).toEqual(['"Quoted" Bistro']);
    expect((await found('s')).names.length).toBeGreaterThan(3);
  });

  it('reads "%", "\\" and ";" in the text as themselves, not as a wildcard or a separator', async () => {
    expect((await found('100%')).names).toEqual(['100% Organic']);
    expect((await found('%')).names).toEqual(['100% Organic']);
    expect((await found('k\\s')).names).toEqual(['Back\\slash Studio']);
    expect((await found("O'Brien; P")).names).toEqual(["O'Brien; Partners"]);
  });

  it('finds nothing for a text in no name and no UUID', async () => {
    expect((await found('no such business')).names).toEqual([]);
    expect((await found('BIZ-00000000-0000-4000-8000-000000000000')).names).toEqual([]);
    expect((await found('x'.repeat(300))).names).toEqual([]);
  });
});
