/**
 * Packages the tests fetch from the npm registry when they first need them, kept in a
 * cache outside the clone (`~/.cache/qsfilter/npm`, or `QSFILTER_NPM_CACHE`). They are
 * not devDependencies because each is a build for one platform: npm would refuse to
 * install the project (`npm ci`) on any other, where a test run should instead say
 * plainly what it could not start.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Where cached packages live. */
export const NPM_CACHE = process.env.QSFILTER_NPM_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'qsfilter', 'npm');

/**
 * The directory of package `name` at exactly `version`, installed into the cache when it
 * is not there yet (`npm install --prefix`, then moved into place whole, so that a run
 * stopped half-way leaves nothing that looks installed). Scripts are not run: what a
 * package's install script would do, its caller does.
 */
export async function cachedPackage(name: string, version: string): Promise<string> {
  const home = join(NPM_CACHE, `${name.replace('/', '+')}@${version}`);
  const dir = join(home, 'node_modules', name);
  if (existsSync(join(dir, 'package.json'))) return dir;
  const partial = `${home}.partial-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  try {
    await run('npm', ['install', '--prefix', partial, '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', `${name}@${version}`], {
      maxBuffer: 16 << 20,
    });
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw new Error(`npm install ${name}@${version} failed: ${((error as { stderr?: string }).stderr ?? String(error)).trim().split('\n').slice(-3).join(' ')}`);
  }
  await rm(home, { recursive: true, force: true });
  await rename(partial, home).catch(async (error: NodeJS.ErrnoException) => {
    // Another run installed it at the same moment: theirs serves.
    await rm(partial, { recursive: true, force: true });
    if (!existsSync(join(dir, 'package.json'))) throw error;
  });
  return dir;
}
