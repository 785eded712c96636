import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleSource, CHECK_APP, CHEVROTAIN_MARK, chevrotainChunk, CLIENT_APP, importing, NOT_PARSING, PackageLink } from '../../bench/lib/bundle';

/**
 * What a browser app pays for qsfilter (reference §11, README "Clients"): esbuild bundles,
 * minified, as an app's build would make them, measured gzipped (`bench/lib/bundle.ts`;
 * `npm run bench -- bundle` reports the figures and what makes them up).
 *
 * - Built from `dist/` through the package's own `exports`, so the budgets hold for what
 *   is published, tree-shaking of the catalog included.
 * - Built from `src/`, to say which of our modules a bundle holds.
 */

/** `query` + `literal` + one catalog schema: the whole client, at most 6 KiB gzipped. */
const CLIENT_BUDGET = 6 * 1024;
/**
 * Our own code in a bundle of `check` + a catalog schema, Chevrotain aside. The issue's
 * goal is 10 KiB, and it is not met: this ceiling, at the 16.0 KiB measured (the bench
 * rounds), stops it growing unnoticed. It was 16.1 KiB, then 15.1 KiB once what check does not need was gone (defineSchema's checks,
 * which the catalog's trusted specs skip, and code that stayed only because a bundler
 * could not prove it free of effects). What remains is check's own path: decoding every
 * input form strictly, lexing and parsing, explaining each kind of problem, validating
 * against the schema, and the text of every message and hint. That text is 4.5 KiB
 * gzipped on its own, and the code without it 10.5 KiB: even with no text at all, our
 * part would be over the goal. Since then, 0.6 KiB of hints: sort examples from the
 * schema's own fields, and a query argument that is a Result, a syntax tree, a Filter or a
 * builder named as such. Then 0.45 KiB for the fast lexer of issue 26 (a parameter of
 * bare clauses lexed as one token, its node built from its text, and the check of the
 * limits on the tree): 15.9 → 16.3 KiB, for parse 10–15% faster (bench/RESULTS.md).
 * README "Clients" and bench/RESULTS.md give the figures.
 */
const CHECK_OURS_BUDGET = 16.5 * 1024;

let link: PackageLink;

beforeAll(() => {
  link = new PackageLink();
});

afterAll(() => {
  link?.remove();
});

describe('qsfilter/client', () => {
  it(`bundles query + literal + one catalog schema in at most ${CLIENT_BUDGET} bytes gzipped`, async () => {
    const { gzip } = await link.bundle(CLIENT_APP);
    expect(gzip).toBeLessThanOrEqual(CLIENT_BUDGET);
  });

  it('holds no Chevrotain, no parser and no decoder', async () => {
    const published = await link.bundle(CLIENT_APP);
    expect(published.text).not.toContain(CHEVROTAIN_MARK);
    const source = await bundleSource(CLIENT_APP);
    const modules = source.inputs.map((p) => p.slice(p.lastIndexOf('src/')));
    expect(source.inputs.filter((p) => p.includes('node_modules'))).toEqual([]);
    for (const forbidden of ['src/syntax/parse.ts', 'src/syntax/params.ts', 'src/syntax/grammar.ts', 'src/syntax/tokens.ts', 'src/input/decode.ts', 'src/check/validate.ts']) {
      expect(modules).not.toContain(forbidden);
    }
    expect(modules).toContain('src/client/query.ts');
  });

  it('holds the one catalog schema it imports, and none of the others', async () => {
    const { text } = await link.bundle(CLIENT_APP);
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
    const ours = await link.bundle(CHECK_APP, 'chevrotain');
    expect(ours.text).not.toContain(CHEVROTAIN_MARK);
    expect(ours.gzip).toBeLessThanOrEqual(CHECK_OURS_BUDGET);
  });

  // dist/index.js is one file: a statement at the top of one of its modules that a
  // bundler cannot prove free of effects stays in every app, with all it reaches (the
  // package's sideEffects: false drops whole files only). From src/, a module check does
  // not reach is dropped whole. So the published bundle must not hold more than that.
  it('holds no more of ours from the package than from the sources', async () => {
    const published = await link.bundle(CHECK_APP, 'chevrotain');
    const source = await bundleSource(CHECK_APP, 'chevrotain');
    expect(source.inputs.some((p) => p.includes('node_modules'))).toBe(false);
    // Identifiers minified twice can come out a few bytes apart; a module kept by mistake is hundreds.
    expect(published.gzip).toBeLessThanOrEqual(source.gzip * 1.01);
  });

  it('bundles from the package with Chevrotain inside, and the one schema', async () => {
    const published = await link.bundle(CHECK_APP);
    expect(published.text).toContain(CHEVROTAIN_MARK);
    expect(published.text).not.toContain('businessNameOrUuid');
  });
});

describe('an app that parses nothing', () => {
  it('finds Chevrotain in a chunk of dist/ of its own, not in the main entry', () => {
    expect(chevrotainChunk()).toMatch(/^chunk-/);
    expect(readFileSync(new URL('../../dist/index.js', import.meta.url), 'utf8')).not.toContain(CHEVROTAIN_MARK);
  });

  it.each(NOT_PARSING)('bundles no Chevrotain when it imports %s from the main entry', async (name) => {
    const { text } = await link.bundle(importing(name));
    expect(text).not.toContain(CHEVROTAIN_MARK);
  });
});
