import { build, type Metafile } from 'esbuild';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * What a browser app pays for qsfilter (reference §11, README "Clients"): esbuild bundles,
 * minified, as an app's build would make them, measured gzipped.
 *
 * - Built from `dist/` through the package's own `exports` (a temporary
 *   `node_modules/qsfilter` links to this repository), so the budgets hold for what is
 *   published, tree-shaking of the catalog included.
 * - Built from `src/` with a metafile, to say which of our modules a bundle holds.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));

/** `query` + `literal` + one catalog schema: the whole client, at most 6 KiB gzipped. */
const CLIENT_BUDGET = 6 * 1024;
/**
 * Our own code in a bundle of `check` + a schema, Chevrotain aside. The issue's goal is
 * 10 KiB; the check path (decoding, parsing, validation, every diagnostic's message
 * and hint) was 14.8 KiB, and issue 14's hardening added 1.3 KiB (arguments checked
 * with messages that say what was expected, the output bound of 100 diagnostics, the
 * key of an unreadable parameter checked, hints that cut what they repeat): 16.1 KiB.
 * This ceiling stops it growing while the goal stands (README "Clients" gives both).
 */
const CHECK_OURS_BUDGET = 17 * 1024;

const CLIENT_APP = `import { query, literal, invoices } from 'qsfilter/client';
console.log(query(invoices).where('totalAmount', 'gte', 100).where('customerRef.id', 'eq', literal('42')).toString());`;
const CHECK_APP = `import { check, invoices } from 'qsfilter';
console.log(check(location.search, invoices));`;

let app: string;

beforeAll(() => {
  if (!existsSync(join(root, 'dist/client.js'))) throw new Error('dist/ is missing: run `npm run build` first (`npm test` does).');
  app = mkdtempSync(join(tmpdir(), 'qsfilter-bundle-'));
  mkdirSync(join(app, 'node_modules'));
  symlinkSync(root, join(app, 'node_modules/qsfilter'), 'dir');
});

afterAll(() => {
  if (app !== undefined) rmSync(app, { recursive: true, force: true });
});

interface Bundle {
  readonly text: string;
  readonly gzip: number;
  readonly inputs: string[];
}

/** Bundles an app's entry module for the browser, minified; `external` leaves packages out. */
async function bundle(contents: string, resolveDir: string, external: string[] = []): Promise<Bundle> {
  const result = await build({
    stdin: { contents, resolveDir, loader: 'ts' },
    bundle: true,
    minify: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    metafile: true,
    external,
    logLevel: 'silent',
  });
  const text = result.outputFiles[0]!.text;
  const metafile: Metafile = result.metafile;
  return { text, gzip: gzipSync(text, { level: 9 }).length, inputs: Object.keys(metafile.inputs) };
}

/** The same app, importing from the sources instead of the package. */
function fromSource(contents: string): string {
  return contents.replace(/'qsfilter(?:\/client)?'/, `'${join(root, 'src', contents.includes('qsfilter/client') ? 'client/index.ts' : 'index.ts')}'`);
}

/** A string only Chevrotain's parser runtime holds: its message for input left after a parse. */
const CHEVROTAIN_MARK = 'Redundant input, expecting EOF';

describe('qsfilter/client', () => {
  it(`bundles query + literal + one catalog schema in at most ${CLIENT_BUDGET} bytes gzipped`, async () => {
    const { gzip } = await bundle(CLIENT_APP, app);
    expect(gzip).toBeLessThanOrEqual(CLIENT_BUDGET);
  });

  it('holds no Chevrotain, no parser and no decoder', async () => {
    const published = await bundle(CLIENT_APP, app);
    expect(published.text).not.toContain(CHEVROTAIN_MARK);
    const source = await bundle(fromSource(CLIENT_APP), app);
    const modules = source.inputs.map((p) => p.slice(p.lastIndexOf('src/')));
    expect(source.inputs.filter((p) => p.includes('node_modules'))).toEqual([]);
    for (const forbidden of ['src/syntax/parse.ts', 'src/syntax/parser.ts', 'src/syntax/tokens.ts', 'src/input/decode.ts', 'src/check/validate.ts']) {
      expect(modules).not.toContain(forbidden);
    }
    expect(modules).toContain('src/client/query.ts');
  });

  it('holds the one catalog schema it imports, and none of the others', async () => {
    const { text } = await bundle(CLIENT_APP, app);
    expect(text).toContain('invoiceNumber');
    // A field or parameter that only another resource has: balance sheets, connections, sync status, businesses, deposits.
    for (const other of ['reportFrequency', 'serviceAccountRef', 'currentStatus', 'businessNameOrUuid', DEPOSITS_ONLY]) {
      expect(text, `the bundle holds ${other}`).not.toContain(other);
    }
  });
});

/** Text only the deposits schema holds: the hint of its removed `lines.memo`. */
const DEPOSITS_ONLY = 'no longer duplicated under its lines';

describe('check + a schema', () => {
  it(`is Chevrotain plus at most ${CHECK_OURS_BUDGET} bytes gzipped of ours`, async () => {
    const ours = await bundle(fromSource(CHECK_APP), app, ['chevrotain']);
    expect(ours.inputs.some((p) => p.includes('node_modules'))).toBe(false);
    expect(ours.gzip).toBeLessThanOrEqual(CHECK_OURS_BUDGET);
  });

  it('bundles from the package with Chevrotain inside, and the one schema', async () => {
    const published = await bundle(CHECK_APP, app);
    expect(published.text).toContain(CHEVROTAIN_MARK);
    expect(published.text).not.toContain('businessNameOrUuid');
  });
});
