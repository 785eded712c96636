import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPlayground } from '../../../examples/playground/build';
import { findChromium, launchChromium } from '../../../examples/playground/browser';
import { buildApp } from '../../../examples/server/app';
import { sampleData } from '../../../examples/server/data/sample';
import { PLAYGROUND_CSP } from '../../../examples/server/routes/playground';
import { openStore } from '../../../examples/server/store/open';
import { query, vendors } from '../../../src/index';

/**
 * The playground in a real browser (npm's Chromium build, driven by playwright-core), served
 * by the example server over loopback HTTP, as a person would use it: type a bad query
 * and see its diagnostics, type a good one and see rows, build one with the form.
 */

let html: string;
let base: string;
let context: BrowserContext;
let page: Page;
/** Every URL the page asked for. */
const requested: string[] = [];
const problems: string[] = [];
const stops: (() => Promise<void>)[] = [];

// Where no Chromium can be had (npm's build is for Linux x64 only), this file's tests are
// skipped, and the run says so plainly, as skipped, never as passed. In CI it fails instead.
const chromiumFound = await findChromium();
const noChromium = 'missing' in chromiumFound ? chromiumFound.missing : undefined;
if ('missing' in chromiumFound) {
  if (process.env.CI) throw new Error(`The playground's browser tests cannot run: ${noChromium}.`);
  console.warn(`NOT TESTED: the playground in a browser, because ${noChromium}.`);
} else console.log(`The playground's browser tests drive ${chromiumFound.origin}.`);

beforeAll(async () => {
  if (noChromium !== undefined) return;
  html = await buildPlayground();
  const opened = await openStore({ store: 'memory' }, sampleData());
  const app = buildApp({ store: opened.store, playground: html });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  stops.push(() => opened.close(), () => app.close());
  const chromium = await launchChromium();
  stops.push(() => chromium.close());
  context = chromium.context;
  page = await context.newPage();
  page.on('request', (r) => requested.push(r.url()));
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  await page.goto(`${base}/`);
  await page.waitForSelector('#rows table');
}, 60_000);

afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

/**
 * Types a query into the box as a person would (replacing what is there), and waits
 * until the page shows that query: it checks a moment after the last keystroke, so a
 * slow machine may show a part of the query first.
 */
async function type(text: string): Promise<void> {
  await page.fill('#query', '');
  await page.locator('#query').pressSequentially(text, { delay: 0 });
  await page.waitForFunction((typed) => document.body.dataset.checked === typed, text);
}

describe.skipIf(noChromium !== undefined)('the playground page', () => {
  it('is one self-contained HTML file, served at / with a policy that allows nothing from elsewhere', async () => {
    const response = await fetch(`${base}/`);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(PLAYGROUND_CSP);
    expect(await response.text()).toBe(html);
    // (Chevrotain's error messages hold links to its docs: text, never loaded.)
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+rel="stylesheet"|@import|url\(|(?:src|href)="https?:/);
  });

  it('starts with a valid query on invoices, its rows, its meaning and its canonical form', async () => {
    expect(await page.textContent('#status')).toBe('Valid: this is what the server will do.');
    expect(await page.locator('#rows table tr').count()).toBe(6); // a header and limit=5 rows
    expect(await page.locator('#explanation li').allTextContents()).toEqual([
      'totalAmount is at least 100 and at most 2000',
      'Sorted by totalAmount, largest first, then by id, in code point order; items without a value come last.',
      'Page: 5 items from offset 0 (matches 1 to 5).',
    ]);
    expect(await page.textContent('#canonical')).toBe('businessName=Acme%20%26%20Sons&serviceName=quickbooks&orderBy=-totalAmount&limit=5&totalAmount=gte:100;lte:2000');
  });

  it('shows every diagnostic of a bad query as it is typed, with its caret and hint, and fetches nothing', async () => {
    const before = requested.length;
    await type('businessName=Acme&serviceName=quickbooks&totalAmount=GTE:100&vendorNme=%25acme%25');
    await page.waitForSelector('pre.diagnostic');
    expect(await page.textContent('#status')).toBe('2 problems: the server would answer 400.');
    const shown = await page.locator('pre.diagnostic').allTextContents();
    expect(shown[0]).toBe(
      [
        'error[INVALID_NUMBER]: Parameter "totalAmount" needs a number, not "GTE:100".',
        '  totalAmount=GTE:100',
        '              ^^^^^^^',
        '  hint: Operators are lower case: write gte:100, not GTE:100.',
      ].join('\n'),
    );
    expect(shown[1]).toContain('error[UNKNOWN_FIELD]: Parameter "vendorNme" is not a filterable field of this resource.');
    expect(shown[1]).toContain('hint: Filterable fields:');
    expect(await page.textContent('#rows')).toBe('Fix the query to see the rows it selects.');
    expect(requested.slice(before)).toEqual([]);
  });

  it('fetches the rows of a good query from the API', async () => {
    await type('businessName=Acme%20%26%20Sons&serviceName=quickbooks&lines.amount=gte:10;lte:50&orderBy=postedDate&limit=3');
    await page.waitForFunction(() => document.querySelectorAll('#rows table tr').length === 4);
    expect(await page.textContent('#status')).toBe('Valid: this is what the server will do.');
    expect(await page.locator('#explanation li').first().textContent()).toBe('in some line, amount is at least 10 and at most 50');
    const path = '/invoices?businessName=Acme%20%26%20Sons&serviceName=quickbooks&orderBy=postedDate&limit=3&lines.amount=gte:10;lte:50';
    expect(requested).toContain(`${base}${path}`);
    // The rows are the API's answer to that request, in its order.
    const api = (await (await fetch(`${base}${path}`)).json()) as { data: { id: string }[] };
    const ids = await page.locator('#rows table tr td:first-child').allTextContents();
    expect(ids).toEqual(api.data.map((item) => item.id));
  });

  it('builds a query with the form through the typed builder', async () => {
    await page.selectOption('#resource', 'vendors');
    await page.click('[data-mode="form"]');
    await page.click('#add-condition');
    await page.selectOption('.condition [name="path"]', 'vendorName');
    await page.selectOption('.condition [name="operator"]', 'contains');
    await page.fill('.condition [name="value"]', 'acme & ');
    await page.selectOption('[name="orderBy"]', 'balance');
    await page.selectOption('[name="direction"]', 'desc');
    const expected = query(vendors)
      .param('businessName', 'Acme & Sons')
      .param('serviceName', 'quickbooks')
      .where('vendorName', 'contains', 'acme & ')
      .orderBy('balance', 'desc')
      .toString();
    await page.waitForFunction((q) => (document.getElementById('query') as HTMLInputElement).value === q, expected);
    await page.waitForSelector('#rows table');
    expect(await page.textContent('#status')).toBe('Valid: this is what the server will do.');
    const names = await page.locator('#rows table tr td:nth-child(2)').allTextContents();
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(name.toLowerCase()).toContain('acme & ');
  });

  // Issue 23, item 11: a value the form cannot send is the user's problem, said in the
  // page's words; the page calls nothing valid and shows no rows meanwhile.
  it('says in its own words what is wrong with a value typed into the form, and shows no rows meanwhile', async () => {
    await page.click('#add-condition');
    const row = page.locator('.condition').nth(1);
    await row.locator('[name="path"]').selectOption('balance');
    await row.locator('[name="value"]').pressSequentially('abc', { delay: 0 });
    await expect.poll(() => page.textContent('.form-error')).toBe('balance: "abc" is not a number. Write one such as 100, -2.5 or 1.5e3.');
    expect(await page.textContent('#status')).toBe('A value in the form cannot be sent: see below the form.');
    expect(await page.getAttribute('#status', 'class')).toBe('bad');
    expect(await page.textContent('#rows')).toBe('Fix the form to see the rows it selects.');
    expect(await page.locator('#rows table').count()).toBe(0);
    expect(await page.textContent('#canonical')).toBe('');
    // Mended, the form's query is checked and its rows come back.
    await row.locator('[name="value"]').fill('100');
    await row.locator('[name="operator"]').selectOption('gte');
    await page.waitForSelector('#rows table');
    expect(await page.textContent('#status')).toBe('Valid: this is what the server will do.');
    expect(await page.textContent('.form-error')).toBe('');
    // A date that is none, and a limit out of range, alike.
    await page.selectOption('#resource', 'invoices');
    await page.click('#add-condition');
    await page.locator('.condition [name="path"]').selectOption('postedDate');
    await page.locator('.condition [name="value"]').fill('2023-13-01');
    await page.fill('[name="limit"]', '0');
    await expect.poll(() => page.locator('.form-error li').allTextContents()).toEqual([
      'postedDate: "2023-13-01" is not a date. Write one such as 2023-01-09, or a date-time such as 2023-01-09T10:00:00Z.',
      'limit: "0" is not a whole number from 1 to 500.',
    ]);
    expect(await page.textContent('#status')).toBe('2 values in the form cannot be sent: see below the form.');
    await page.click('[data-mode="type"]');
  });

  it('shows references in table cells by name and id, not as JSON', async () => {
    await page.selectOption('#resource', 'invoices');
    await page.waitForFunction(() => document.querySelectorAll('#rows table tr').length > 1);
    const heads = await page.locator('#rows table th').allTextContents();
    const column = heads.indexOf('customerRef') + 1;
    expect(column).toBeGreaterThan(0);
    const refs = await page.locator(`#rows table tr td:nth-child(${column})`).allTextContents();
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(ref).toMatch(/^[^{}"]+ \([^()]+\)$/);
    for (const text of await page.locator('#rows td').allTextContents()) expect(text).not.toMatch(/^[{[]/);
  });

  it('fits a phone-width screen (375 px): the request line and the rows\' summary wrap rather than overflow', async () => {
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 375, height: 800 });
    await phone.goto(`${base}/`);
    await phone.waitForSelector('#rows table');
    const overflow = async (): Promise<unknown> =>
      phone.evaluate(() => {
        const query = document.getElementById('query')!.getBoundingClientRect();
        const line = document.querySelector<HTMLElement>('#rows > p')!;
        return { page: document.documentElement.scrollWidth, queryRight: Math.ceil(query.right), line: line.scrollWidth > line.clientWidth };
      });
    expect(await overflow()).toEqual({ page: 375, queryRight: expect.any(Number) as number, line: false });
    expect(((await overflow()) as { queryRight: number }).queryRight).toBeLessThanOrEqual(375);
    await phone.screenshot({ path: join(tmpdir(), 'qsfilter-playground-375.png'), fullPage: true });
    await phone.click('[data-mode="form"]');
    await phone.click('#add-condition');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBe(375);
    await phone.screenshot({ path: join(tmpdir(), 'qsfilter-playground-375-form.png'), fullPage: true });
    await phone.close();
  });

  it('draws the railroad diagrams, and asked for nothing but this server', async () => {
    await page.click('summary');
    expect(await page.locator('details svg.railroad-diagram').count()).toBe(11);
    expect(await page.locator('details h3').allTextContents()).toContain('operand');
    for (const url of requested) expect(url.startsWith(`${base}/`), url).toBe(true);
    expect(problems).toEqual([]);
  });
});
