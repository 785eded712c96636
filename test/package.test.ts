import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as client from '../src/client/index';
import * as source from '../src/index';
import { summarize } from './support/summary';

type Api = typeof source;

const root = new URL('../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
  type?: string;
  sideEffects?: unknown;
  main?: string;
  module?: string;
  types?: string;
  exports?: Record<string, unknown>;
  engines?: { node?: string };
  keywords?: string[];
};

/** The path of a built file; a missing build is a failure that says what to do, never a skip. */
function built(file: string): string {
  const path = fileURLToPath(new URL(file, root));
  if (!existsSync(path)) throw new Error(`${file} is missing: run \`npm run build\` first (\`npm test\` does).`);
  return path;
}

/** The newest modification time under a directory. */
function newest(dir: string): number {
  let time = 0;
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const stat = statSync(`${dir}/${entry}`);
    if (stat.isFile()) time = Math.max(time, stat.mtimeMs);
  }
  return time;
}

const QUERY = 'businessName=Acme&customerRef.id=42&totalAmount=gte:100;lte:200&vendorName=%25acme%25';
const EXPECTED = {
  filters: [
    { key: 'customerRef.id', path: ['customerRef', 'id'], clauses: [['eq', '42']] },
    { key: 'totalAmount', path: ['totalAmount'], clauses: [['gte', '100'], ['lte', '200']] },
    { key: 'vendorName', path: ['vendorName'], clauses: [['eq', ['', 'acme', '']]] },
  ],
  params: { businessName: 'Acme' },
};

function check(api: Api): void {
  const result = api.parse(QUERY, { params: ['businessName'] });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  expect(summarize(result.value)).toEqual(EXPECTED);
  expect(api.format(result.value)).toBe('businessName=Acme&customerRef.id=42&totalAmount=gte:100;lte:200&vendorName=%25acme%25');
  // The same public names as the source entry point, no more, no fewer.
  expect(Object.keys(api).sort()).toEqual(Object.keys(source).sort());
}

describe('the built package', () => {
  it('is not older than its sources', () => {
    const build = statSync(built('dist/index.js')).mtimeMs;
    expect(newest(fileURLToPath(new URL('src', root))) <= build, 'dist/ is older than src/: run `npm run build`').toBe(true);
  });

  it('works as an ES module: dist/index.js through import()', async () => {
    const api = (await import(built('dist/index.js'))) as Api;
    check(api);
  });

  it('works as CommonJS: dist/index.cjs through require()', () => {
    const api = createRequire(import.meta.url)(built('dist/index.cjs')) as Api;
    check(api);
  });

  it('has qsfilter/client, as an ES module and as CommonJS, building what the main entry checks', async () => {
    const esm = (await import(built('dist/client.js'))) as typeof client;
    const cjs = createRequire(import.meta.url)(built('dist/client.cjs')) as typeof client;
    for (const api of [esm, cjs]) {
      expect(Object.keys(api).sort()).toEqual(Object.keys(client).sort());
      const q = api.query(api.invoices).where('totalAmount', 'gte', 100).where('customerRef.id', 'eq', 42).orderBy('postedDate', 'desc');
      expect(q.toString()).toBe('orderBy=-postedDate&totalAmount=gte:100&customerRef.id=42');
      expect(source.check(q.toString(), source.invoices)).toEqual({ ok: true, value: q.toFilter() });
    }
  });

  it('names the query builder in messages, whatever the minifier called its class', async () => {
    const api = (await import(built('dist/index.js'))) as Api;
    expect(() => api.compile(api.query(api.vendors) as never)).toThrow(/^compile: the filter must be a Filter .*, not a QueryBuilder\.$/);
  });
});

describe('package.json', () => {
  it('is an ES module package without side effects', () => {
    expect(pkg.type).toBe('module');
    expect(pkg.sideEffects).toBe(false);
  });

  it('says in its keywords what it parses and what it plugs into', () => {
    expect(pkg.keywords).toEqual(expect.arrayContaining(['query-string', 'filter', 'openapi', 'postgres', 'fastify', 'express', 'hono', 'standard-schema']));
  });

  it('exports types first under each condition, and every file it names exists', () => {
    expect(Object.keys(pkg.exports ?? {})).toContain('./client');
    for (const entry of ['.', './client']) {
      const main = pkg.exports?.[entry] as Record<string, Record<string, string>>;
      expect(Object.keys(main).sort()).toEqual(['import', 'require']);
      for (const [condition, target] of Object.entries(main)) {
        // TypeScript takes the first matching condition: `types` must come before `default`.
        expect(Object.keys(target), condition).toEqual(['types', 'default']);
        built(target.types!);
        built(target.default!);
      }
      expect(main.import!.types).toMatch(/\.d\.ts$/);
      expect(main.require!.types).toMatch(/\.d\.cts$/);
    }
    for (const field of [pkg.main, pkg.module, pkg.types]) built(field!);
  });
});

// Reference §15: the package claims Node 22+ (20 reached its end of life in April 2026),
// and CI runs the tests on every major it claims: 22, 24 and 26.
describe('the supported Node versions', () => {
  it('are 22 and later, each tested by CI', () => {
    expect(pkg.engines?.node).toBe('>=22');
    const ci = readFileSync(fileURLToPath(new URL('.ci/run', root)), 'utf8');
    expect(/^MAJORS=\((.*)\)$/m.exec(ci)?.[1]).toBe('22 24 26');
  });
});

describe('the lockfile', () => {
  // Reference §15: `npm ci` succeeds on macOS and Linux arm64. npm refuses a package built
  // for another platform unless it is optional (as esbuild's are), so none may be required.
  it('requires no package built for one platform only', () => {
    const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as { packages: Record<string, { os?: string[]; cpu?: string[]; optional?: boolean }> };
    const bound = Object.entries(lock.packages).filter(([, p]) => (p.os !== undefined || p.cpu !== undefined) && p.optional !== true);
    expect(bound.map(([name]) => name)).toEqual([]);
  });

  it(`installs on this Node (${process.version}) without an engine warning`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'qsfilter-engines-'));
    try {
      for (const file of ['package.json', 'package-lock.json']) copyFileSync(fileURLToPath(new URL(file, root)), join(dir, file));
      // Its own log level: under `npm run -s`, the silence npm passes on would hide the plan.
      const env = { ...process.env, npm_config_loglevel: 'notice' };
      const npm = spawnSync('npm', ['ci', '--dry-run', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, env, encoding: 'utf8' });
      expect(npm.status).toBe(0);
      expect(npm.stdout).toMatch(/^add fastify /m);
      expect(npm.stderr).not.toContain('EBADENGINE');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
