import { afterAll, beforeAll, describe } from 'vitest';
import { startServer, type TestServer } from './server';

/**
 * Runs a suite against the example server over each store: in memory (`compile`) and in
 * an embedded PGlite (`toSql`, and Postgres's own refusals: NUL in text, lone
 * surrogates in jsonb). `current()` is the running server of the suite.
 */
export function describeEachStore(title: string, suite: (current: () => TestServer) => void): void {
  describe.each(['memory', 'pglite'] as const)(`${title} (%s store)`, (kind) => {
    let server: TestServer | undefined;
    // Loading the sample data into PGlite takes seconds on a loaded machine.
    beforeAll(async () => {
      server = await startServer(kind);
    });
    afterAll(() => server?.close());
    suite(() => {
      if (server === undefined) throw new Error('the server has not started');
      return server;
    });
  });
}
