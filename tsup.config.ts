import { defineConfig, type Options } from 'tsup';

const minify = process.env.QSFILTER_MINIFY !== '0';

const shared: Options = {
  target: 'node20',
  // chevrotain is bundled (tree-shaken, minified): its package entry pulls in all of
  // lodash-es and takes about 0.27 s to import, the bundled subset a few milliseconds.
  noExternal: ['chevrotain'],
  // Minified names and syntax, but one statement per line: Node prints the source line
  // of an uncaught error, and a whole-file line made that 48 KB of code after the
  // message. Source maps (shipped) lead back to src/ and chevrotain.
  sourcemap: true,
  esbuildOptions(options) {
    options.minifyIdentifiers = minify;
    options.minifySyntax = minify;
    options.minifyWhitespace = false;
  },
};

export default defineConfig([
  {
    ...shared,
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
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
