import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Issue 14, item 14: the package as a user gets it. The repository's files (as a fresh
// clone has them: no dist/) are copied to a scratch directory and packed there, which
// runs `prepack` (the build); the tarball is installed offline in a scratch project that
// imports it as an ES module, as CommonJS, and from TypeScript (node16 and bundler).

const root = fileURLToPath(new URL('../', import.meta.url));
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
let scratch: string;
let tarball: string;
let files: string[];
let app: string;

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'qsfilter-pack-'));
  // A fresh clone: the tracked files (and new ones not yet committed), without dist/.
  const clone = join(scratch, 'clone');
  const tracked = run('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], root).split('\0').filter((f) => f !== '');
  for (const file of tracked) {
    if (!existsSync(join(root, file))) continue; // deleted in the work tree
    mkdirSync(dirname(join(clone, file)), { recursive: true });
    copyFileSync(join(root, file), join(clone, file));
  }
  expect(existsSync(join(clone, 'dist'))).toBe(false);
  symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'), 'dir');

  // The build's own output comes first on stdout; npm's JSON report starts at a line "[".
  const output = run('npm', ['pack', '--json', '--pack-destination', scratch], clone);
  const packed = JSON.parse(output.slice(output.search(/^\[$/m))) as { filename: string; files: { path: string }[] }[];
  tarball = join(scratch, packed[0]!.filename);
  files = packed[0]!.files.map((f) => f.path).sort();

  app = join(scratch, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'scratch-app', private: true, type: 'module' }));
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], app);
}, 240_000);

afterAll(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

describe('npm pack in a fresh clone', () => {
  it('builds dist/ (prepack) and ships it, the licences, and what a user needs of grammar/', () => {
    for (const file of ['LICENSE', 'README.md', 'package.json', 'dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/index.d.cts', 'dist/cli.js', 'dist/cli-main.js']) {
      expect(files).toContain(file);
    }
    for (const file of ['dist/index.js.map', 'dist/index.cjs.map', 'dist/cli.js.map', 'dist/THIRD_PARTY_LICENSES.txt']) expect(files).toContain(file);
    for (const file of ['grammar/filter.abnf', 'grammar/README.md', 'grammar/reference.md', 'grammar/diagrams.html', 'grammar/vectors/syntax.json']) {
      expect(files).toContain(file);
    }
  });

  // Issue 23: links inside the package stay relative, so each must reach a file it ships;
  // a link to the repository's other files (src/, test/, examples/) must reach one there.
  it('ships every file that its README and docs link to, and the others exist in the repository', () => {
    const broken: string[] = [];
    for (const page of files.filter((f) => f === 'README.md' || /^docs\/.*\.md$/.test(f))) {
      const text = readFileSync(join(root, page), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:|^#/.test(target!)) continue;
        const path = posix.normalize(posix.join(posix.dirname(page), target!.replace(/#.*$/, ''))).replace(/\/$/, '');
        const shipped = files.includes(path) || files.some((f) => f.startsWith(`${path}/`));
        const ofThePackage = /^(docs|grammar|dist)(\/|$)|^bench\/RESULTS\.md$|^README\.md$/.test(path);
        if (!shipped && (ofThePackage || !existsSync(join(root, path)))) broken.push(`${page} -> ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('ships no source, no script that imports it, and no build leftovers', () => {
    expect(files.filter((f) => !/^(dist|grammar|docs)\/|^(LICENSE|README\.md|package\.json|bench\/RESULTS\.md)$/.test(f))).toEqual([]);
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    expect(files.filter((f) => f.includes('metafile'))).toEqual([]);
  });

  it("names chevrotain's Apache-2.0 licence with the version bundled, and nothing of lodash (gone in Chevrotain 13)", () => {
    const notices = readFileSync(join(app, 'node_modules', 'qsfilter', 'dist', 'THIRD_PARTY_LICENSES.txt'), 'utf8');
    const { version } = JSON.parse(readFileSync(join(root, 'node_modules', 'chevrotain', 'package.json'), 'utf8')) as { version: string };
    expect(version).toMatch(/^13\./);
    expect(notices).toContain(`- chevrotain ${version} (Apache-2.0)`);
    expect(notices).not.toMatch(/lodash/i);
    expect(notices).toContain('Apache License\n                           Version 2.0, January 2004');
    expect(readFileSync(join(app, 'node_modules', 'qsfilter', 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
  });
});

describe('the installed package', () => {
  const QUERY = 'vendorName=%25acme%25&balance=gte:100';
  const EXPECTED = `${QUERY} vendorName,balance`;

  it('imports as an ES module', () => {
    writeFileSync(
      join(app, 'esm.mjs'),
      `import { check, format, vendors } from 'qsfilter';
       import { createRequire } from 'node:module';
       const result = check(${JSON.stringify(QUERY)}, vendors);
       if (!result.ok) throw new Error('refused');
       const vectors = createRequire(import.meta.url)('qsfilter/grammar/vectors/syntax.json');
       if (!(vectors.vectors.length > 0)) throw new Error('no vectors');
       console.log(format(result.value), result.value.conditions.map((c) => c.key).join(','));`,
    );
    expect(run(process.execPath, ['esm.mjs'], app).trim()).toBe(EXPECTED);
  });

  it('requires as CommonJS', () => {
    writeFileSync(
      join(app, 'cjs.cjs'),
      `const { check, format, vendors } = require('qsfilter');
       const result = check(${JSON.stringify(QUERY)}, vendors);
       if (!result.ok) throw new Error('refused');
       console.log(format(result.value), result.value.conditions.map((c) => c.key).join(','));`,
    );
    expect(run(process.execPath, ['cjs.cjs'], app).trim()).toBe(EXPECTED);
  });

  it('runs its command', () => {
    expect(run(process.execPath, [join(app, 'node_modules', '.bin', 'qsfilter'), 'check', QUERY, '--resource', 'vendors'], app)).toContain('Matches the items');
  });

  // Typed for real: a wrong call must fail to compile (an `any` would let it through).
  const TYPED = `import { check, defineSchema, type Filter } from 'qsfilter';
    const schema = defineSchema({ fields: { amount: 'number', name: 'string' } });
    const result = check('amount=gte:1', schema);
    const filter: Filter | undefined = result.ok ? result.value : undefined;
    // @ts-expect-error check needs a schema
    check('amount=1');
    export { filter };`;

  it.each([
    ['node16', { module: 'node16', moduleResolution: 'node16' }, ['typed.ts', 'typed.cts']],
    ['bundler', { module: 'esnext', moduleResolution: 'bundler' }, ['typed.ts']],
  ])('typechecks from TypeScript with moduleResolution %s', (name, options, sources) => {
    writeFileSync(join(app, 'typed.ts'), TYPED);
    // From a CommonJS file, the "require" condition and index.d.cts.
    writeFileSync(join(app, 'typed.cts'), TYPED.replace("import { check, defineSchema, type Filter } from 'qsfilter';", "import qsfilter = require('qsfilter');\n    const { check, defineSchema } = qsfilter;\n    type Filter = qsfilter.Filter;"));
    const config = { compilerOptions: { ...options, target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, types: [] }, files: sources };
    writeFileSync(join(app, `tsconfig.${name}.json`), JSON.stringify(config));
    expect(() => run(process.execPath, [tsc, '-p', `tsconfig.${name}.json`], app)).not.toThrow();
  }, 120_000);
});
