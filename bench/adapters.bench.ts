/**
 * Issue 26, item 3: what each server adapter costs per request. Each framework serves
 * `GET /invoices` three ways (`lib/adapter-server.ts`, a process each): a route that reads
 * nothing (the framework alone), a route that calls `check(request.url, invoices)` itself,
 * and the package's adapter. A keep-alive client sends the corpus's invoice queries over
 * loopback HTTP, and the server's own CPU time (user + system) per request is the measure,
 * so the client's cost and the machine's other work do not count. Rounds interleave the
 * three servers; the figure is the median round. Goal: adapter ≤ 1.1x the own-check route.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { CORPUS } from './corpus';
import { median, times } from './lib/format';
import { qsfilter } from './lib/qsfilter';
import { assertSame, defineScenario, Mismatch, type Goal } from './lib/scenario';

const FRAMEWORKS = ['fastify', 'express', 'hono'] as const;
const ROUTES = ['plain', 'check', 'adapter'] as const;
const GOAL = 1.1;
const SERVER = fileURLToPath(new URL('./lib/adapter-server.ts', import.meta.url));

/** The corpus's invoice queries, as request paths: each must check, so that every route does the same work. */
const PATHS = CORPUS.filter((q) => q.resource === 'invoices').map((q) => `/invoices?${q.query}`);

interface Running {
  readonly child: ChildProcess;
  readonly port: number;
}

async function startServer(framework: string, route: string): Promise<Running> {
  const child = fork(SERVER, [framework, route], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${framework} ${route} server exited with ${code}`)));
  });
  return { child, port };
}

function cpu(server: Running): Promise<number> {
  return new Promise((resolve) => {
    server.child.once('message', (m) => resolve((m as { cpu: number }).cpu));
    server.child.send('cpu');
  });
}

function get(agent: Agent, port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Sends `count` requests, `concurrency` at a time over kept-alive connections, cycling through PATHS. */
async function load(port: number, count: number, concurrency: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const { status } = await get(agent, port, PATHS[next++ % PATHS.length]!);
      if (status !== 200) throw new Mismatch(`a corpus query was answered ${status}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
}

export default defineScenario({
  name: 'adapters',
  title: 'server adapters: CPU per request',
  async run({ quick }) {
    for (const path of PATHS) if (!qsfilter.check(path, qsfilter.invoices).ok) throw new Mismatch(`${path} does not check`);
    const rounds = quick ? 3 : 7;
    const count = quick ? 3000 : 10000;
    const rows: string[][] = [];
    const goals: Goal[] = [];
    for (const framework of FRAMEWORKS) {
      const servers = await Promise.all(ROUTES.map((route) => startServer(framework, route)));
      try {
        // The adapter and the own-check route answer every query alike.
        const agent = new Agent({ keepAlive: true });
        for (const path of PATHS) {
          const [, own, adapter] = await Promise.all(servers.map((s) => get(agent, s.port, path)));
          assertSame(`${framework} ${path}: adapter vs own check`, JSON.parse(own!.body), JSON.parse(adapter!.body));
        }
        agent.destroy();
        for (const s of servers) await load(s.port, count, 8); // warm-up: JIT, connections
        const perRequest: number[][] = ROUTES.map(() => []);
        for (let round = 0; round < rounds; round++) {
          for (const [i, s] of servers.entries()) {
            const before = await cpu(s);
            await load(s.port, count, 8);
            perRequest[i]!.push(((await cpu(s)) - before) / count);
          }
        }
        const [plain, own, adapter] = perRequest.map((samples) => median(samples));
        rows.push([framework, `${plain!.toFixed(1)} µs`, `${own!.toFixed(1)} µs`, `${adapter!.toFixed(1)} µs`, `${(own! - plain!).toFixed(1)} µs`, times(adapter! / own!)]);
        goals.push({ goal: `${framework} adapter vs a route calling check itself (server CPU per request)`, target: `≤ ${GOAL}x`, actual: times(adapter! / own!), pass: adapter! / own! <= GOAL });
      } finally {
        for (const s of servers) s.child.kill();
      }
    }
    return {
      tables: [
        {
          title: `server CPU per request (user + system), median of ${rounds} rounds of ${count} requests, 8 at a time over keep-alive`,
          columns: ['framework', 'route reading nothing', 'route calling check', 'adapter', 'check inside a request', 'adapter vs check route'],
          rows,
          notes: [`Queries: the ${PATHS.length} invoice queries of the corpus, cycled. "check inside a request": the check route less the route reading nothing.`],
        },
      ],
      goals,
    };
  },
});
