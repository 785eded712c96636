import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompressSync } from 'node:zlib';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

/**
 * The browsers the playground's tests (and the browser entries' tests) run in, driven by
 * puppeteer-core: Chromium over the DevTools protocol, Firefox over WebDriver BiDi, each
 * an unpatched build. (playwright-core drives Firefox only in playwright's own patched
 * build, which it downloads from its CDN, or over BiDi through a command that Firefox ESR
 * does not have, `emulation.setMediaFeaturesOverride`: every new page failed; and there
 * is no geckodriver in Debian or on npm without a download.)
 */
export const BROWSERS = ['chromium', 'firefox'] as const;

export type BrowserName = (typeof BROWSERS)[number];

/** A browser to drive, and the environment it needs. */
export interface FoundBrowser {
  readonly path: string;
  /** Where it comes from, as a test run reports it. */
  readonly origin: string;
  readonly env: Record<string, string>;
}

/** The browser `name` to drive, or why there is none. */
export function findBrowser(name: BrowserName): Promise<FoundBrowser | { readonly missing: string }> {
  return name === 'chromium' ? findChromium() : findFirefox();
}

/**
 * The Chromium to drive, or why there is none. `CHROMIUM_PATH` names one; else, on Linux,
 * the build that the npm package `@sparticuz/chromium` ships (a devDependency: a browser
 * download from elsewhere cannot work on a closed network, and the reader should not have
 * to install a browser). Its binary needs three libraries a bare machine may lack (NSS,
 * NSPR, expat): the package carries them too, and they go last on the browser's library
 * path, so the machine's own serve where it has them.
 */
export async function findChromium(): Promise<FoundBrowser | { readonly missing: string }> {
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

/** The Debian package the test command installs where no Firefox is found. */
const FIREFOX_PACKAGE = 'firefox-esr';

/**
 * The Firefox to drive, or why there is none. `FIREFOX_PATH` names one; else the first
 * `firefox-esr` or `firefox` on PATH; else, on a Debian or Ubuntu machine where this runs
 * as root (CI's, and the machines here), Debian's `firefox-esr`, installed now with
 * apt-get (once: it is on PATH after), as the test command brings Postgres and Chromium
 * itself. npm has no Firefox build that installs without a download from elsewhere.
 */
export async function findFirefox(): Promise<FoundBrowser | { readonly missing: string }> {
  const given = process.env.FIREFOX_PATH;
  if (given !== undefined && given !== '') {
    return existsSync(given) ? { path: given, origin: `FIREFOX_PATH (${given})`, env: {} } : { missing: `FIREFOX_PATH names ${given}, which does not exist` };
  }
  const onPath = firefoxOnPath();
  if (onPath !== undefined) return { path: onPath, origin: onPath, env: {} };
  const apt = ['/usr/bin/apt-get', '/bin/apt-get'].find((p) => existsSync(p));
  if (process.platform !== 'linux' || apt === undefined || process.getuid?.() !== 0) {
    return { missing: `no firefox-esr or firefox on PATH: install one (Debian: apt-get install ${FIREFOX_PACKAGE}), or set FIREFOX_PATH` };
  }
  const installed = await aptInstall(apt, FIREFOX_PACKAGE);
  const path = firefoxOnPath();
  if (path === undefined) return { missing: `apt-get install ${FIREFOX_PACKAGE} did not give a firefox on PATH: ${installed}` };
  return { path, origin: `Debian's ${FIREFOX_PACKAGE}, installed by this run with apt-get (${path})`, env: {} };
}

function firefoxOnPath(): string | undefined {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter((d) => d !== '');
  for (const name of ['firefox-esr', 'firefox']) {
    for (const dir of dirs) if (existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/**
 * Installs a Debian package, reading the package lists first when apt does not know it
 * yet. Two test files may ask at once: apt-get waits for the other's lock (up to 10
 * minutes), and the second install finds it done.
 */
async function aptInstall(apt: string, name: string): Promise<string> {
  const run = promisify(execFile);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const wait = ['-o', 'DPkg::Lock::Timeout=600'];
  const install = () => run(apt, [...wait, 'install', '-y', '-q', '--no-install-recommends', name], { env, maxBuffer: 64 << 20 });
  try {
    await install();
  } catch {
    try {
      await run(apt, [...wait, 'update', '-q'], { env, maxBuffer: 64 << 20 });
      await install();
    } catch (error) {
      return ((error as { stderr?: string }).stderr ?? String(error)).trim().split('\n').slice(-3).join(' ');
    }
  }
  return 'installed';
}

/**
 * Flags for a headless chromium on a machine without network: without those that turn
 * off its background connections (component updates, sync, QUIC probes) it hangs on them.
 */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * Firefox's settings on a machine without network: no update, telemetry, Safe Browsing
 * or captive-portal checks (puppeteer turns most of them off; these are the rest).
 */
const FIREFOX_PREFS: Record<string, unknown> = {
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
  'browser.safebrowsing.update.enabled': false,
  'datareporting.policy.dataSubmissionEnabled': false,
};

/**
 * A headless browser with a fresh profile of its own, which closing it removes. No wait
 * of the driver has a time limit (0), as no test's has: a loaded machine is slower, not
 * wrong.
 */
export async function launchBrowser(name: BrowserName, viewport = { width: 1200, height: 900 }): Promise<Browser> {
  const found = await findBrowser(name);
  if ('missing' in found) throw new Error(`No ${name} to run: ${found.missing}.`);
  const common = { executablePath: found.path, env: { ...process.env, ...found.env }, headless: true, defaultViewport: viewport, timeout: 0, protocolTimeout: 0 } as const;
  return name === 'chromium'
    ? puppeteer.launch({ ...common, browser: 'chrome', args: CHROMIUM_ARGS })
    : puppeteer.launch({ ...common, browser: 'firefox', extraPrefsFirefox: FIREFOX_PREFS });
}

/** A new tab of a browser, whose waits (for a selector, a function, a navigation) have no time limit. */
export async function newPage(browser: Browser): Promise<Page> {
  const page = await browser.newPage();
  page.setDefaultTimeout(0);
  return page;
}
