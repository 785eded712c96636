import { defineConfig, type Options } from 'tsup';

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
  minify: process.env.QSFILTER_MINIFY !== '0',
};

export default defineConfig([
  {
    ...shared,
    // The server adapters are subpaths (qsfilter/fastify…), so that the main entry never
    // loads a framework. They use the package through its public entry, which they
    // import from dist (see mainEntryExternal) rather than bundle a second copy of.
    entry: {
      index: 'src/index.ts',
      fastify: 'src/integrations/fastify.ts',
      express: 'src/integrations/express.ts',
      hono: 'src/integrations/hono.ts',
    },
    format: ['esm', 'cjs'],
    splitting: false,
    esbuildPlugins: [mainEntryExternal],
    dts: true,
    // Both builds run at once and write to dist/: this one must not delete the other's output.
    clean: ['!cli.js'],
  },
  {
    ...shared,
    // The `qsfilter` command: one self-contained ES module file, started by its banner.
    entry: { cli: 'src/cli/main.ts' },
    format: ['esm'],
    clean: false,
    banner: { js: '#!/usr/bin/env node' },
  },
]);
