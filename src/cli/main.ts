/**
 * The `qsfilter` command (`dist/cli-main.js`, which `dist/cli.js` loads: see bin.ts).
 * The exit status is set, not forced, so that everything written reaches its pipe.
 */
import { run } from './run';

// A reader that stops early (`| head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await run(process.argv.slice(2));
