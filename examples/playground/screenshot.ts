/**
 * Takes the screenshots of the playground in docs/example-server.md: the example server
 * on the sample data, the page in npm's Chromium build, a good query and a bad one.
 *
 * Run with `npx tsx examples/playground/screenshot.ts` (after `npm run build`).
 */
import { fileURLToPath } from 'node:url';
import { buildApp } from '../server/app';
import { sampleData } from '../server/data/sample';
import { openStore } from '../server/store/open';
import { launchBrowser, newPage } from './browser';
import { buildPlayground } from './build';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));
const GOOD = here('../../docs/images/playground.png');
const BAD = here('../../docs/images/playground-diagnostics.png');

const opened = await openStore({ store: 'memory' }, sampleData());
const app = buildApp({ store: opened.store, playground: await buildPlayground() });
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const browser = await launchBrowser('chromium', { width: 1100, height: 760 });
try {
  const page = await newPage(browser);
  await page.goto(`${base}/`);
  await page.waitForSelector('#rows table');
  await page.screenshot({ path: GOOD });
  await page.$eval('#query', (input, text) => {
    (input as HTMLInputElement).value = text;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, 'businessName=Acme%20%26%20Sons&serviceName=quickbooks&totalAmount=GTE:100&vendorNme=%acme%');
  await page.waitForSelector('pre.diagnostic');
  await page.screenshot({ path: BAD, clip: { x: 0, y: 0, width: 1100, height: 560 } });
  console.log(`wrote ${GOOD} and ${BAD}`);
} finally {
  await browser.close();
  await app.close();
  await opened.close();
}
