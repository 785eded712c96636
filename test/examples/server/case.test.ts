import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../examples/server/routes/openapi';
import { getPage, startServer, STORES, type TestServer } from '../../support/server';

// The server's case choice is given once, to the qsfilter/fastify plugin (buildApp's
// caseInsensitive, which CASE_SENSITIVE=1 turns off); the stores have no setting of their
// own and follow the filter they are handed. A store that ignored filter.caseInsensitive
// would answer one of the two servers of each pair below as the other.

/** The connection the requests read, as the API requires it. */
const ACME = 'businessName=Acme%20%26%20Sons&serviceName=quickbooks';

/** Names of the sample vendors that differ in case only where it matters: which of them a filter finds, and in what order. */
const CASED = ['ACME Logistics', 'acme-widgets.com', 'Café Zoë'];

async function names(server: TestServer, query: string): Promise<string[]> {
  return (await getPage<{ vendorName: string }>(server, `/vendors?${ACME}&${query}&limit=500`)).data.map((v) => v.vendorName);
}

describe.each(STORES)('the server\'s case choice reaches $label through the filter', (where) => {
  let folding: TestServer;
  let exact: TestServer;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const opened = await where.open();
    close = opened.close;
    // Two servers on the same data; a database store loads it once per server, into the same table only when empty.
    folding = await startServer(opened.kind, { caseInsensitive: true });
    exact = await startServer(opened.kind, { caseInsensitive: false });
  });
  afterAll(async () => {
    await Promise.all([folding?.close(), exact?.close()]);
    await close?.();
  });

  it('matches text with case folded only on the case-insensitive server', async () => {
    expect(await names(folding, 'vendorName=%25acme%25')).toEqual(['Acme & Sons', 'Acme Office Supplies', 'ACME Logistics', 'acme-widgets.com']);
    expect(await names(exact, 'vendorName=%25acme%25')).toEqual(['acme-widgets.com']);
    expect(await names(folding, 'vendorName=acme%20logistics')).toEqual(['ACME Logistics']);
    expect(await names(exact, 'vendorName=acme%20logistics')).toEqual([]);
  });

  it('sorts text with case folded only on the case-insensitive server', async () => {
    const sorted = async (server: TestServer) => (await names(server, 'vendorName=%25o%25&orderBy=vendorName')).filter((name) => CASED.includes(name));
    // Folded, "acme-widgets.com" sorts among the A's; by code point, lower case comes after every upper-case letter.
    expect(await sorted(folding)).toEqual(['ACME Logistics', 'acme-widgets.com', 'Café Zoë']);
    expect(await sorted(exact)).toEqual(['ACME Logistics', 'Café Zoë', 'acme-widgets.com']);
  });

  it('describes the choice in /openapi.json as it filters', async () => {
    for (const [server, caseInsensitive] of [
      [folding, true],
      [exact, false],
    ] as const) {
      const served = await (await server.request('/openapi.json')).json();
      expect(served).toEqual(JSON.parse(JSON.stringify(openApiDocument({ caseInsensitive }))));
    }
    expect(JSON.stringify(openApiDocument({ caseInsensitive: true }))).not.toEqual(JSON.stringify(openApiDocument({ caseInsensitive: false })));
  });
});
