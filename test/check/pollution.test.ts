import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Issue 23, item 4: a prototype polluted before the first check() (before the package is
// even imported) made Chevrotain throw while building the lexer and parser ("e[t].push
// is not a function"), and names of our own optional properties (`param`, `removed`…)
// read as set. A fresh process for each run: the lexer and parser are built once per process.

const CHILD = fileURLToPath(new URL('../support/polluted-child.ts', import.meta.url));
const MODULES = {
  src: fileURLToPath(new URL('../../src/index.ts', import.meta.url)),
  dist: fileURLToPath(new URL('../../dist/index.js', import.meta.url)),
};

/**
 * Keys set on both Object.prototype and Array.prototype: array indexes (which Chevrotain's
 * sparse maps read), Chevrotain's token properties, the optional properties of the
 * package's own records, and the options of its functions and the SQL targets' optional
 * properties (each read from what the caller passed alone), and those of cursor paging: a
 * request's `after`, a filter's `caseInsensitive` and `page.cursor`, the client builder's
 * `limit` and `after` (issue 32; `offset`, which tsx reads as it loads a module, below). Not here: names Node itself reads while loading a module
 * (`get`, `set`, `value`, `path`, `then`, `length`), which break any program, and
 * `CATEGORIES`, which breaks Chevrotain's own module before any code of ours runs.
 */
const KEYS = ['alias', 'after', 'page', 'limit', 'key', 'schema', 'values', 'caseInsensitive', 'codegen', 'limits', 'params', 'typed', 'document', 'table', 'arrays', 'columns', 'firstParam', 'tieBreaker', 'caseFolding', 'title', 'instance', 'maxDiagnostics', 'style', '0', '1', '2', '3', '5', '34', '59', '65', '256', '768', '1536', 'param', 'problems', 'omitted', 'stopped', 'sort', 'partial', 'removed', 'required', 'sortable', 'array', 'sortParam', 'paging', 'GROUP', 'PUSH_MODE', 'POP_MODE', 'LONGER_ALT', 'LABEL', 'PATTERN', 'categoryMatches', 'isParent', 'cursor', 'codec', 'code'];

function run(module: string, when: 'before' | 'imported' | 'after' | 'never', keys: readonly string[] = KEYS): unknown {
  const out = execFileSync(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify({ module, when, keys })], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return JSON.parse(out) as unknown;
}

describe.each(Object.entries(MODULES))('a polluted prototype changes nothing (%s)', (_name, module) => {
  const clean = run(module, 'never');

  it('polluted before the import and the first check', () => {
    expect(run(module, 'before')).toEqual(clean);
  });

  it('polluted after the first check', () => {
    expect(run(module, 'after')).toEqual(clean);
  });

  it('Array.prototype[0] alone, before the first check (as the issue found it)', () => {
    expect(run(module, 'before', ['0'])).toEqual(clean);
  });
});

// Node reads `get` and `set` itself while loading a module, so they can only be added once
// the package is loaded; and tsx's transform of src/ names functions with descriptors
// that inherit them, so only the published build is held to it. The first check hides
// them while it builds the lexer, and must put both back as they were.
describe('get and set, added between the import and the first check (dist)', () => {
  it('change nothing, and stay on both prototypes', () => {
    expect(run(MODULES.dist, 'imported', ['get', 'set'])).toEqual(run(MODULES.dist, 'never'));
  });
});

// Issue 32: the client builder wrote an `offset` found on Object.prototype into every query.
// tsx reads `offset` itself while it loads a module, so it is added once the package is loaded.
describe('offset, added between the import and the first check (dist)', () => {
  it('changes nothing', () => {
    expect(run(MODULES.dist, 'imported', ['offset', 'limit', 'after', 'caseInsensitive'])).toEqual(run(MODULES.dist, 'never'));
  });
});
