/**
 * Issue 26, item 3: what each server adapter costs per request. Each framework serves
 * `GET /invoices` three ways (`lib/adapter-server.ts`, a process each): a route that reads
 * nothing (the framework alone), a route that calls `check(request.url, invoices)` itself,
 * and the package's adapter. A keep-alive client sends the corpus's invoice queries over
 * loopback HTTP, and the server's own CPU time (user + system) per request is the measure,
 * so the client's cost and the machine's other work do not count.
 *
 * On a shared machine a server's CPU time per request drifts by ±20% from one second to
 * the next, with the machine's load (caches, frequency), and the first rounds after
 * start-up carry JIT compilation (its threads are the process's CPU time too). So: a
 * long warm-up; many short rounds, in which the three servers take turns, in an order
 * that reverses every round (a drift then weighs on each alike); and the ratio of the
 * adapter to the own-check route taken within each round, the figure being the median of
 * those ratios. Goal: adapter ≤ 1.1x the own-check route.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { CORPUS } from './corpus';
import { median, times } from './lib/format';
import { qsfilter } from './lib/qsfilter';
import { assertSame, defineScenario, Mismatch, type Goal } from './lib/scenario';

/**
 * Each framework's routes: reading nothing, calling check, then each form of its adapter
 * (`adapter-server.ts` names them). Hono's has two: `filterRoute`, the route's one
 * handler, and `filterQuery`, a middleware before it.
 */
const FRAMEWORKS = {
  fastify: ['plain', 'check', 'adapter'],
  express: ['plain', 'check', 'adapter'],
  hono: ['plain', 'check', 'adapter', 'middleware'],
} as const;
/** How a row names an adapter form. */
const FORM_NAMES: Record<string, string> = { 'hono adapter': 'hono filterRoute', 'hono middleware': 'hono filterQuery' };
const GOAL = 1.1;
/** Requests each server answers, alone, before the rounds: by then V8 has compiled what a request runs. */
const WARM_UP = 3000;
/**
 * Rounds run and not counted. Even after a long warm-up alone (15,000 requests), a
 * server's first two rounds among the others cost it 1.5x to 2.5x the later ones, each
 * server alike: the first rounds are the start of the interleaving, not of the server.
 */
const WARM_ROUNDS = 2;
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
    const rounds = quick ? 9 : 25;
    const count = quick ? 1500 : 3000;
    const rows: string[][] = [];
    const goals: Goal[] = [];
    for (const [framework, routes] of Object.entries(FRAMEWORKS)) {
      const servers = await Promise.all(routes.map((route) => startServer(framework, route)));
      try {
        // Each adapter form and the own-check route answer every query alike.
        const agent = new Agent({ keepAlive: true });
        for (const path of PATHS) {
          const [, own, ...adapters] = await Promise.all(servers.map((s) => get(agent, s.port, path)));
          for (const [i, adapter] of adapters.entries()) assertSame(`${framework} ${routes[i + 2]} ${path}: adapter vs own check`, JSON.parse(own!.body), JSON.parse(adapter!.body));
        }
        agent.destroy();
        for (const s of servers) await load(s.port, WARM_UP, 8); // JIT (its compiler threads count as CPU time), connections
        const perRequest: number[][] = routes.map(() => []);
        const forward = routes.map((_, i) => i);
        for (let round = -WARM_ROUNDS; round < rounds; round++) {
          for (const i of round % 2 === 0 ? forward : [...forward].reverse()) {
            const s = servers[i]!;
            const before = await cpu(s);
            await load(s.port, count, 8);
            if (round >= 0) perRequest[i]!.push(((await cpu(s)) - before) / count);
          }
        }
        const [plain, own] = perRequest.map((samples) => median(samples));
        for (let form = 2; form < routes.length; form++) {
          // Within each round, adapter over own check: the drift of the machine's load mostly cancels.
          const ratios = perRequest[form]!.map((a, round) => a / perRequest[1]![round]!).sort((a, b) => a - b);
          const ratio = median(ratios);
          const spread = `${times(ratios[Math.floor(ratios.length / 4)]!)}–${times(ratios[Math.ceil((ratios.length * 3) / 4) - 1]!)}`;
          const name = FORM_NAMES[`${framework} ${routes[form]}`] ?? framework;
          rows.push([name, `${plain!.toFixed(1)} µs`, `${own!.toFixed(1)} µs`, `${median(perRequest[form]!).toFixed(1)} µs`, `${(own! - plain!).toFixed(1)} µs`, times(ratio), spread]);
          goals.push({ goal: `${name} adapter vs a route calling check itself (server CPU per request)`, target: `≤ ${GOAL}x`, actual: times(ratio), pass: ratio <= GOAL });
        }
      } finally {
        for (const s of servers) s.child.kill();
      }
    }
    return {
      tables: [
        {
          title: `server CPU per request (user + system), median of ${rounds} rounds of ${count} requests, 8 at a time over keep-alive, after ${WARM_UP} requests and ${WARM_ROUNDS} rounds of warm-up`,
          columns: ['framework', 'route reading nothing', 'route calling check', 'adapter', 'check inside a request', 'adapter vs check route', 'middle half of the rounds'],
          rows,
          notes: [
            `Queries: the ${PATHS.length} invoice queries of the corpus, cycled. "check inside a request": the check route less the route reading nothing.`,
            '"adapter vs check route": the median over the rounds of the ratio within a round (the servers take turns in each round); the last column, the middle half of those ratios, is how far to trust it.',
          ],
        },
      ],
      goals,
    };
  },
});
