import { createRequire } from 'node:module';
import * as source from '../../src/index';

/**
 * The package three ways: `src/` as the tests import it, and the built `dist/` as an app
 * loads it, as an ES module and as CommonJS (issue 31: what ships is what is tested).
 * Suites that state the language (the conformance vectors, the parser's and the
 * checker's properties) run on each. `npm test` and `npm run test:unit` build `dist/`
 * first.
 */
export type Package = typeof source;

const require = createRequire(import.meta.url);

/** `[name, package]` pairs, for `describe.each`. */
export const BUILDS: readonly (readonly [string, Package])[] = [
  ['src', source],
  ['dist, ES module', (await import('../../dist/index.js')) as Package],
  ['dist, CommonJS', require('../../dist/index.cjs') as Package],
];
