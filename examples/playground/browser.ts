import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { chromium, type BrowserContext } from 'playwright-core';

/** The Chromium to drive, and the environment it needs. */
export interface Chromium {
  readonly path: string;
  /** Where it comes from, as a test run reports it. */
  readonly origin: string;
  readonly env: Record<string, string>;
}

/**
 * The Chromium the playground's test and screenshots drive, or why there is none.
 * `CHROMIUM_PATH` names one; else, on Linux, the build that the npm package
 * `@sparticuz/chromium` ships (a devDependency: playwright's own browser download cannot
 * work on a closed network, and the reader should not have to install a browser). Its
 * binary needs three libraries a bare machine may lack (NSS, NSPR, expat): the package
 * carries them too, and they go last on the browser's library path, so the machine's own
 * serve where it has them.
 */
export async function findChromium(): Promise<Chromium | { readonly missing: string }> {
  const given = process.env.CHROMIUM_PATH;
  if (given !== undefined && given !== '') {
    return existsSync(given) ? { path: given, origin: `CHROMIUM_PATH (${given})`, env: {} } : { missing: `CHROMIUM_PATH names ${given}, which does not exist` };
  }
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return { missing: `npm's @sparticuz/chromium is a build for Linux x64, and this is ${process.platform} ${process.arch}: set CHROMIUM_PATH to a Chrome or Chromium` };
  }
  const { default: sparticuz } = await import('@sparticuz/chromium');
  const path = await sparticuz.executablePath();
  const libs = join(tmpdir(), 'qsfilter-chromium-libs');
  if (!existsSync(join(libs, 'lib'))) {
    mkdirSync(libs, { recursive: true });
    const tar = join(libs, 'libs.tar');
    writeFileSync(tar, brotliDecompressSync(readFileSync(join(findBin(dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium'))), 'al2023.tar.br'))));
    execFileSync('tar', ['-xf', tar, '-C', libs]);
    rmSync(tar);
  }
  const library = [process.env.LD_LIBRARY_PATH, join(libs, 'lib')].filter((d) => d !== undefined && d !== '').join(':');
  return { path, origin: `npm's @sparticuz/chromium (${path})`, env: { LD_LIBRARY_PATH: library } };
}

/** The package's `bin` directory, above its entry module's directory. */
function findBin(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) if (existsSync(join(dir, 'bin', 'al2023.tar.br'))) return join(dir, 'bin');
  throw new Error(`@sparticuz/chromium: no bin/al2023.tar.br above ${from}`);
}

/**
 * Flags for a headless chromium on a machine without network: without those that turn
 * off its background connections (component updates, sync, QUIC probes) it hangs on them.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * A chromium with a fresh profile of its own (`--user-data-dir`, which playwright sets
 * for a persistent context); closing it removes the profile.
 */
export async function launchChromium(viewport = { width: 1200, height: 900 }): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const found = await findChromium();
  if ('missing' in found) throw new Error(`No Chromium to run: ${found.missing}.`);
  const profile = mkdtempSync(join(tmpdir(), 'qsfilter-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: found.path,
    env: { ...process.env, ...found.env },
    args: CHROMIUM_ARGS,
    headless: true,
    viewport,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
