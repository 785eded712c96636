import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The tests that need a database server: the SQL suites (PGlite and real Postgres
 * servers), the example server's suites (its stores include a real server) and the
 * snippets of the README and docs/ (a Postgres server, and the example server on PGlite).
 * They form the `servers` project, whose global setup starts the servers; the packed
 * package is tested in `runtimes` (its files, and the smoke suite on Node) and
 * `platforms` (Bun, Deno, workerd, the browser entries and the playground in Chromium and
 * Firefox); the suites that run
 * the built `qsfilter` command in child processes, on inputs up to tens of megabytes, are
 * `command`; every other test is in `unit`, which starts nothing (`npm run test:unit`, the
 * quick loop): `test/sql/rounding.test.ts` among them, which reads no database.
 */
const NEEDS_SERVERS = ['test/sql/!(rounding).test.ts', 'test/examples/server/**/*.test.ts', 'test/docs.test.ts'];
/** The browsers: the playground (over the example server on its memory store) and the browser entries, in Chromium and Firefox; with them Bun, Deno and workerd. Node only drives them. */
const PLATFORMS = ['test/runtimes/edge.test.ts', 'test/runtimes/browsers.test.ts', 'test/examples/playground/**/*.test.ts'];
/** The packed tarball: its files and links, publint and are-the-types-wrong, and the smoke suite on Node. */
const PACKED = ['test/pack.test.ts', 'test/runtimes/node.test.ts'];
/** The command run as a user runs it: a process each, its streams, its sort spilled to disk. */
const COMMAND = ['test/cli/cli.test.ts', 'test/cli/hostile.test.ts', 'test/cli/sort.test.ts', 'test/cli/stream.test.ts'];

export default defineConfig({
  test: {
    // No test's time limit decides whether it passes: on a loaded machine a property suite
    // of thousands of cases is slower, not wrong (0: no limit). Time is never what a test
    // asserts; speed is measured in bench/.
    testTimeout: 0,
    hookTimeout: 0,
    // Vitest runs one worker per core but one: on a 2-core machine that is one worker,
    // which waits while Postgres, the HTTP servers, the command's processes and the
    // browsers work. A worker more than the cores overlaps those waits with other files'
    // work: on 2 cores, the servers and command projects took 204 s with 2 workers and
    // 186 s with 3; the unit project, which waits on nothing, 31–36 s either way.
    maxWorkers: availableParallelism() + 1,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // A worker imports the package once for all its files, not once a file: the import
          // was half of the quick loop's time (28 s of 49). No test leans on a fresh module:
          // those that pollute a prototype or wrap Function put it back, the cache tests use
          // fields of their own, and the suite passes in shuffled order. The same holds in
          // the servers and command projects (217 s → 204 s there).
          isolate: false,
          include: ['test/**/*.test.ts'],
          exclude: [...NEEDS_SERVERS, ...PACKED, ...COMMAND, ...PLATFORMS, 'test/runtimes/**'],
          typecheck: { include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
        },
      },
      {
        extends: true,
        test: {
          name: 'servers',
          isolate: false,
          include: NEEDS_SERVERS,
          // Real Postgres servers for the SQL suites, beside PGlite (or DATABASE_URL's).
          globalSetup: ['test/support/postgres-server.ts'],
        },
      },
      {
        extends: true,
        test: {
          // The packed package (test/pack.test.ts, and the smoke suite of test/runtimes/), on
          // the Node that runs the tests: CI runs it on each Node major.
          name: 'runtimes',
          include: PACKED,
        },
      },
      {
        extends: true,
        test: {
          name: 'command',
          isolate: false,
          include: COMMAND,
        },
      },
      {
        extends: true,
        test: {
          // The smoke suite on Bun, Deno and workerd (from npm, cached outside the clone),
          // the browser entries and the playground in Chromium and Firefox: what runs there does not
          // depend on the Node that drives it, so CI runs this project once (.ci/run).
          name: 'platforms',
          include: PLATFORMS,
        },
      },
    ],
  },
});
