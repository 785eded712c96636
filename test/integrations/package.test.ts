import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { startExpress, startFastify, startHono } from './servers';
import { adapterSuite } from './suite';

const root = fileURLToPath(new URL('../../', import.meta.url));
const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
  exports: Record<string, Record<string, Record<string, string>>>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  devDependencies: Record<string, string>;
};

const ADAPTERS = { fastify: ['qsfilter'], express: ['filterQuery'], hono: ['filterQuery', 'filterRoute'] } as const;
const FRAMEWORKS = /["'](fastify|express|hono)(\/[^"']*)?["']/;

/** A module of dist/ and the modules of dist/ it imports, transitively, but for the main entry. */
function localModules(file: string): string[] {
  const seen = new Set([file]);
  for (const module of seen) {
    const source = readFileSync(`${root}dist/${module}`, 'utf8');
    for (const [, imported] of source.matchAll(/(?:from|import|require\()\s*"\.\/([^"]+)"/g)) {
      if (!/^index\.c?js$/.test(imported!)) seen.add(imported!);
    }
  }
  return [...seen];
}

describe('the adapter subpaths of the built package', () => {
  it.each(Object.keys(ADAPTERS))('qsfilter/%s: in the exports map, types first, for import and require', (name) => {
    const entry = pkg.exports[`./${name}`]!;
    expect(entry).toEqual({
      import: { types: `./dist/${name}.d.ts`, default: `./dist/${name}.js` },
      require: { types: `./dist/${name}.d.cts`, default: `./dist/${name}.cjs` },
    });
    for (const target of Object.values(entry)) for (const file of Object.values(target)) readFileSync(`${root}${file}`);
  });

  it('imports each subpath as an ES module and requires it as CommonJS, with the same names', async () => {
    const esm: Record<string, Record<string, unknown>> = {
      fastify: await import('qsfilter/fastify'),
      express: await import('qsfilter/express'),
      hono: await import('qsfilter/hono'),
    };
    for (const [name, exported] of Object.entries(ADAPTERS)) {
      const cjs = require(`qsfilter/${name}`) as Record<string, unknown>;
      expect(require.resolve(`qsfilter/${name}`)).toBe(`${root}dist/${name}.cjs`);
      for (const module of [esm[name]!, cjs]) {
        expect(Object.keys(module).filter((k) => k !== 'default' && k !== '__esModule').sort(), name).toEqual([...exported]);
        for (const fn of exported) expect(typeof module[fn], `${name}.${fn}`).toBe('function');
      }
    }
  });

  it('shares the main entry: an adapter imports dist/index, it does not bundle a copy of the checker', () => {
    for (const name of Object.keys(ADAPTERS)) {
      for (const [file, main] of [
        [`${name}.js`, /from\s*"\.\/index\.js"/],
        [`${name}.cjs`, /require\("\.\/index\.cjs"\)/],
      ] as const) {
        // The ES adapters share their common part (integrations/adapter.ts) as a chunk: the
        // adapter is its file and the chunks it imports, up to the main entry.
        const sources = localModules(file).map((module) => [module, readFileSync(`${root}dist/${module}`, 'utf8')] as const);
        expect(sources.some(([, source]) => main.test(source)), file).toBe(true);
        // A diagnostic code is a string literal of the checker: none in an adapter.
        for (const [module, source] of sources) expect(source.includes('MALFORMED_ENCODING'), `${file}: ${module}`).toBe(false);
      }
    }
    const child = execFileSync(process.execPath, ['-e', 'require("qsfilter/express"); console.log(JSON.stringify(Object.keys(require.cache)))'], { cwd: root, encoding: 'utf8' });
    expect(JSON.parse(child)).toContain(`${root}dist/index.cjs`);
  });

  it('loads no framework from the main entry, in either format', () => {
    for (const file of ['index.js', 'index.cjs']) expect(readFileSync(`${root}dist/${file}`, 'utf8'), file).not.toMatch(FRAMEWORKS);
    const script = 'require("qsfilter"); console.log(JSON.stringify(Object.keys(require.cache)))';
    const loaded = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' })) as string[];
    expect(loaded.filter((path) => /node_modules[\\/](fastify|express|hono)[\\/]/.test(path))).toEqual([]);
    expect(loaded).toContain(`${root}dist/index.cjs`);
  });

  it('declares each framework an optional peer dependency, and a dev dependency for these tests', () => {
    for (const name of Object.keys(ADAPTERS)) {
      expect(pkg.peerDependencies[name], name).toBeDefined();
      expect(pkg.peerDependenciesMeta[name], name).toEqual({ optional: true });
      expect(pkg.devDependencies[name], name).toBeDefined();
    }
  });
});

// The built CommonJS adapters, over real HTTP: what a `require('qsfilter/…')` server runs.
adapterSuite('built qsfilter/fastify (CommonJS)', (options) => startFastify(require('qsfilter/fastify'), options));
adapterSuite('built qsfilter/express (CommonJS)', (options) => startExpress(express, require('qsfilter/express'), options));
adapterSuite('built qsfilter/hono (CommonJS)', (options) => startHono(require('qsfilter/hono'), options));
adapterSuite('built qsfilter/hono filterRoute (CommonJS)', (options) => startHono(require('qsfilter/hono'), options, 'route'));
