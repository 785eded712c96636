import { validate as validateOpenApi } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../examples/server/app';
import { openApiDocument } from '../../../examples/server/routes/openapi';
import { MemoryStore } from '../../../examples/server/store/memory';
import { collections } from '../../../examples/server/resources';
import type { OpenApiParameter } from '../../../src/index';
import { exampleQuery } from '../../support/openapi';
import { getProblem, startServer, type TestServer } from '../../support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

type Operation = { parameters?: OpenApiParameter[]; responses: Record<string, { content?: Record<string, unknown> }> };
type Document = { paths: Record<string, Record<string, Operation>> };

/**
 * The operations an app serves, `METHOD /path/{param}`, read from Fastify's route tree
 * (`printRoutes` without common prefixes: one line per path, its methods in parentheses,
 * nested four characters a level). HEAD is Fastify's own answer to every GET.
 */
function servedOperations(tree: string): string[] {
  const prefixes: string[] = [];
  const operations: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^(.*?)(\/\S*)(?: \(([^)]*)\))?$/.exec(line);
    if (match === null) continue;
    const depth = match[1]!.length / 4;
    prefixes.length = depth;
    const path = (prefixes[depth - 1] ?? '') + match[2]!;
    prefixes.push(path);
    for (const method of (match[3] ?? '').split(', ').filter((m) => m !== '' && m !== 'HEAD')) operations.push(`${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
  }
  return operations.sort();
}

async function servedDocument(): Promise<Document> {
  const response = await server.request('/openapi.json');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return (await response.json()) as Document;
}

/** The values the required request parameters get: the connection of the sample data, a monthly report. */
const REQUIRED: Record<string, string> = { businessName: 'Acme & Sons', serviceName: 'quickbooks', reportFrequency: 'month' };

describe('GET /openapi.json', () => {
  it('serves the document generated from the collections\' schemas, and a maintained OpenAPI 3.1 validator accepts it', async () => {
    const document = await servedDocument();
    expect(document).toEqual(JSON.parse(JSON.stringify(openApiDocument({ caseInsensitive: true }))));
    const result = await validateOpenApi(structuredClone(document) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    for (const name of Object.keys(collections)) expect(document.paths[`/${name}`]?.get, name).toBeDefined();
  });

  // Issue 23, item 9: POST /Deposit, POST /businesses and DELETE /businesses/{businessName}
  // were served but not described.
  it('describes every operation the app serves, and no other', async () => {
    const app = buildApp({ store: new MemoryStore({}), logStream: { write: () => true } });
    await app.ready();
    const served = servedOperations(app.printRoutes({ commonPrefix: false }));
    await app.close();
    expect(served).toEqual(expect.arrayContaining(['POST /Deposit', 'POST /businesses', 'DELETE /businesses/{businessName}', 'GET /invoices']));
    const document = await servedDocument();
    const described = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
    expect(described.sort()).toEqual(served);
  });

  it('describes each error answer as problem+json, and the bodies the write routes take', async () => {
    const document = await servedDocument();
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (Number(status) >= 400) expect(Object.keys(response.content ?? {}), `${method} ${path} ${status}`).toEqual(['application/problem+json']);
        }
      }
    }
    const deposit = document.paths['/Deposit']!.post as unknown as { requestBody: { content: Record<string, { schema: { properties: object } }> }; responses: object };
    expect(Object.keys(deposit.requestBody.content['application/json']!.schema.properties)).toEqual(['memo', 'postedDate', 'lines']);
    expect(Object.keys(deposit.responses)).toEqual(['201', '400', '413', '415', '503']);
    expect(Object.keys(document.paths['/businesses']!.post!.responses)).toEqual(['201', '400', '409', '415', '503']);
    expect(Object.keys(document.paths['/businesses/{businessName}']!.delete!.responses)).toEqual(['204', '400', '404', '503']);
  });

  it('says what this server does: text compares case-insensitively', async () => {
    const vendorName = (await servedDocument()).paths['/vendors']!.get!.parameters!.find((p) => p.name === 'vendorName')!;
    expect(vendorName.description).toContain('(case-insensitive)');
  });

  it('documents examples the server accepts: each one, sent with the required parameters, is a 200', async () => {
    const document = await servedDocument();
    let tried = 0;
    for (const [path, { get }] of Object.entries(document.paths)) {
      if (get?.parameters === undefined) continue;
      const required = get.parameters.filter((p) => p.required);
      for (const p of required) expect(REQUIRED, `${path} requires ${p.name}`).toHaveProperty(p.name);
      const base = required.map((p) => `${p.name}=${encodeURIComponent(REQUIRED[p.name]!)}`);
      for (const parameter of get.parameters.filter((p) => p.example !== undefined)) {
        const query = [...base, exampleQuery(parameter)].join('&');
        const response = await server.request(`${path}?${query}`);
        expect(response.status, `${path}?${query}: ${await response.text()}`).toBe(200);
        tried++;
      }
      // Without its required parameters, the server refuses the request as the document says.
      if (required.length > 0) expect((await getProblem(server, path)).body.errors.map((e) => e.code)).toContain('MISSING_PARAMETER');
    }
    expect(tried).toBeGreaterThan(50);
  });
});
