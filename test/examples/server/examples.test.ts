import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_REQUESTS } from '../../../examples/server/examples';
import { startServer, type TestServer } from '../../support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('the example requests printed at start', () => {
  it.each(EXAMPLE_REQUESTS.map((e) => [e.path, e]))('%s answers as its note says', async (_, example) => {
    const response = await server.request(example.path);
    expect(response.status).toBe(example.status);
    const body = (await response.json()) as { pagination?: { count: number } };
    // A good example that finds nothing would teach nothing.
    if (example.status === 200) expect(body.pagination!.count).toBeGreaterThan(0);
  });
});
