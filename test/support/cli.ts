import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The built command, as `npm test` leaves it (the build runs before the tests). */
export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** What a run of the command gave. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of `runCli`. */
export interface CliOptions {
  /** Written to standard input, which is then closed; without it stdin is closed at once. */
  readonly input?: string;
  /** Added to a clean environment (PATH only: no inherited NO_COLOR, FORCE_COLOR or TERM). */
  readonly env?: Record<string, string>;
  /** Run through `/bin/sh -c` instead: `args` is then one shell command line after `node dist/cli.js`. */
  readonly shell?: boolean;
  /** A shell command whose output is piped to standard input (through `/bin/sh -c`, as with `shell`). */
  readonly pipeFrom?: string;
  /** The working directory (this process's by default). */
  readonly cwd?: string;
}

/** Runs `node dist/cli.js …` as a real process. A missing build fails with what to do, never skips. */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npm run build` first (`npm test` does).');
  const env = { PATH: process.env.PATH ?? '', ...options.env };
  const piped = options.pipeFrom === undefined ? '' : `${options.pipeFrom} | `;
  const child = options.shell || options.pipeFrom !== undefined
    ? spawn('/bin/sh', ['-c', `${piped}"${process.execPath}" "${CLI}" ${args.join(' ')}`], { env, cwd: options.cwd })
    : spawn(process.execPath, [CLI, ...args], { env, cwd: options.cwd });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  // A command that stops reading early (a refused input, a full page) closes its end: not the test's failure.
  child.stdin.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  child.stdin.end(options.input);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ code, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') });
    });
  });
}
