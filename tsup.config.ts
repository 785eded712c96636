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
  target: 'node20',
  // chevrotain is bundled (tree-shaken, minified): its package entry pulls in all of
  // lodash-es and takes about 0.27 s to import, the bundled subset a few milliseconds.
  noExternal: ['chevrotain'],
  // Minified but for whitespace: esbuild drops comments with the whitespace, the
  // `/* @__PURE__ */` of the catalog among them, and an app's bundler needs those to
  // leave out the schemas it does not import (see "Clients" in the README).
  minifySyntax: minify,
  minifyIdentifiers: minify,
};

export default defineConfig([
  {
    ...shared,
    // `client` is `qsfilter/client`: the builder without the parser (its chunks hold no
    // Chevrotain). The server adapters are subpaths too (qsfilter/fastify…), so that the
    // main entry never loads a framework; they use the package through its public entry,
    // which they import from dist (see mainEntryExternal) rather than bundle a copy of.
    entry: {
      index: 'src/index.ts',
      client: 'src/client/index.ts',
      fastify: 'src/integrations/fastify.ts',
      express: 'src/integrations/express.ts',
      hono: 'src/integrations/hono.ts',
    },
    format: ['esm', 'cjs'],
    esbuildPlugins: [mainEntryExternal],
    dts: true,
    // Both builds run at once and write to dist/: this one must not delete the other's output.
    clean: ['!cli.js'],
  },
  {
    ...shared,
    // The `qsfilter` command: one self-contained ES module file, started by its banner.
    entry: { cli: 'src/cli/main.ts' },
    // No bundler reads this file after us: whitespace can go too.
    minifyWhitespace: minify,
    format: ['esm'],
    clean: false,
    banner: { js: '#!/usr/bin/env node' },
  },
]);
