/**
 * The `qsfilter` executable (`dist/cli.js`, built with a `#!/usr/bin/env node` banner):
 * it turns Node's module compile cache on, then loads the command itself
 * (`dist/cli-main.js`, built from `main.ts`). From the second run on, Node then reads the
 * command's code compiled from its cache instead of compiling its 190 KB again: about
 * 3 ms of CPU of the 37 ms a short run takes over `node -e 0` (bench/RESULTS.md, issue
 * 26). A command may choose that for
 * its own process; a library must not, and none of the package's entries does. Node
 * 22.0 has no compile cache, and `NODE_DISABLE_COMPILE_CACHE=1` turns it off.
 */
import module from 'node:module';

module.enableCompileCache?.();
await import('./main');
