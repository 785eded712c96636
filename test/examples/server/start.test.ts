import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Agent, request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_REQUESTS, HEAVY_REQUEST } from '../../../examples/server/examples';

// Issue 14, item 11: `npm start` ran the server under a shell and tsx's own child, so
// `kill <pid>` of what it started left the server running. Tested for real: spawn,
// signal, observe. `npm test` has built dist/ already, and `npm start` builds only when
// src/ is newer than dist/: a build during the tests would rewrite dist/ under the other
// test files (the docs' snippets once failed to find its type declarations).

const root = fileURLToPath(new URL('../../../', import.meta.url));
const env = { ...process.env, HOST: '127.0.0.1', STORE: 'memory', NO_COLOR: '1' };

/** Everything a process writes, as it comes, and a promise of its exit. */
function watch(child: ChildProcess): { out: () => string; err: () => string; exit: Promise<[number | null, NodeJS.Signals | null]>; exited: () => boolean } {
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exit = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { out: () => out, err: () => err, exit, exited: () => child.exitCode !== null || child.signalCode !== null };
}

/**
 * Resolves with the first match of `pattern` in what the process writes, polling; fails
 * if the process ends first. No time limit: on a loaded machine a start is slower, not wrong.
 */
async function waitFor(run: ReturnType<typeof watch>, pattern: RegExp): Promise<RegExpMatchArray> {
  for (;;) {
    const match = pattern.exec(run.out());
    if (match !== null) return match;
    if (run.exited()) throw new Error(`the process ended before ${pattern}; it wrote:\n${run.out()}${run.err()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function refused(url: string): Promise<boolean> {
  try {
    await fetch(url);
    return false;
  } catch {
    return true;
  }
}

describe('npm start', () => {
  it('stops when the process it started gets SIGTERM, closing the server cleanly, and leaves a fresh dist/ alone', async () => {
    const built = statSync(join(root, 'dist', 'index.d.ts')).mtimeMs;
    const npm = spawn('npm', ['start', '--ignore-scripts'], { cwd: root, env: { ...env, PORT: '0' } });
    const run = watch(npm);
    try {
      const [, base] = await waitFor(run, /Example financial-data API on (http:\/\/127\.0\.0\.1:\d+)/);
      expect((await fetch(`${base}/vendors?businessName=Acme%20%26%20Sons&serviceName=quickbooks&vendorName=%25acme%25`)).status).toBe(200);

      npm.kill('SIGTERM');
      const [code] = await run.exit;
      expect(code).toBe(0);
      expect(run.out()).toContain('Stopped (SIGTERM).');
      // Nothing is left answering on the port.
      expect(await refused(`${base}/vendors`)).toBe(true);
      expect(statSync(join(root, 'dist', 'index.d.ts')).mtimeMs).toBe(built);
    } finally {
      if (npm.exitCode === null && npm.signalCode === null) npm.kill('SIGKILL');
    }
  });
});

/** Sends the paths in turn over one kept-alive connection until one gets no answer (the server is gone); the answers' status and media type. */
async function hammer(base: URL, paths: readonly string[]): Promise<{ status: number; type: string }[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const answers: { status: number; type: string }[] = [];
  for (let i = 0; ; i++) {
    const answer = await new Promise<{ status: number; type: string } | undefined>((resolve) => {
      const req = request({ agent, hostname: base.hostname, port: base.port, path: paths[i % paths.length] }, (res) => {
        res.resume().on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']) }));
      });
      req.on('error', () => resolve(undefined)).end();
    });
    if (answer === undefined) break;
    answers.push(answer);
  }
  agent.destroy();
  return answers;
}

describe('the example server', () => {
  // Issue 26, item 2: on SIGTERM under load, some answers were Fastify's plain JSON 503.
  it('stops on SIGTERM under load, every error answer a problem', async () => {
    // On its default store, PGlite, with heavy queries among the others: closing waits for them.
    const server = spawn(process.execPath, ['--import', 'tsx', 'examples/server/main.ts'], { cwd: root, env: { ...env, PORT: '0', STORE: '' } });
    const run = watch(server);
    try {
      const [, base] = await waitFor(run, /Example financial-data API on (http:\/\/127\.0\.0\.1:\d+)/);
      const paths = [HEAVY_REQUEST, ...EXAMPLE_REQUESTS.map((r) => r.path)];
      const load = Promise.all(Array.from({ length: 20 }, (_, i) => hammer(new URL(base!), [...paths.slice(i % paths.length), ...paths])));
      await new Promise((resolve) => setTimeout(resolve, 500));
      server.kill('SIGTERM');
      const answers = (await load).flat();
      expect((await run.exit)[0]).toBe(0);
      expect(answers.length).toBeGreaterThan(20);
      const errors = answers.filter((a) => a.status >= 400);
      expect(errors.length).toBeGreaterThan(0); // the bad examples' 400s at least
      expect(errors.filter((a) => !a.type.startsWith('application/problem+json'))).toEqual([]);
    } finally {
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    }
  });

  it('compares text case-sensitively with CASE_SENSITIVE=1, and says so', async () => {
    const server = spawn(process.execPath, ['--import', 'tsx', 'examples/server/main.ts'], { cwd: root, env: { ...env, PORT: '0', CASE_SENSITIVE: '1' } });
    const run = watch(server);
    try {
      const [, base] = await waitFor(run, /Example financial-data API on (http:\/\/127\.0\.0\.1:\d+): \d+ sample rows, text compared case-sensitively\./);
      const response = await fetch(`${base}/vendors?businessName=Acme%20%26%20Sons&serviceName=quickbooks&vendorName=%25acme%25`);
      // Case-insensitively, "Acme & Sons", "ACME Logistics"… would match too (test/examples/server/case.test.ts).
      expect(((await response.json()) as { data: { vendorName: string }[] }).data.map((v) => v.vendorName)).toEqual(['acme-widgets.com']);
      server.kill('SIGTERM');
      expect((await run.exit)[0]).toBe(0);
    } finally {
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    }
  });

  it('says in one line that its port is in use, without a stack trace, and exits 1', async () => {
    const taken = createServer();
    taken.listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const { port } = taken.address() as AddressInfo;
    try {
      const server = spawn(process.execPath, ['--import', 'tsx', 'examples/server/main.ts'], { cwd: root, env: { ...env, PORT: String(port) } });
      const run = watch(server);
      const [code] = await run.exit;
      expect(code).toBe(1);
      expect(run.err().trimEnd().split('\n')).toEqual([
        `Port ${port} on 127.0.0.1 is already in use: stop what is using it, or start on another port (PORT=3000 npm start).`,
      ]);
      expect(run.out()).toBe('');
    } finally {
      taken.close();
    }
  });
});
