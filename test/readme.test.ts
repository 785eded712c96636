import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog, check } from '../src/index';
import { SERVER, type Database } from './support/databases';
import { fromData } from './readme/data';
import { mismatch, parseValue, parseWholeValue, textMatches, type Pattern } from './readme/expected';
import { blocksOf, snippetsOf, type Block, type Snippet } from './readme/markdown';
import { GIVEN, typecheck, writeModules, type SnippetModule, type TypeProblem } from './readme/modules';
import type { Exchange, Manifest, RunResult } from './readme/runner';

// Issue 14, item 15: every TypeScript snippet of the README compiles, as a user's strict
// project compiles it against the built package (`qsfilter`, `qsfilter/client`… resolved
// through package.json's exports to dist/, the files a user installs), and prints what the
// README shows. test/readme/markdown.ts says how the README marks what is what.

const root = fileURLToPath(new URL('../', import.meta.url));
const README = readFileSync(join(root, 'README.md'), 'utf8');
const snippets = snippetsOf(README);
const blocks = blocksOf(README);
const runnable = snippets.filter((s) => s.marks.fragment === undefined);

/**
 * Fragments are neither compiled nor run: each must say why (its mark does), and there
 * may be no more than this. Today every snippet compiles and runs; raise it only for a
 * snippet that cannot (say why in the commit too).
 */
const MAX_FRAGMENTS = 0;

/** The declarations the runner captures, by snippet id: the database is loaded with the compile example's items. */
const CAPTURES = { items: ['items'] };

const RUN_TIMEOUT = 240_000;

let dir: string;
let modules: Map<Snippet, SnippetModule>;
let typeProblems: Map<SnippetModule, TypeProblem[]>;
let results: Map<number, RunResult>;
let runnerOutput: string;
let database: Database | undefined;

/** The section's paths that `request:` and `handler:` marks ask its servers for. */
function requestsOf(section: string): string[] {
  return blocks.filter((b) => b.section === section).flatMap((b) => [b.marks.request, b.marks.handler].filter((m) => m !== undefined).map(pathOf));
}

function pathOf(request: string): string {
  const match = /^GET (\/\S*)$/.exec(request);
  if (!match) throw new Error(`"${request}" is not GET /path?query`);
  return match[1]!;
}

beforeAll(async () => {
  if (!existsSync(join(root, 'dist', 'index.d.ts'))) throw new Error('dist/ is missing: run `npm run build` first (`npm test` does).');
  mkdirSync(join(root, '.readme'), { recursive: true });
  dir = mkdtempSync(join(root, '.readme', 'snippets-'));
  const written = writeModules(snippets, dir, CAPTURES);
  modules = new Map(written.map((m) => [m.snippet, m]));

  database = await SERVER.open();
  const manifest: Manifest = {
    results: join(dir, 'results.json'),
    given: GIVEN,
    modules: written.map((m) => ({
      file: m.runFile,
      line: m.snippet.line,
      given: [...m.chain, m.snippet].some((s) => (s.marks.given ?? []).length > 0),
      requests: requestsOf(m.snippet.section),
    })),
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  // The snippets run in a process of their own while this one typechecks them.
  const run = promisify(execFile)(process.execPath, ['--import', 'tsx', join(root, 'test', 'readme', 'runner.ts'), join(dir, 'manifest.json')], {
    cwd: root,
    env: { ...process.env, README_DATABASE_URL: database.url, NO_COLOR: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
  typeProblems = typecheck(written);
  const { stdout, stderr } = await run;
  runnerOutput = stdout + stderr;
  const list = JSON.parse(readFileSync(manifest.results, 'utf8')) as RunResult[];
  results = new Map(list.map((r) => [r.line, r]));
}, RUN_TIMEOUT);

afterAll(async () => {
  await database?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
}, RUN_TIMEOUT);

function resultOf(snippet: Snippet): RunResult {
  const result = results.get(snippet.line);
  if (result === undefined) expect.fail(`the runner did not report the snippet at line ${snippet.line}: ${runnerOutput}`);
  return result;
}

function where(line: number | undefined): string {
  return line === undefined ? '(outside the README)' : `README.md:${line}`;
}

describe('README.md', () => {
  it.each(runnable)('the snippet at line $line compiles with tsc --strict against the package', (snippet) => {
    const problems = typeProblems.get(modules.get(snippet)!)!;
    expect(problems.map((p) => `${where(p.line)}: ${p.message}`)).toEqual([]);
  });

  it.each(runnable)('the snippet at line $line runs and prints what the README shows', (snippet) => {
    const module = modules.get(snippet)!;
    const result = resultOf(snippet);
    expect(result.error, `README.md:${snippet.line} failed`).toBeUndefined();

    module.values.forEach((comment, k) => {
      let pattern: Pattern;
      try {
        pattern = parseValue(comment.text).pattern;
      } catch (error) {
        return expect.fail(`README.md:${comment.line}: the comment after an expression shows its value, and this is none: ${(error as Error).message}`);
      }
      const ran = result.values.filter((v) => v.k === k);
      expect(ran.length, `README.md:${comment.line}: how many times the expression before this comment ran`).toBe(1);
      const found = mismatch(pattern, fromData(ran[0]!.data));
      if (found !== undefined) expect.fail(`README.md:${comment.line}: ${found}`);
    });

    const printed = result.printed;
    const json = snippet.outputs.filter((o) => o.info === 'json');
    const text = snippet.outputs.filter((o) => o.info !== 'json');
    if (json.length > 0 && text.length > 0) expect.fail(`README.md:${snippet.line}: show its output as text, or as one json block per console call, not both`);
    if (json.length > 0) {
      expect(printed.length, `README.md:${snippet.line}: one console call per json block`).toBe(json.length);
      json.forEach((block, i) => {
        const args = printed[i]!.args.map(fromData);
        expect(args.length, `README.md:${block.line}: one value per console call`).toBe(1);
        const value = typeof args[0] === 'string' ? (JSON.parse(args[0]) as unknown) : args[0];
        const found = mismatch(parseWholeValue(block.text), value);
        if (found !== undefined) expect.fail(`README.md:${block.line}: ${found}`);
      });
      return;
    }
    if (text.length > 1) expect.fail(`README.md:${snippet.line}: one text block shows all it prints`);
    const output = printed.map((p) => p.text).join('\n');
    const shown = text[0];
    if (shown === undefined) {
      expect(output, `README.md:${snippet.line} prints what no block shows`).toBe('');
      return;
    }
    const sql = shown.info === 'sql';
    const normal = (s: string) => (sql ? s.replace(/\s+/g, ' ').trim() : s.replace(/[ \t]+$/gm, '').trimEnd());
    if (!textMatches(normal(shown.text), normal(output))) {
      // The whole output, for the diff.
      expect(output, `README.md:${shown.line}${sql ? ' (whitespace aside)' : ''}`).toBe(shown.text);
    }
  });

  it(`marks no more than ${MAX_FRAGMENTS} snippets as fragments, each with its reason`, () => {
    const fragments = snippets.filter((s) => s.marks.fragment !== undefined);
    for (const f of fragments) expect(f.marks.fragment!.length, `README.md:${f.line}`).toBeGreaterThan(10);
    expect(fragments.length, fragments.map((f) => `README.md:${f.line}: ${f.marks.fragment}`).join('\n')).toBeLessThanOrEqual(MAX_FRAGMENTS);
  });

  it('loads the database of the SQL snippets with the items of the compile example', () => {
    const captures = runnable.map((s) => resultOf(s).captured).filter((c) => 'items' in c);
    expect(captures).toHaveLength(1);
    expect((fromData(captures[0]!.items) as unknown[]).length).toBeGreaterThan(0);
  });

  it('shows only requests its resources accept, where a block is a request line (GET /invoices?…)', () => {
    const lines = blocks.filter((b) => b.info === '').flatMap((b) => b.text.split('\n').filter((l) => l.startsWith('GET ')));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const match = /^GET \/(\w+)\?(\S+)$/.exec(line);
      expect(match, line).not.toBeNull();
      const schema = catalog[match![1]! as keyof typeof catalog];
      expect(schema, `${line}: a resource of the catalog`).toBeDefined();
      const result = check(match![2]!, schema);
      expect(result.ok ? [] : result.errors.map((e) => e.message), line).toEqual([]);
    }
  });
});

describe.each(blocks.filter((b) => b.marks.request !== undefined || b.marks.handler !== undefined))(
  'README.md, the servers of the section $section',
  (block: Block) => {
    const request = (block.marks.request ?? block.marks.handler)!;
    const path = pathOf(request);

    /** Each server the section's snippets started, with its answer to this request. */
    function exchanges(): { line: number; exchange: Exchange }[] {
      const servers = runnable
        .filter((s) => s.section === block.section && s.line < block.line)
        .flatMap((s) => resultOf(s).exchanges.map((list) => ({ line: s.line, exchange: list.find((e) => e.path === path)! })));
      expect(servers.length, `the snippets of "${block.section}" start servers`).toBeGreaterThan(0);
      return servers;
    }

    if (block.marks.request !== undefined) {
      it(`answers ${request} as README.md:${block.line} shows`, () => {
        const [status, ...rest] = block.text.split('\n');
        const blank = rest.indexOf('');
        const headers = rest.slice(0, blank);
        const body = rest.slice(blank + 1).join('\n');
        for (const { line, exchange } of exchanges()) {
          const from = `the server of README.md:${line}`;
          expect(`HTTP/1.1 ${exchange.status} ${exchange.statusText}`, from).toBe(status);
          for (const header of headers) {
            const colon = header.indexOf(':');
            expect(`${header.slice(0, colon)}: ${exchange.headers[header.slice(0, colon).toLowerCase()]}`, from).toBe(header);
          }
          const found = mismatch(parseWholeValue(body), JSON.parse(exchange.body));
          if (found !== undefined) expect.fail(`${from}: ${found}`);
        }
      });
    }

    if (block.marks.handler !== undefined) {
      it(`hands the handler the filter README.md:${block.line} shows for ${request}`, () => {
        for (const { line, exchange } of exchanges()) {
          expect(exchange.handled, `the server of README.md:${line}`).toHaveLength(1);
          const found = mismatch(parseWholeValue(block.text), fromData(exchange.handled[0]));
          if (found !== undefined) expect.fail(`the server of README.md:${line}: ${found}`);
        }
      });
    }
  },
);
