import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, type Options } from 'tsup';

const minify = process.env.QSFILTER_MINIFY !== '0';

/**
 * `src/integrations/*` import the public entry (`../index`): in dist, an adapter imports
 * `./index.js` (or requires `./index.cjs`), so that a server that loads the main entry
 * and an adapter has one copy of the checker and its parser, in either format.
 */
const mainEntryExternal: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'qsfilter-main-entry-external',
  setup(build) {
    const main = build.initialOptions.format === 'cjs' ? './index.cjs' : './index.js';
    build.onResolve({ filter: /^\.\.\/index$/ }, (args) =>
      /[\\/]src[\\/]integrations[\\/]/.test(args.importer) ? { path: main, external: true } : undefined,
    );
  },
};

const shared: Options = {
  target: 'node22',
  // chevrotain is bundled (tree-shaken, minified): it is ESM only, so a `require` of the
  // CJS build could not load it, and its package entry imports parts (the CST typings
  // generator) that qsfilter never runs.
  noExternal: ['chevrotain'],
  // Minified but for whitespace: esbuild drops comments with the whitespace, the
  // `/* @__PURE__ */` of the catalog among them, and an app's bundler needs those to
  // leave out the schemas it does not import (see docs/client.md). Keeping
  // lines also keeps Node's report of an uncaught error to one statement, where a
  // whole-file line made it 48 KB of code. Source maps (shipped) lead back to src/.
  minifySyntax: minify,
  minifyIdentifiers: minify,
  // The maps give files and lines, not the sources' text (which was most of the package):
  // src/ is in the repository, Chevrotain's sources in its own package.
  sourcemap: true,
  esbuildOptions(options) {
    options.sourcesContent = false;
  },
};

export const NOTICES = 'dist/THIRD_PARTY_LICENSES.txt';

/**
 * Writes the licences of the packages bundled into dist/, as esbuild's metafile lists
 * them (chevrotain and its @chevrotain/* parts, all under Apache-2.0): each package with
 * its version, then each distinct licence text once, and any NOTICE file. Generated at
 * every build, so that it follows the lockfile.
 */
function writeNotices(metafile: string): void {
  type Meta = { outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }> };
  const meta = JSON.parse(readFileSync(metafile, 'utf8')) as Meta;
  rmSync(metafile);
  const names = new Set<string>();
  for (const output of Object.values(meta.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
      // Imported but shaken out entirely (chevrotain's CST typings generator): not bundled.
      if (name !== undefined && bytesInOutput > 0) names.add(name);
    }
  }
  const texts = new Map<string, string[]>();
  const lines = ['qsfilter bundles parts of the following packages into dist/; their licences and notices follow.', ''];
  for (const name of [...names].sort()) {
    const dir = join('node_modules', name);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string; license: string };
    lines.push(`- ${name} ${pkg.version} (${pkg.license})`);
    for (const file of readdirSync(dir).filter((f) => /^(licen[cs]e|notice)/i.test(f)).sort()) {
      const text = readFileSync(join(dir, file), 'utf8').trim();
      texts.set(text, [...(texts.get(text) ?? []), name]);
    }
  }
  for (const [text, packages] of texts) lines.push('', '='.repeat(78), `${packages.join(', ')}:`, '', text);
  writeFileSync(NOTICES, `${lines.join('\n')}\n`);
}

/** The package's entry points, as its `exports` name them. */
const PUBLIC_ENTRIES = {
  index: 'src/index.ts',
  client: 'src/client/index.ts',
  fastify: 'src/integrations/fastify.ts',
  express: 'src/integrations/express.ts',
  hono: 'src/integrations/hono.ts',
};

/**
 * A schema's validate loads the checker on first use (`import('../check/check')`, in
 * src/standard/standard.ts).
 * - As ES modules, it loads `schema-check.js`, the checker and the parser in one file of
 *   their own that shares nothing with the other files of dist/. An app's bundler that
 *   splits code then loads none of it up front: esbuild puts a file reached both from an
 *   app's entry (through the main entry, which exports `check`) and from a lazy chunk in
 *   a chunk loaded up front, whole, so a chunk shared with the main entry would be (issue
 *   31: 44 KiB up front instead of 8).
 * - As CommonJS, where there are no chunks, it loads the main entry (`./index.cjs`, which
 *   exports `check`), rather than a copy of the checker and the parser in `client.cjs`.
 */
const lazyCheck: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'qsfilter-lazy-check',
  setup(build) {
    const path = build.initialOptions.format === 'cjs' ? './index.cjs' : `./${LAZY_CHECK}.js`;
    build.onResolve({ filter: /^\.\.\/check\/check$/ }, (args) =>
      args.kind === 'dynamic-import' && /[\\/]src[\\/]standard[\\/]/.test(args.importer) ? { path, external: true } : undefined,
    );
  },
};

/** The file a schema's validate loads as an ES module (see lazyCheck). */
const LAZY_CHECK = 'schema-check';
const LAZY_CHECK_FILES = [`${LAZY_CHECK}.js`, `${LAZY_CHECK}.js.map`];

/** What the command's build writes to dist/ (src/cli/bin.ts). */
const CLI_FILES = ['cli.js', 'cli.js.map', 'cli-main.js', 'cli-main.js.map'];

/**
 * `dist/cli.js` imports the command (`./main` in src/cli/bin.ts) from `./cli-main.js`, a
 * file of its own, rather than bundle it: it must turn the compile cache on before Node
 * compiles the command's code.
 */
const commandFromBin: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'qsfilter-command-from-bin',
  setup(build) {
    build.onResolve({ filter: /^\.\/main$/ }, (args) => (/[\\/]src[\\/]cli[\\/]bin\.ts$/.test(args.importer) ? { path: './cli-main.js', external: true } : undefined));
  },
};

/** The build-only entry that puts Chevrotain in a chunk of its own. */
const CHEVROTAIN_ENTRY = 'chevrotain';

export default defineConfig([
  {
    ...shared,
    // `client` is `qsfilter/client`: the builder without the parser (its chunks hold no
    // Chevrotain). The server adapters are subpaths too (qsfilter/fastify…), so that the
    // main entry never loads a framework; they use the package through its public entry,
    // which they import from dist (see mainEntryExternal) rather than bundle a copy of.
    entry: {
      ...PUBLIC_ENTRIES,
      // Not a public entry: it makes Chevrotain a chunk of its own, which dist/index.js
      // imports and an app that parses nothing leaves out whole (src/syntax/chevrotain.ts).
      // Its own files, and its CommonJS copy, are deleted after the build.
      [CHEVROTAIN_ENTRY]: 'src/syntax/chevrotain.ts',
    },
    format: ['esm', 'cjs'],
    esbuildPlugins: [mainEntryExternal, lazyCheck],
    dts: { entry: PUBLIC_ENTRIES },
    metafile: true,
    // The builds run at once and write to dist/: this one must not delete the others' output.
    clean: [...CLI_FILES, ...LAZY_CHECK_FILES].map((file) => `!${file}`),
    onSuccess: async () => {
      writeNotices('dist/metafile-esm.json');
      if (existsSync('dist/metafile-cjs.json')) rmSync('dist/metafile-cjs.json');
      for (const file of readdirSync('dist')) if (file.startsWith(`${CHEVROTAIN_ENTRY}.`)) rmSync(join('dist', file));
    },
  },
  {
    ...shared,
    // The checker a schema's validate loads on first use, as an ES module (see lazyCheck):
    // one file, Chevrotain inside, sharing no chunk with the other files.
    entry: { [LAZY_CHECK]: 'src/check/check.ts' },
    format: ['esm'],
    splitting: false,
    clean: false,
  },
  {
    ...shared,
    // The `qsfilter` command: `cli.js`, started by its banner, turns the compile cache on and
    // loads `cli-main.js`, one self-contained ES module file (src/cli/bin.ts).
    entry: { cli: 'src/cli/bin.ts', 'cli-main': 'src/cli/main.ts' },
    // No bundler reads this file after us: whitespace can go too.
    minifyWhitespace: minify,
    format: ['esm'],
    esbuildPlugins: [commandFromBin],
    // One file: the checker that a schema's validate loads on first use (a dynamic import)
    // is bundled in, not split into chunks beside the command.
    splitting: false,
    clean: false,
    banner: { js: '#!/usr/bin/env node' },
  },
]);
