/**
 * Runs the snippets of the docs, one module after the other, in a process of their own
 * (`node --import tsx test/docs/runner.ts manifest.json`), and writes what each did to
 * the manifest's `results` file: what it printed (console.log and console.error, as Node
 * prints them, and each call's arguments as data), the value of each expression with a
 * value comment, the error it threw, and the answers of the servers it started.
 *
 * A snippet's server listens where the page says (`port: 3000`), which other programs
 * may hold: here every `listen` takes a free port instead. After the snippet, the runner
 * sends it the requests of its section's `request:` and `handler:` marks, then closes it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { format, inspect } from 'node:util';
import { toData } from './data';

/** What the test asks for. */
export interface Manifest {
  readonly results: string;
  readonly given: string;
  readonly modules: readonly {
    readonly file: string;
    /** Where the snippet is: `docs/servers.md:24`. */
    readonly where: string;
    /** Whether it binds names from given.ts (which is then prepared first, with the captures so far). */
    readonly given: boolean;
    /** Paths to request from the servers it starts. */
    readonly requests: readonly string[];
  }[];
}

/** One console call. */
export interface Printed {
  readonly stream: 'stdout' | 'stderr';
  readonly text: string;
  readonly args: unknown[];
}

/** One answer of a server a snippet started. */
export interface Exchange {
  readonly path: string;
  readonly status: number;
  readonly statusText: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** The filters given.ts's store was asked for while answering (data). */
  readonly handled: unknown[];
}

/** What one snippet did. */
export interface RunResult {
  /** Where the snippet is: `docs/servers.md:24`. */
  readonly where: string;
  readonly printed: Printed[];
  /** The values of its value comments, by index, each time the expression ran (data). */
  readonly values: { k: number; data: unknown }[];
  readonly captured: Record<string, unknown>;
  readonly exchanges: Exchange[][];
  error?: string;
}

interface Given {
  prepare(captured: Record<string, unknown>): Promise<void>;
  takeHandled(): unknown[];
  close(): Promise<void>;
}

let current: RunResult | undefined;
let begun = false;
let servers: net.Server[] = [];
const captured: Record<string, unknown> = {};

(globalThis as { __readme?: unknown }).__readme = {
  begin() {
    begun = true;
  },
  value(k: number, value: unknown) {
    if (begun) current?.values.push({ k, data: toData(value) });
    return value;
  },
  capture(names: Record<string, unknown>) {
    Object.assign(captured, names);
    if (current) Object.assign(current.captured, toData(names));
  },
};

const original = { ...console };
for (const [method, stream] of [['log', 'stdout'], ['info', 'stdout'], ['debug', 'stdout'], ['error', 'stderr'], ['warn', 'stderr']] as const) {
  console[method] = (...args: unknown[]) => {
    if (current === undefined) return original[method](...args);
    if (begun) current.printed.push({ stream, text: format(...args), args: args.map((arg) => toData(arg)) });
  };
}
console.dir = (value: unknown, options?: object) => {
  if (current === undefined) return original.dir(value, options);
  if (begun) current.printed.push({ stream: 'stdout', text: inspect(value, options), args: [toData(value)] });
};

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (this: net.Server, ...args: unknown[]) {
  const [first] = args;
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) args[0] = 0;
  else if (typeof first === 'object' && first !== null && 'port' in first) args[0] = { ...first, port: 0 };
  servers.push(this);
  return listen.apply(this, args as Parameters<typeof listen>);
} as typeof listen;

process.on('unhandledRejection', (reason) => {
  if (current && current.error === undefined) current.error = `unhandled rejection: ${describe(reason)}`;
});

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : inspect(error);
}

function get(server: net.Server, path: string): Promise<Omit<Exchange, 'handled'>> {
  const { address, port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const request = http.get({ host: address, port, path }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          path,
          status: response.statusCode ?? 0,
          statusText: response.statusMessage ?? '',
          headers: Object.fromEntries(Object.entries(response.headers).map(([k, v]) => [k, String(v)])),
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    request.on('error', reject);
  });
}

async function main(): Promise<void> {
  const manifest = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Manifest;
  const results: RunResult[] = [];
  let given: Given | undefined;
  for (const module of manifest.modules) {
    const result: RunResult = { where: module.where, printed: [], values: [], captured: {}, exchanges: [] };
    results.push(result);
    try {
      if (module.given) {
        given ??= (await import(pathToFileURL(manifest.given).href)) as Given;
        await given.prepare(captured);
      }
      current = result;
      begun = false;
      servers = [];
      // No time limit: on a loaded machine a snippet is slower, not wrong.
      await import(pathToFileURL(module.file).href);
      // Let what the snippet started without awaiting it settle (a listen, a rejection).
      await new Promise((resolve) => setTimeout(resolve, 50));
      const started = servers.filter((server) => server.listening);
      for (const server of started.slice(0, 1)) {
        const exchanges: Exchange[] = [];
        for (const path of module.requests) {
          given?.takeHandled();
          const exchange = await get(server, path);
          exchanges.push({ ...exchange, handled: (given?.takeHandled() ?? []).map((filter) => toData(filter)) });
        }
        result.exchanges.push(exchanges);
      }
    } catch (error) {
      result.error ??= describe(error);
    } finally {
      current = undefined;
      for (const server of servers) {
        (server as Partial<http.Server>).closeAllConnections?.();
        server.close();
      }
    }
  }
  await given?.close();
  writeFileSync(manifest.results, JSON.stringify(results));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    original.error(error);
    process.exit(1);
  },
);
