import { validate as validateOpenApi } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../examples/server/routes/openapi';
import { collections } from '../../../examples/server/resources';
import type { OpenApiParameter } from '../../../src/index';
import { exampleQuery } from '../../support/openapi';
import { getProblem, startServer, type TestServer } from '../../support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

type Document = { paths: Record<string, { get: { parameters: OpenApiParameter[] } }> };

async function served(): Promise<Document> {
  const response = await server.request('/openapi.json');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return (await response.json()) as Document;
}

/** The values the required request parameters get: the connection of the sample data, a monthly report. */
const REQUIRED: Record<string, string> = { businessName: 'Acme & Sons', serviceName: 'quickbooks', reportFrequency: 'month' };

describe('GET /openapi.json', () => {
  it('serves the document generated from the collections\' schemas, and a maintained OpenAPI 3.1 validator accepts it', async () => {
    const document = await served();
    expect(document).toEqual(JSON.parse(JSON.stringify(openApiDocument({ caseInsensitive: true }))));
    const result = await validateOpenApi(structuredClone(document) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(Object.keys(document.paths).sort()).toEqual(Object.keys(collections).map((name) => `/${name}`).sort());
  });

  it('says what this server does: text compares case-insensitively', async () => {
    const vendorName = (await served()).paths['/vendors']!.get.parameters.find((p) => p.name === 'vendorName')!;
    expect(vendorName.description).toContain('(case-insensitive)');
  });

  it('documents examples the server accepts: each one, sent with the required parameters, is a 200', async () => {
    const document = await served();
    let tried = 0;
    for (const [path, { get }] of Object.entries(document.paths)) {
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
