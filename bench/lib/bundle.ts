import { build, transform, type Plugin } from 'esbuild';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/**
 * What a browser app pays for qsfilter (reference §11, README "Clients"): an app's entry
 * module bundled with esbuild, minified, for the browser, as an app's build would, and
 * measured gzipped (level 9). `test/client/bundle.test.ts` holds the budgets, and
 * `bench/bundle.bench.ts` reports the sizes and what makes them up.
 *
 * An app is bundled from the published files (`dist/`, through the package's `exports`:
 * a scratch `node_modules/qsfilter` links to this repository), or from `src/`, which
 * names the modules a bundle holds.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A string only Chevrotain's parser runtime holds: its error for a grammar it cannot build. */
export const CHEVROTAIN_MARK = 'Parser Definition Errors detected';

/** The whole client: `query` + `literal` + one catalog schema, from `qsfilter/client`. */
export const CLIENT_APP = `import { query, literal, invoices } from 'qsfilter/client';
console.log(query(invoices).where('totalAmount', 'gte', 100).where('customerRef.id', 'eq', literal('42')).toString());`;

/**
 * A browser module of a client that defines its own schema (from the main entry) and
 * builds queries (from `qsfilter/client`), and pre-checks a query only when asked: the
 * parser must load then, not before.
 */
export const DEFINE_AND_QUERY_APP = `import { defineSchema } from 'qsfilter';
import { query } from 'qsfilter/client';
const schema = defineSchema({ fields: { amount: { type: 'number', sortable: true }, name: 'string' } });
console.log(query(schema).where('amount', 'gte', 100).orderBy('amount', 'desc').toString());
document.querySelector('form')?.addEventListener('submit', async () => console.log(await schema['~standard'].validate(location.search)));`;

/** A pre-check in the browser: `check` + one catalog schema, from the main entry. */
export const CHECK_APP = `import { check, invoices } from 'qsfilter';
console.log(check(location.search, invoices));`;

/** The same with a schema of the app's own, which brings `defineSchema`'s checks along. */
export const CHECK_OWN_SCHEMA_APP = `import { check, defineSchema } from 'qsfilter';
console.log(check(location.search, defineSchema({ fields: { amount: 'number', name: 'string' } })));`;

/** Imports from the main entry that parse nothing: none of them may bring Chevrotain along. */
export const NOT_PARSING = ['DIAGNOSTIC_CODES', 'format', 'compile', 'toSql', 'sortItems', 'formatDiagnostics', 'toProblemDetails', 'openApiParameters'] as const;

/** An app that imports `names` from the main entry and uses them. */
export function importing(...names: string[]): string {
  return `import { ${names.join(', ')} } from 'qsfilter';\nconsole.log(${names.join(', ')});`;
}

/** What to leave out of a bundle: nothing, or Chevrotain (its chunk of `dist/`, or the package from `src/`). */
export type LeaveOut = 'nothing' | 'chevrotain';

/**
 * What an app loads before it runs. Bundled with code splitting (`split`, the default:
 * what Vite, Rollup, webpack and `esbuild --splitting` do), that is its entry chunk and
 * every chunk it imports statically, each gzipped as a server sends it; what it imports
 * dynamically (a schema's validate loads the checker and the parser on first use) is in
 * chunks loaded when asked for, which `lazy` counts. Bundled as one file (`single`: plain
 * `esbuild --bundle`, `bun build`), a dynamic import is inlined, and it is all loaded up
 * front.
 */
export interface Bundle {
  /** The code loaded up front, its files joined. */
  readonly text: string;
  readonly minified: number;
  readonly gzip: number;
  /** The modules with code loaded up front (tree-shaking left some of theirs), as esbuild's metafile names them. */
  readonly inputs: readonly string[];
  /** The chunks loaded only when asked for (a dynamic import), and their gzipped bytes in all. */
  readonly lazy: readonly string[];
  readonly lazyGzip: number;
}

/** How an app's bundler packs it (see `Bundle`). */
export type Packing = 'split' | 'single';

/** A scratch app directory whose `node_modules/qsfilter` is this repository. */
export class PackageLink {
  readonly dir: string;

  constructor() {
    if (!existsSync(join(ROOT, 'dist/index.js'))) throw new Error('dist/ is missing: run `npm run build` first (`npm test` and `npm run bench` do).');
    this.dir = mkdtempSync(join(tmpdir(), 'qsfilter-bundle-'));
    mkdirSync(join(this.dir, 'node_modules'));
    symlinkSync(ROOT, join(this.dir, 'node_modules/qsfilter'), 'dir');
  }

  /** Bundles an app from the published files. */
  bundle(app: string, leaveOut: LeaveOut = 'nothing', packing: Packing = 'split'): Promise<Bundle> {
    return bundle(app, this.dir, leaveOut === 'chevrotain' ? [leaveOutFile(chevrotainChunk())] : [], [], packing);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Bundles an app from the sources: its `qsfilter` imports point at `src/`. */
export function bundleSource(app: string, leaveOut: LeaveOut = 'nothing', packing: Packing = 'split'): Promise<Bundle> {
  return bundle(fromSource(app), ROOT, [], leaveOut === 'chevrotain' ? ['chevrotain'] : [], packing);
}

/**
 * The files of `dist/` that are one bundle each (tsup.config.ts): the command's, and the
 * checker a schema's validate loads as an ES module.
 */
const WHOLE_FILES = ['cli.js', 'cli-main.js', 'schema-check.js'];

/**
 * The chunk of `dist/` that holds Chevrotain (see `src/syntax/chevrotain.ts`): the one
 * ES module with its mark, the files that are one bundle each (`WHOLE_FILES`) aside. Throws unless there is exactly one, and it is a chunk.
 */
export function chevrotainChunk(): string {
  const dist = join(ROOT, 'dist');
  const chunks = readdirSync(dist).filter((f) => f.endsWith('.js') && !WHOLE_FILES.includes(f) && readFileSync(join(dist, f), 'utf8').includes(CHEVROTAIN_MARK));
  if (chunks.length !== 1 || !chunks[0]!.startsWith('chunk-')) throw new Error(`dist/ holds Chevrotain in ${chunks.join(', ') || 'no file'}, not in one chunk of its own`);
  return chunks[0]!;
}

/** Gzipped size, as a server would send it. */
export function gzipSize(text: string): number {
  return gzipSync(text, { level: 9 }).length;
}

async function bundle(contents: string, resolveDir: string, plugins: Plugin[], external: string[], packing: Packing): Promise<Bundle> {
  const result = await build({
    stdin: { contents, resolveDir, loader: 'ts' },
    bundle: true,
    minify: true,
    platform: 'browser',
    format: 'esm',
    splitting: packing === 'split',
    outdir: join(tmpdir(), 'qsfilter-bundle-out'),
    write: false,
    metafile: true,
    external,
    plugins,
    logLevel: 'silent',
  });
  const outputs = result.metafile.outputs;
  const files = new Map(result.outputFiles.map((f) => [relative(process.cwd(), f.path), f.text]));
  const entry = Object.keys(outputs).find((f) => outputs[f]!.entryPoint !== undefined)!;
  // The entry and what it imports statically, transitively: loaded up front.
  const upFront = [entry];
  for (let i = 0; i < upFront.length; i++) {
    for (const record of outputs[upFront[i]!]!.imports) if (record.kind === 'import-statement' && !record.external && !upFront.includes(record.path)) upFront.push(record.path);
  }
  const lazy = Object.keys(outputs).filter((f) => f.endsWith('.js') && !upFront.includes(f));
  const text = upFront.map((f) => files.get(f)!).join('\n');
  const inputs = [...new Set(upFront.flatMap((f) => Object.entries(outputs[f]!.inputs).filter(([, { bytesInOutput }]) => bytesInOutput > 0).map(([input]) => input)))];
  return {
    text,
    minified: upFront.reduce((n, f) => n + Buffer.byteLength(files.get(f)!), 0),
    gzip: upFront.reduce((n, f) => n + gzipSize(files.get(f)!), 0),
    inputs,
    lazy,
    lazyGzip: lazy.reduce((n, f) => n + gzipSize(files.get(f)!), 0),
  };
}

/** A plugin that leaves one file of `dist/` out of the bundle, as an import. */
function leaveOutFile(file: string): Plugin {
  return {
    name: 'qsfilter-leave-out',
    setup(build) {
      build.onResolve({ filter: /^\.\/chunk-/ }, (args) => (args.path === `./${file}` ? { path: args.path, external: true } : undefined));
    },
  };
}

function fromSource(app: string): string {
  return app.replace(/'qsfilter(\/client)?'/g, (_, client: string | undefined) => `'${join(ROOT, 'src', client === undefined ? 'index.ts' : 'client/index.ts')}'`);
}

/** One module of ours in a bundle: its minified bytes, and what gzip saves when it is taken out. */
export interface ModuleShare {
  readonly module: string;
  readonly minified: number;
  readonly gzip: number;
}

/**
 * The modules of `src/` in an app's bundle built from the sources, Chevrotain left out,
 * largest gzipped share first. A module's share is the gzipped size of the bundle less
 * that of the bundle without its code: what leaving it out would save. (The shares add
 * up to less than the whole: what modules have in common compresses once, and stays
 * while any of them does.)
 */
export async function moduleShares(app: string): Promise<{ readonly total: Bundle; readonly modules: readonly ModuleShare[] }> {
  const total = await bundleSource(app, 'chevrotain');
  // Whitespace kept, esbuild starts each module's code with a comment naming it.
  const readable = await build({
    stdin: { contents: fromSource(app), resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    minifySyntax: true,
    minifyIdentifiers: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    external: ['chevrotain'],
    logLevel: 'silent',
  });
  const sections = readable.outputFiles[0]!.text
    .split(/^\/\/ (?=(?:src\/\S+\.ts|<stdin>)$)/m)
    .map((section) => {
      const newline = section.indexOf('\n');
      const header = section.slice(0, newline);
      return /^(?:src\/\S+\.ts|<stdin>)$/.test(header) ? { module: header, code: section.slice(newline + 1) } : { module: '', code: section };
    });
  const minify = async (parts: readonly { readonly code: string }[]): Promise<string> =>
    (await transform(parts.map((p) => p.code).join('\n'), { minifyWhitespace: true, format: 'esm' })).code;
  const allGzip = gzipSize(await minify(sections));
  const modules: ModuleShare[] = [];
  for (const module of new Set(sections.map((s) => s.module).filter((m) => m.startsWith('src/')))) {
    const own = sections.filter((s) => s.module === module);
    const without = sections.filter((s) => s.module !== module);
    modules.push({ module, minified: Buffer.byteLength(await minify(own)), gzip: allGzip - gzipSize(await minify(without)) });
  }
  return { total, modules: modules.sort((a, b) => b.gzip - a.gzip) };
}
