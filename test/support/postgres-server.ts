/**
 * Vitest global setup: a real Postgres server for the SQL suites, next to PGlite.
 *
 * With `DATABASE_URL`, the suites use that server (the role must be allowed to create
 * databases: every test file works in a database of its own, dropped at its end).
 * Without it, this starts the server binaries installed here (Debian's `postgresql`
 * package; `.ci/run` installs it): `initdb` of a temporary cluster, as the `postgres`
 * user when running as root (initdb refuses root), listening on a free loopback port,
 * stopped and removed when the run ends. If no server can be had, the run fails here,
 * loudly: a suite that silently skipped its real server would prove nothing.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

/** What the setup hands to the test files (`inject('postgres')`). */
export interface ProvidedPostgres {
  /** A connection string to a database on the real server that test files may create databases from. */
  readonly url: string;
  /** `PostgreSQL 15.18 (Debian 15.18-0+deb12u1)`, as the server says. */
  readonly server: string;
  /** `PostgreSQL 18.6 (PGlite 0.5.16)`. */
  readonly pglite: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: ProvidedPostgres;
  }
}

const run = promisify(execFile);

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.DATABASE_URL;
  const local = given === undefined || given === '' ? await startServer() : undefined;
  const url = local?.url ?? given!;
  try {
    const [server, pglite] = await Promise.all([serverVersion(url), pgliteVersion()]);
    project.provide('postgres', { url, server, pglite });
    const where = local === undefined ? 'from DATABASE_URL' : `started for these tests from ${local.bin}`;
    console.log(`SQL suites run on ${pglite} in process, and on ${server} (${where}).`);
  } catch (error) {
    await local?.stop();
    const which = local === undefined ? 'the server of DATABASE_URL' : 'the server started for the tests';
    throw new Error(`The SQL suites cannot reach ${which}: ${(error as Error).message}`);
  }
  return async () => {
    await local?.stop();
  };
}

async function serverVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ version: string }>('SELECT version()');
    // "PostgreSQL 15.18 (Debian 15.18-0+deb12u1) on x86_64-pc-linux-gnu, compiled by …"
    return rows[0]!.version.replace(/ on .*$/, '');
  } finally {
    await client.end();
  }
}

async function pgliteVersion(): Promise<string> {
  const db = await PGlite.create();
  try {
    const { rows } = await db.query<{ version: string }>('SELECT version()');
    return rows[0]!.version.replace(/ on .*$/, '');
  } finally {
    await db.close();
  }
}

interface LocalServer {
  readonly url: string;
  readonly bin: string;
  stop(): Promise<void>;
}

/** Starts a throwaway cluster of the newest server installed here. */
async function startServer(): Promise<LocalServer> {
  const bin = serverBinaries();
  const asRoot = process.getuid?.() === 0;
  const dir = await mkdtemp(join(tmpdir(), 'qsfilter-pg-'));
  const data = join(dir, 'data');
  // As root, the cluster belongs to `postgres`, and every command runs as that user.
  const command = (name: string, args: string[]) => (asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, name), ...args]) : run(join(bin, name), args));
  let started = false;
  const stop = async () => {
    if (started) await command('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w']).catch(() => undefined);
    started = false;
    await rm(dir, { recursive: true, force: true });
  };
  try {
    if (asRoot) {
      const { stdout } = await run('id', ['-u', 'postgres']).catch(() => {
        throw new Error('Running as root, the test server must run as the "postgres" user, which does not exist: install Debian\'s postgresql package.');
      });
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      await chown(dir, Number(stdout.trim()), Number(gid.trim()));
    }
    await command('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
    const port = await freePort();
    const settings = [
      `-c port=${port}`,
      '-c listen_addresses=127.0.0.1',
      `-c unix_socket_directories=${dir}`,
      // A throwaway cluster: durability is not what is tested.
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
    ].join(' ');
    started = true;
    await command('pg_ctl', ['start', '-D', data, '-w', '-t', '60', '-l', join(dir, 'server.log'), '-o', settings]).catch((error: Error) => {
      const log = existsSync(join(dir, 'server.log')) ? readFileSync(join(dir, 'server.log'), 'utf8') : '';
      throw new Error(`${error.message}\n${log}`);
    });
    return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, bin, stop };
  } catch (error) {
    await stop();
    throw new Error(`Could not start a Postgres server for the SQL suites (set DATABASE_URL to use another one): ${(error as Error).message}`);
  }
}

/** The directory of the newest `initdb` and `pg_ctl`: Debian keeps them in /usr/lib/postgresql/<major>/bin. */
function serverBinaries(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, 'bin', 'initdb'))) : [];
  const newest = majors.sort((a, b) => Number(b) - Number(a))[0];
  if (newest !== undefined) return join(root, newest, 'bin');
  const onPath = (process.env.PATH ?? '').split(':').find((d) => d !== '' && existsSync(join(d, 'initdb')) && existsSync(join(d, 'pg_ctl')));
  if (onPath !== undefined) return onPath;
  throw new Error(
    'No Postgres server binaries (initdb, pg_ctl) found. Install them (Debian: apt-get install -y postgresql; .ci/run does), or set DATABASE_URL.',
  );
}

/** A loopback port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
