import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The BUILT package, `dist/index.js`: what users import (bundled, minified chevrotain
 * included), not the TypeScript sources. The import goes through a computed URL so that
 * typechecking the bench does not need a build; the types are those of `src/`.
 */
type Qsfilter = typeof import('../../src/index');

export const DIST_ESM = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
export const DIST_CJS = fileURLToPath(new URL('../../dist/index.cjs', import.meta.url));

if (!existsSync(DIST_ESM) || !existsSync(DIST_CJS)) {
  throw new Error('bench: dist/ is missing; run "npm run build" first (npm run bench does).');
}

export const qsfilter = (await import(pathToFileURL(DIST_ESM).href)) as Qsfilter;
