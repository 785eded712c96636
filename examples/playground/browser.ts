import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's chromium: playwright's own browser download cannot work on a closed network. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

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
  const profile = mkdtempSync(join(tmpdir(), 'qsfilter-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true, viewport });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
