import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, findBrowser, launchBrowser, newPage } from '../../examples/playground/browser';
import { expectSameAsHere, useScratchApp } from './smoke';

/**
 * The browser entries (reference §15): `dist/index.js` and `dist/client.js` of the packed
 * package, loaded as they are (native ES modules and their chunks, no bundler) in
 * Chromium and Firefox, by a page whose Content-Security-Policy allows scripts from its
 * own origin only: no inline script, no `unsafe-eval`, so `new Function` is refused and
 * the closures serve. The page computes `self-check.ts` there, and a catalog schema of
 * `qsfilter/client` validates, loading the checker on first use.
 */

/** What the page may load: scripts and requests from its own origin, nothing else. */
const CSP = "default-src 'none'; script-src 'self'; connect-src 'self'";

const PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>qsfilter in a browser</title>
<script type="module" src="/page.js"></script></head><body></body></html>`;

/** The page's script: its results, as JSON, on the body's data attributes. */
const SCRIPT = `import { selfCheck } from '/self-check.js';
import { invoices } from '/qsfilter/dist/client.js';
const show = (key, value) => (document.body.dataset[key] = JSON.stringify(value));
try {
  show('selfCheck', selfCheck());
  const bad = await invoices['~standard'].validate('totalAmount=GTE:100');
  const good = await invoices['~standard'].validate('businessName=Acme&serviceName=quickbooks&totalAmount=gte:100');
  show('validated', { bad: bad.issues.map((i) => [i.code, i.path]), good: good.value.conditions.map((c) => c.key) });
} catch (error) {
  show('error', String(error?.stack ?? error));
}`;

const app = useScratchApp();
let server: Server;
let base: string;

beforeAll(async () => {
  const dir = app().dir;
  server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const send = (type: string, body: string | Buffer): void => {
      response.writeHead(200, { 'content-type': type, 'content-security-policy': CSP });
      response.end(body);
    };
    if (path === '/') return send('text/html; charset=utf-8', PAGE);
    if (path === '/page.js') return send('text/javascript', SCRIPT);
    // The app's module, its imports of the package by name turned into the files a browser loads.
    if (path === '/self-check.js') {
      const source = readFileSync(join(dir, 'self-check.js'), 'utf8');
      return send('text/javascript', source.replaceAll(`from "qsfilter/client"`, `from "/qsfilter/dist/client.js"`).replaceAll(`from "qsfilter"`, `from "/qsfilter/dist/index.js"`));
    }
    // The package as installed from the tarball: what it ships, nothing else.
    const file = normalize(path).replace(/^\/qsfilter\//, '');
    if (file !== path && !file.startsWith('..')) {
      try {
        return send(extname(file) === '.js' ? 'text/javascript' : 'application/octet-stream', readFileSync(join(dir, 'node_modules', 'qsfilter', file)));
      } catch {
        // not shipped: 404 below
      }
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

describe.each(BROWSERS)('the browser entries in %s, under a CSP of script-src \'self\'', (name) => {
  let browser: Browser;

  beforeAll(async () => {
    const found = await findBrowser(name);
    // A missing browser fails here, loudly: this file runs where the playground's does.
    if ('missing' in found) throw new Error(`No ${name} to run: ${found.missing}.`);
    browser = await launchBrowser(name);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('load as ES modules from the package, compute what Node computes with the closures, and validate through the client', async () => {
    const page = await newPage(browser);
    const errors: string[] = [];
    page.on('pageerror', (e) => void errors.push(String(e)));
    try {
      const response = await page.goto(`${base}/`);
      expect(response?.headers()['content-security-policy']).toBe(CSP);
      await page.waitForFunction(() => document.body.dataset.validated !== undefined || document.body.dataset.error !== undefined);
      const read = (key: string): Promise<unknown> => page.evaluate((k) => JSON.parse(document.body.dataset[k] ?? 'null') as unknown, key);
      expect(await read('error')).toBeNull();
      expectSameAsHere(await read('selfCheck'), 'EvalError');
      expect(await read('validated')).toEqual({ bad: [['INVALID_NUMBER', ['totalAmount']]], good: ['totalAmount'] });
      // Firefox reports each refusal of the policy as a page error (the eval refused is the point).
      expect(errors.filter((e) => !e.includes('Content-Security-Policy'))).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
