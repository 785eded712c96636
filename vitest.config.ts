import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A real Postgres server for the SQL suites, beside PGlite (or DATABASE_URL's).
    globalSetup: ['test/support/postgres-server.ts'],
    // Property suites run thousands of cases: on a loaded 2-core CI machine the default
    // 5 s per test is too close for comfort. Time is never what a test asserts.
    testTimeout: 30_000,
    // Vitest runs one worker per core but one: on a 2-core machine that is one worker,
    // which waits while Postgres, the HTTP servers and the browser work. A worker per
    // core overlaps those waits with other files' work.
    maxWorkers: Math.max(2, availableParallelism()),
    typecheck: {
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
  },
});
