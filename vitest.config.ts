import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Property suites run thousands of cases: on a loaded 2-core CI machine the default
    // 5 s per test is too close for comfort. Time is never what a test asserts.
    testTimeout: 30_000,
    typecheck: {
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
  },
});
