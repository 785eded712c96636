/** Starting Postgres in wasm takes seconds, more while other test files run. */
export const STARTUP_TIMEOUT = 120_000;
/** A test that loads data sets and runs hundreds of statements. */
export const TEST_TIMEOUT = 120_000;
