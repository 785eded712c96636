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
});

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

  // Issue 34, item 4: the docs a user reads in node_modules link only to what ships. Every
  // relative link of every page of the installed package is followed: to a file (or a
  // folder) it ships, and, with a #fragment, to a heading or an id of that page. Links
  // to other sites are not followed (the tests run offline).
  it('follows every link of its docs to a file it ships, and to the heading it names', () => {
    const installed = join(app, 'node_modules', 'qsfilter');
    const pages = files.filter((f) => /\.(md|html)$/.test(f));
    expect(pages).toEqual(expect.arrayContaining(['README.md', 'docs/README.md', 'docs/servers.md', 'grammar/reference.md', 'grammar/diagrams.html']));
    const anchors = new Map(pages.map((page) => [page, anchorsOf(readFileSync(join(installed, page), 'utf8'), page.endsWith('.html'))]));
    const broken: string[] = [];
    let followed = 0;
    for (const page of pages) {
      for (const target of linksOf(readFileSync(join(installed, page), 'utf8'), page.endsWith('.html'))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        followed++;
        const [file = '', fragment] = target.split('#');
        const path = file === '' ? page : posix.normalize(posix.join(posix.dirname(page), decodeURIComponent(file))).replace(/\/$/, '');
        if (!files.includes(path) && !files.some((f) => f.startsWith(`${path}/`))) broken.push(`${page} -> ${target}: ${path} is not in the package`);
        else if (fragment !== undefined && !anchors.get(path)?.has(decodeURIComponent(fragment))) broken.push(`${page} -> ${target}: ${path} has no such heading`);
      }
    }
    expect(broken).toEqual([]);
    // The pages do link to one another (a parser that found nothing would pass the above).
    expect(followed).toBeGreaterThan(100);
  });

  it('passes publint --strict and are-the-types-wrong, node10 (typesVersions) included', () => {
    expect(run(process.execPath, [join(root, 'node_modules', 'publint', 'src', 'cli.js'), '--strict', tarball], scratch)).toMatch(/All good!/);
    const attw = join(root, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js');
    // No network: the package carries its types, so DefinitelyTyped has nothing to add.
    const report = JSON.parse(run(process.execPath, [attw, tarball, '--format', 'json', '--no-definitely-typed'], scratch)) as {
      analysis: { entrypoints: Record<string, { resolutions: Record<string, { resolution?: { fileName: string } }> }> };
      problems: Record<string, unknown>;
    };
    expect(report.problems).toEqual({});
    const entries = report.analysis.entrypoints;
    expect(Object.keys(entries)).toEqual(expect.arrayContaining(['.', './client', './fastify', './express', './hono']));
    for (const entry of ['.', './client', './fastify', './express', './hono']) {
      for (const mode of ['node10', 'node16-cjs', 'node16-esm', 'bundler']) {
        expect(entries[entry]!.resolutions[mode]?.resolution?.fileName, `${entry} under ${mode}`).toMatch(/\/dist\/[a-z]+\.d\.c?ts$/);
      }
    }
  });

  it('ships source maps that lead to src/ by file and line, without the sources\' text', () => {
    const maps = files.filter((f) => f.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(0);
    for (const file of maps) {
      const map = JSON.parse(readFileSync(join(app, 'node_modules', 'qsfilter', file), 'utf8')) as { sourcesContent?: unknown };
      expect(map.sourcesContent, file).toBeUndefined();
    }
    const index = JSON.parse(readFileSync(join(app, 'node_modules', 'qsfilter', 'dist', 'index.cjs.map'), 'utf8')) as { sources: string[] };
    expect(index.sources).toEqual(expect.arrayContaining(['../src/index.ts', '../src/check/check.ts']));
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

  // Typed for real: a wrong call must fail to compile (an `any` would let it through). As
  // an ES module, and from a CommonJS file (the "require" condition and the .d.cts files).
  const IMPORTS = `import { check, defineSchema, type Filter } from 'qsfilter';
    import { query, invoices } from 'qsfilter/client';`;
  const REQUIRES = `import qsfilter = require('qsfilter');
    import client = require('qsfilter/client');
    const { check, defineSchema } = qsfilter;
    const { query, invoices } = client;
    type Filter = qsfilter.Filter;`;
  const TYPED = `
    const schema = defineSchema({ fields: { amount: 'number', name: 'string' } });
    const result = check('amount=gte:1', schema);
    const filter: Filter | undefined = result.ok ? result.value : undefined;
    // @ts-expect-error check needs a schema
    check('amount=1');
    const sent: string = query(invoices).where('totalAmount', 'gte', 100).toString();
    // @ts-expect-error not a path of invoices
    query(invoices).where('totalAmont', 'gte', 100);
    export { filter, sent };`;

  it.each([
    ['node16', { module: 'node16', moduleResolution: 'node16' }, ['typed.ts', 'typed.cts']],
    ['nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }, ['typed.ts', 'typed.cts']],
    ['bundler', { module: 'esnext', moduleResolution: 'bundler' }, ['typed.ts']],
    // (node10, through `typesVersions`, is are-the-types-wrong's to check, above.)
  ])('typechecks qsfilter and qsfilter/client from TypeScript with moduleResolution %s', (name, options, sources) => {
    writeFileSync(join(app, 'typed.ts'), IMPORTS + TYPED);
    writeFileSync(join(app, 'typed.cts'), REQUIRES + TYPED);
    // The package's .d.ts files are checked (skipLibCheck: false); TypeScript's own lib
    // files are not ours to check, and were half of each run's time.
    const config = { compilerOptions: { ...options, target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, skipDefaultLibCheck: true, types: [] }, files: sources };
    writeFileSync(join(app, `tsconfig.${name}.json`), JSON.stringify(config));
    expect(() => run(process.execPath, [tsc, '-p', `tsconfig.${name}.json`], app)).not.toThrow();
  });
});

/** The link targets of a page, outside its code: Markdown links and images, and HTML `href` and `src`. */
function linksOf(text: string, html: boolean): string[] {
  const prose = html ? text : withoutCode(text);
  const links = [...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  for (const [, target] of prose.matchAll(/\s(?:href|src)="([^"]+)"/g)) links.push(target!);
  return links;
}

/** A Markdown text without its fenced blocks, which hold code, not links or headings. */
function withoutFences(text: string): string {
  return text.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** A Markdown text without its fenced blocks and code spans. */
function withoutCode(text: string): string {
  return withoutFences(text).replace(/(`+)[^`][\s\S]*?\1/g, '');
}

/** The fragments a link may name on a page: its headings, as GitHub makes them anchors, and its ids. */
function anchorsOf(text: string, html: boolean): Set<string> {
  const anchors = new Set([...text.matchAll(/\s(?:id|name)="([^"]+)"/g)].map((m) => m[1]!));
  if (html) return anchors;
  const seen = new Map<string, number>();
  for (const [, heading] of withoutFences(text).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = heading!.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}
