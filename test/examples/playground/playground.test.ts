import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, ElementHandle, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, findBrowser, launchBrowser, newPage, type BrowserName } from '../../../examples/playground/browser';
import { buildPlayground } from '../../../examples/playground/build';
import { buildApp } from '../../../examples/server/app';
import { sampleData } from '../../../examples/server/data/sample';
import { PLAYGROUND_CSP } from '../../../examples/server/routes/playground';
import { openStore } from '../../../examples/server/store/open';
import { query, vendors } from '../../../src/index';

/**
 * The playground in real browsers, Chromium (npm's build) and Firefox (Debian's ESR),
 * driven by puppeteer-core (`examples/playground/browser.ts`), served by the example
 * server over loopback HTTP, as a person would use it: type a bad query and see its
 * diagnostics, type a good one and see rows, build one with the form.
 */

// Where a browser cannot be had (npm's Chromium is for Linux x64 only; Firefox is
// installed with apt-get where it can be), its tests are skipped, and the run says so
// plainly, as skipped, never as passed. In CI it fails instead.
const missing = new Map<BrowserName, string>();
for (const name of BROWSERS) {
  const found = await findBrowser(name);
  if ('missing' in found) {
    if (process.env.CI) throw new Error(`The playground's tests cannot run in ${name}: ${found.missing}.`);
    console.warn(`NOT TESTED: the playground in ${name}, because ${found.missing}.`);
    missing.set(name, found.missing);
  } else console.log(`The playground's tests drive ${name}: ${found.origin}.`);
}

let html: string;
let base: string;
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  html = await buildPlayground();
  const opened = await openStore({ store: 'memory' }, sampleData());
  const app = buildApp({ store: opened.store, playground: html });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  stops.push(() => opened.close(), () => app.close());
});

afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

describe('the playground page', () => {
  it('is one self-contained HTML file, served at / with a policy that allows nothing from elsewhere', async () => {
    const response = await fetch(`${base}/`);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(PLAYGROUND_CSP);
    expect(await response.text()).toBe(html);
    // (Chevrotain's error messages hold links to its docs: text, never loaded.)
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+rel="stylesheet"|@import|url\(|(?:src|href)="https?:/);
  });
});

// ---------------------------------------------------------------- what the tests do to a page, as a person would

const text = (page: Page, selector: string): Promise<string | null> => page.$eval(selector, (e) => e.textContent);
const texts = (page: Page, selector: string): Promise<string[]> => page.$$eval(selector, (es) => es.map((e) => e.textContent ?? ''));
const count = async (page: Page, selector: string): Promise<number> => (await page.$$(selector)).length;
/** The headings (h2) a person sees. */
const headings = (page: Page): Promise<string[]> => page.$$eval('h2', (hs) => hs.filter((h) => h.checkVisibility()).map((h) => h.textContent ?? ''));

/** Sets a box's value at once, as pasting does: one input event, then change. */
async function fill(box: ElementHandle<Element>, value: string): Promise<void> {
  await box.evaluate((e, v) => {
    (e as HTMLInputElement).value = v;
    e.dispatchEvent(new Event('input', { bubbles: true }));
    e.dispatchEvent(new Event('change', { bubbles: true }));
  }, value);
}

async function fillIn(page: Page, selector: string, value: string): Promise<void> {
  await fill((await page.$(selector))!, value);
}

/**
 * Types a query into the box as a person would (replacing what is there), and waits
 * until the page shows that query: it checks a moment after the last keystroke, so a
 * slow machine may show a part of the query first.
 */
async function type(page: Page, query: string): Promise<void> {
  await fillIn(page, '#query', '');
  await page.type('#query', query);
  await page.waitForFunction((typed) => document.body.dataset.checked === typed, {}, query);
}

/** A resource chosen from the list, as a person picks it. */
async function choose(page: Page, resource: string): Promise<void> {
  await page.select('#resource', resource);
}

async function openPage(browser: Browser, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await newPage(browser);
  if (viewport !== undefined) await page.setViewport(viewport);
  await page.goto(`${base}/`);
  await page.waitForSelector('#rows table');
  return page;
}

// ---------------------------------------------------------------- in each browser

describe.each(BROWSERS)('the playground in %s', (name) => {
  let browser: Browser;
  let page: Page;
  /** Every URL the page asked for. */
  const requested: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    if (missing.has(name)) return;
    browser = await launchBrowser(name);
    page = await newPage(browser);
    page.on('request', (r) => void requested.push(r.url()));
    page.on('pageerror', (e) => void problems.push(String(e)));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    await page.goto(`${base}/`);
    await page.waitForSelector('#rows table');
  });

  afterAll(async () => {
    await browser?.close();
  });

  describe.skipIf(missing.has(name))('as a person uses it', () => {
    it('starts with a valid query on invoices, its rows, its meaning and its canonical form', async () => {
      expect(await text(page, '#status')).toBe('Valid: this is what the server will do.');
      expect(await count(page, '#rows table tr')).toBe(6); // a header and limit=5 rows
      expect(await texts(page, '#explanation li')).toEqual([
        'totalAmount is at least 100 and at most 2000',
        'Sorted by totalAmount, largest first, then by id, in code point order; items without a value come last.',
        'Page: 5 items from offset 0 (matches 1 to 5).',
      ]);
      expect(await text(page, '#canonical')).toBe('businessName=Acme%20%26%20Sons&serviceName=quickbooks&orderBy=-totalAmount&limit=5&totalAmount=gte:100;lte:2000');
      expect(await headings(page)).toEqual(['What it means', 'Canonical form', 'Matching rows']);
    });

    it('shows every diagnostic of a bad query as it is typed, with its caret and hint, and fetches nothing', async () => {
      const before = requested.length;
      await type(page, 'businessName=Acme&serviceName=quickbooks&totalAmount=GTE:100&vendorNme=%25acme%25');
      await page.waitForSelector('pre.diagnostic');
      expect(await text(page, '#status')).toBe('2 problems: the server would answer 400.');
      const shown = await texts(page, 'pre.diagnostic');
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
      expect(await text(page, '#rows')).toBe('Fix the query to see the rows it selects.');
      expect(requested.slice(before)).toEqual([]);
    });

    // Issue 34, item 5: the headings of a valid filter's meaning stood empty over nothing.
    it('shows no "What it means" and "Canonical form" for an invalid query, and shows them again for a valid one', async () => {
      await type(page, 'businessName=Acme&serviceName=quickbooks&totalAmount=GTE:100');
      await page.waitForSelector('pre.diagnostic');
      expect(await headings(page)).toEqual(['Matching rows']);
      await type(page, 'businessName=Acme&serviceName=quickbooks&totalAmount=gte:100');
      await page.waitForFunction(() => document.getElementById('status')!.className === 'good');
      expect(await headings(page)).toEqual(['What it means', 'Canonical form', 'Matching rows']);
    });

    it('fetches the rows of a good query from the API', async () => {
      await type(page, 'businessName=Acme%20%26%20Sons&serviceName=quickbooks&lines.amount=gte:10;lte:50&orderBy=postedDate&limit=3');
      await page.waitForFunction(() => document.querySelectorAll('#rows table tr').length === 4);
      expect(await text(page, '#status')).toBe('Valid: this is what the server will do.');
      expect((await texts(page, '#explanation li'))[0]).toBe('in some line, amount is at least 10 and at most 50');
      const path = '/invoices?businessName=Acme%20%26%20Sons&serviceName=quickbooks&orderBy=postedDate&limit=3&lines.amount=gte:10;lte:50';
      expect(requested).toContain(`${base}${path}`);
      // The rows are the API's answer to that request, in its order.
      const api = (await (await fetch(`${base}${path}`)).json()) as { data: { id: string }[] };
      expect(await texts(page, '#rows table tr td:first-child')).toEqual(api.data.map((item) => item.id));
    });

    it('builds a query with the form through the typed builder', async () => {
      await choose(page, 'vendors');
      await page.click('[data-mode="form"]');
      await page.click('#add-condition');
      await page.select('.condition [name="path"]', 'vendorName');
      await page.select('.condition [name="operator"]', 'contains');
      await fillIn(page, '.condition [name="value"]', 'acme & ');
      await page.select('[name="orderBy"]', 'balance');
      await page.select('[name="direction"]', 'desc');
      const expected = query(vendors)
        .param('businessName', 'Acme & Sons')
        .param('serviceName', 'quickbooks')
        .where('vendorName', 'contains', 'acme & ')
        .orderBy('balance', 'desc')
        .toString();
      await page.waitForFunction((q) => (document.getElementById('query') as HTMLInputElement).value === q, {}, expected);
      await page.waitForSelector('#rows table');
      expect(await text(page, '#status')).toBe('Valid: this is what the server will do.');
      const names = await texts(page, '#rows table tr td:nth-child(2)');
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) expect(name.toLowerCase()).toContain('acme & ');
    });

    // Issue 23, item 11: a value the form cannot send is the user's problem, said in the
    // page's words; the page calls nothing valid and shows no rows meanwhile.
    it('says in its own words what is wrong with a value typed into the form, and shows no rows meanwhile', async () => {
      await page.click('#add-condition');
      const row = (await page.$$('.condition'))[1]!;
      await (await row.$('[name="path"]'))!.select('balance');
      await (await row.$('[name="value"]'))!.type('abc');
      await expect.poll(() => text(page, '.form-error')).toBe('balance: "abc" is not a number. Write one such as 100, -2.5 or 1.5e3.');
      expect(await text(page, '#status')).toBe('A value in the form cannot be sent: see below the form.');
      expect(await page.$eval('#status', (e) => e.className)).toBe('bad');
      expect(await text(page, '#rows')).toBe('Fix the form to see the rows it selects.');
      expect(await count(page, '#rows table')).toBe(0);
      expect(await text(page, '#canonical')).toBe('');
      expect(await headings(page)).toEqual(['Matching rows']);
      // Mended, the form's query is checked and its rows come back.
      await fill((await row.$('[name="value"]'))!, '100');
      await (await row.$('[name="operator"]'))!.select('gte');
      await page.waitForSelector('#rows table');
      expect(await text(page, '#status')).toBe('Valid: this is what the server will do.');
      expect(await text(page, '.form-error')).toBe('');
      // A date that is none, and a limit out of range, alike.
      await choose(page, 'invoices');
      await page.click('#add-condition');
      await page.select('.condition [name="path"]', 'postedDate');
      await fillIn(page, '.condition [name="value"]', '2023-13-01');
      await fillIn(page, '[name="limit"]', '0');
      await expect.poll(() => texts(page, '.form-error li')).toEqual([
        'postedDate: "2023-13-01" is not a date. Write one such as 2023-01-09, or a date-time such as 2023-01-09T10:00:00Z.',
        'limit: "0" is not a whole number from 1 to 500.',
      ]);
      expect(await text(page, '#status')).toBe('2 values in the form cannot be sent: see below the form.');
      await page.click('[data-mode="type"]');
    });

    it('shows references in table cells by name and id, not as JSON', async () => {
      await choose(page, 'invoices');
      await type(page, 'businessName=Acme%20%26%20Sons&serviceName=quickbooks&limit=5');
      await page.waitForFunction(() => document.querySelectorAll('#rows table tr').length > 1);
      const heads = await texts(page, '#rows table th');
      const column = heads.indexOf('customerRef') + 1;
      expect(column).toBeGreaterThan(0);
      const refs = await texts(page, `#rows table tr td:nth-child(${column})`);
      expect(refs.length).toBeGreaterThan(0);
      for (const ref of refs) expect(ref).toMatch(/^[^{}"]+ \([^()]+\)$/);
      for (const cell of await texts(page, '#rows td')) expect(cell).not.toMatch(/^[{[]/);
    });

    // Issue 34, item 5: choosing a resource put its starter query in the box, over the
    // user's (and so `%25acme` typed on vendors came back as the starter's `%25acme%25`).
    it("keeps the query the user typed when another resource is chosen, and checks it against that one", async () => {
      const own = await openPage(browser);
      try {
        await choose(own, 'vendors');
        expect(await own.$eval('#query', (e) => (e as HTMLInputElement).value)).toBe('businessName=Acme%20%26%20Sons&serviceName=quickbooks&vendorName=%25acme%25');
        const typed = 'businessName=Acme%20%26%20Sons&serviceName=quickbooks&vendorName=%25acme';
        await type(own, typed);
        await own.waitForFunction(() => document.getElementById('status')!.className === 'good');
        await choose(own, 'invoices');
        await own.waitForSelector('pre.diagnostic');
        expect(await own.$eval('#query', (e) => (e as HTMLInputElement).value)).toBe(typed);
        expect(await texts(own, 'pre.diagnostic .code')).toEqual(['error[UNKNOWN_FIELD]']);
        await choose(own, 'vendors');
        // Checked and sent again (no vendor's name ends in "acme": the API answers none).
        await own.waitForFunction(() => document.querySelector('#rows > p')?.textContent?.includes('→'));
        expect(await text(own, '#status')).toBe('Valid: this is what the server will do.');
        expect(await own.$eval('#query', (e) => (e as HTMLInputElement).value)).toBe(typed);
        expect(await text(own, '#canonical')).toBe(typed);
        // An emptied box is the page's again: the next resource's starter fills it.
        await fillIn(own, '#query', '');
        await choose(own, 'bills');
        expect(await own.$eval('#query', (e) => (e as HTMLInputElement).value)).toBe('businessName=Acme%20%26%20Sons&serviceName=quickbooks&status=open&orderBy=dueDate&limit=5');
      } finally {
        await own.close();
      }
    });

    // Issue 34, item 5: a hint listing a resource's fields, and the rows' table of a
    // resource with many columns, ran off the right edge of a 1200 px window.
    it('keeps long hints and every resource\'s rows within a desktop-width window (1200 px)', async () => {
      const desk = await openPage(browser, { width: 1200, height: 900 });
      try {
        const overflow = (selector: string): Promise<string[]> =>
          desk.$$eval(selector, (es) => es.filter((e) => e.scrollWidth > e.clientWidth).map((e) => `${e.id || e.className}: ${e.scrollWidth} > ${e.clientWidth}`));
        const resources = await desk.$$eval('#resource option', (os) => os.map((o) => (o as HTMLOptionElement).value));
        expect(resources.length).toBeGreaterThan(5);
        for (const resource of resources) {
          await fillIn(desk, '#query', ''); // the page's starter query of each resource
          await choose(desk, resource);
          await desk.waitForFunction(() => document.querySelectorAll('#rows table tr').length > 1);
          expect(await overflow('#rows'), resource).toEqual([]);
          expect(await desk.evaluate(() => document.documentElement.scrollWidth <= innerWidth), resource).toBe(true);
        }
        await screenshot(desk, name, 'rows-1200');
        await choose(desk, 'invoices');
        await type(desk, 'businessName=Acme&serviceName=quickbooks&vendorNme=1&orderBy=nope');
        await desk.waitForSelector('pre.diagnostic');
        const hints = await texts(desk, 'pre.diagnostic .hint-line');
        expect(hints.length).toBe(2);
        expect(hints[0]!.length).toBeGreaterThan(150); // longer than the box is wide, so it wraps
        expect(await overflow('pre.diagnostic')).toEqual([]);
        // The excerpt and its caret line stay as the CLI prints them: one line each.
        const lines = await desk.$$eval('pre.diagnostic .excerpt', (es) => es.map((e) => Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight))));
        expect(lines).toEqual([1, 1, 1, 1]);
        await screenshot(desk, name, 'hints-1200');
      } finally {
        await desk.close();
      }
    });

    it("fits a phone-width screen (375 px): the request line and the rows' summary wrap rather than overflow", async () => {
      const phone = await openPage(browser, { width: 375, height: 800 });
      try {
        const overflow = async (): Promise<{ page: number; queryRight: number; line: boolean }> =>
          phone.evaluate(() => {
            const query = document.getElementById('query')!.getBoundingClientRect();
            const line = document.querySelector<HTMLElement>('#rows > p')!;
            return { page: document.documentElement.scrollWidth, queryRight: Math.ceil(query.right), line: line.scrollWidth > line.clientWidth };
          });
        const first = await overflow();
        expect(first.page).toBeLessThanOrEqual(375);
        expect(first.queryRight).toBeLessThanOrEqual(375);
        expect(first.line).toBe(false);
        await screenshot(phone, name, '375');
        await phone.click('[data-mode="form"]');
        await phone.click('#add-condition');
        expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
        await screenshot(phone, name, '375-form');
      } finally {
        await phone.close();
      }
    });

    it('draws the railroad diagrams, and asked for nothing but this server', async () => {
      await page.click('summary');
      expect(await count(page, 'details svg.railroad-diagram')).toBe(11);
      expect(await texts(page, 'details h3')).toContain('operand');
      // (Firefox reports the data: URLs of its own fonts: inline content, fetched from nowhere.)
      for (const url of requested.filter((u) => !u.startsWith('data:'))) expect(url.startsWith(`${base}/`), url).toBe(true);
      expect(requested.length).toBeGreaterThan(1);
      expect(problems).toEqual([]);
    });
  });
});

/** A picture of the page, for a person to look at after a run (never compared). */
async function screenshot(page: Page, browser: BrowserName, what: string): Promise<void> {
  await page.screenshot({ path: join(tmpdir(), `qsfilter-playground-${browser}-${what}.png`), fullPage: true });
}
