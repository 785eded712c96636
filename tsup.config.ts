import { defineConfig, type Options } from 'tsup';

const minify = process.env.QSFILTER_MINIFY !== '0';

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
    // `client` is `qsfilter/client`: the builder without the parser (its chunks hold no Chevrotain).
    entry: { index: 'src/index.ts', client: 'src/client/index.ts' },
    format: ['esm', 'cjs'],
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
