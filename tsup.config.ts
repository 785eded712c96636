import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  target: 'node20',
  // chevrotain is bundled (tree-shaken, minified): its package entry pulls in all of
  // lodash-es and takes about 0.27 s to import, the bundled subset a few milliseconds.
  noExternal: ['chevrotain'],
  minify: process.env.QSFILTER_MINIFY !== '0',
});
