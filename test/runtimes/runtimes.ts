/**
 * The runtimes the smoke suite runs `app.ts` on, each serving it over loopback HTTP from
 * a scratch app that installed the packed tarball (what a user gets, built from the
 * dist/ that `npm test` builds first), with `hono` and `@hono/node-server`:
 *
 * - Node: the one running the tests (CI runs them on each of 22, 24 and 26);
 * - Bun, Deno and Cloudflare's workerd, each from its npm package at the version below,
 *   fetched into the cache outside the clone once (`npm-cache.ts`; about 100 MB each);
 *   its binary is in the one platform package of its `optionalDependencies` that npm
 *   installed beside it, as its own install script would find it;
 * - on workerd the app is bundled as a Worker (esbuild, as wrangler bundles one) and
 *   served by `workerd serve` with a config of ours (`WORKERD_CONFIG`).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build, transform } from 'esbuild';
import { cachedPackage } from '../support/npm-cache';
import { freePort } from '../support/ports';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

/** The runtimes other than Node, each at the exact version of its npm package. */
export const RUNTIME_PACKAGES = { bun: '1.4.5', deno: '2.9.6', workerd: '1.20261117.1' } as const;

export type Runtime = 'node' | keyof typeof RUNTIME_PACKAGES;

/** A scratch app with the packed package installed, and `app.ts` in it as `smoke.mjs` (with `self-check.js`). */
export interface ScratchApp {
  readonly dir: string;
  remove(): void;
}

/**
 * Packs the repository as it is built (`npm pack --ignore-scripts`: dist/ must be there,
 * as `npm test` builds it first), installs the tarball offline in a scratch app, copies
 * the lockfile's `hono` and `@hono/node-server` beside it (neither has dependencies; npm
 * could not install them offline by name, without their registry documents), and writes
 * `app.ts` and `self-check.ts` there as JavaScript, imports untouched, for every runtime
 * to resolve from the app's node_modules.
 */
export async function scratchApp(): Promise<ScratchApp> {
  if (!existsSync(join(root, 'dist', 'index.js'))) throw new Error('dist/ is missing: run `npm run build` first (`npm test` does).');
  const scratch = mkdtempSync(join(tmpdir(), 'qsfilter-runtimes-'));
  try {
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], { cwd: root });
    const tarball = join(scratch, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
    const dir = join(scratch, 'app');
    mkdirSync(dir);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'scratch-runtimes', private: true, type: 'module' }));
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', tarball], { cwd: dir });
    for (const name of ['hono', '@hono/node-server']) cpSync(join(root, 'node_modules', name), join(dir, 'node_modules', name), { recursive: true });
    for (const [from, to] of [['app.ts', 'smoke.mjs'], ['self-check.ts', 'self-check.js']] as const) {
      const source = readFileSync(fileURLToPath(new URL(from, import.meta.url)), 'utf8');
      writeFileSync(join(dir, to), (await transform(source, { loader: 'ts', format: 'esm', target: 'es2022' })).code);
    }
    return { dir, remove: () => rmSync(scratch, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The binary of a runtime's npm package at its version, fetched into the cache when
 * missing, or why there is none for this platform.
 */
export async function runtimeBinary(runtime: keyof typeof RUNTIME_PACKAGES): Promise<{ path: string } | { missing: string }> {
  const dir = await cachedPackage(runtime, RUNTIME_PACKAGES[runtime]);
  const { optionalDependencies = {} } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { optionalDependencies?: Record<string, string> };
  const modules = join(dir, '..');
  for (const name of Object.keys(optionalDependencies)) {
    for (const file of [join('bin', runtime), runtime]) {
      const path = join(modules, name, file);
      if (existsSync(path)) return { path };
    }
  }
  return { missing: `npm's ${runtime}@${RUNTIME_PACKAGES[runtime]} has no build for ${process.platform} ${process.arch}` };
}

/** The Worker's config: one service, the bundled app as its module, on one HTTP socket. */
const WORKERD_CONFIG = `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "smoke", worker = .smoke)],
  sockets = [(name = "http", address = "127.0.0.1:8080", http = (), service = "smoke")],
);

const smoke :Workerd.Worker = (
  modules = [(name = "worker.mjs", esModule = embed "worker.mjs")],
  compatibilityDate = "2026-11-01",
);
`;

/** How each runtime serves the app: the entry module it runs, which prints the port it listens on. */
const ENTRIES: Record<Exclude<Runtime, 'workerd'>, string> = {
  node: `import { serve } from '@hono/node-server';
import app from './smoke.mjs';
serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => console.log(\`listening \${info.port}\`));`,
  bun: `import app from './smoke.mjs';
const server = Bun.serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
console.log(\`listening \${server.port}\`);`,
  deno: `import app from './smoke.mjs';
Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }) => console.log(\`listening \${port}\`) }, app.fetch);`,
};

/** A runtime serving the app. */
export interface Served {
  readonly base: string;
  /** What the runtime wrote to stderr so far. */
  readonly stderr: () => string;
  stop(): Promise<void>;
}

/** Starts `runtime` (its binary at `binary`, Node's by default) serving the scratch app's `smoke.mjs`. */
export async function serve(runtime: Runtime, app: ScratchApp, binary = process.execPath): Promise<Served> {
  const env = { ...process.env, NO_COLOR: '1' };
  let child: ChildProcess;
  let port: number | undefined;
  if (runtime === 'workerd') {
    await build({
      entryPoints: [join(app.dir, 'smoke.mjs')],
      outfile: join(app.dir, 'worker.mjs'),
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      target: 'es2022',
      conditions: ['workerd', 'worker', 'browser', 'import', 'default'],
      mainFields: ['module', 'main'],
      logLevel: 'silent',
    });
    writeFileSync(join(app.dir, 'smoke.capnp'), WORKERD_CONFIG);
    port = await freePort();
    child = spawn(binary, ['serve', 'smoke.capnp', '--socket-addr', `http=127.0.0.1:${port}`], { cwd: app.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  } else {
    const entry = `serve-${runtime}.mjs`;
    writeFileSync(join(app.dir, entry), ENTRIES[runtime]);
    const args: Record<Exclude<Runtime, 'workerd'>, string[]> = {
      node: [entry],
      bun: [entry],
      // Deno resolves the package from the app's node_modules (its package.json says so).
      deno: ['run', '--allow-net=127.0.0.1', `--allow-read=${app.dir}`, '--allow-env', '--no-prompt', entry],
    };
    child = spawn(binary, args[runtime], { cwd: app.dir, env: { ...env, DENO_DIR: join(app.dir, '.deno'), DENO_NO_UPDATE_CHECK: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  }
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // Should the test run end before it was stopped (a hook that timed out), it goes too.
  const kill = (): void => void child.kill('SIGTERM');
  process.once('exit', kill);
  const stop = async (): Promise<void> => {
    process.off('exit', kill);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    port = await Promise.race([
      port === undefined ? listeningPort(child) : untilAnswering(port, exited),
      exited.then((code) => Promise.reject(new Error(`${runtime} exited (${code}) before it served: ${stderr.trim()}`))),
    ]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { base: `http://127.0.0.1:${port}`, stderr: () => stderr, stop };
}

/** The port of the first `listening <port>` line a process prints. */
function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^listening (\d+)$/m.exec(out);
      if (match) resolve(Number(match[1]));
    });
  });
}

/** `port` once a request to it is answered (workerd says nothing when it listens), polling until the process exits. */
async function untilAnswering(port: number, exited: Promise<unknown>): Promise<number> {
  let gone = false;
  void exited.then(() => (gone = true));
  while (!gone) {
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      return port;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return port;
}
