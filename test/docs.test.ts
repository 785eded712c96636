import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_REQUESTS } from '../examples/server/examples';
import { catalog, check } from '../src/index';
import { runCli } from './support/cli';
import { SERVER, type Database } from './support/databases';
import { startServer, type TestServer } from './support/server';
import { fromData } from './docs/data';
import { mismatch, parseValue, parseWholeValue, textMatches, type Pattern } from './docs/expected';
import { at, blocksOf, OUTPUT_INFOS, snippetsOf, type Block, type Snippet } from './docs/markdown';
import { GIVEN, typecheck, writeModules, type SnippetModule, type TypeProblem } from './docs/modules';
import { inDocs, indexed, pages, ROOT as root } from './docs/pages';
import type { Exchange, Manifest, RunResult } from './docs/runner';

// Issue 14, item 15, and issue 22, item 8: every TypeScript snippet of the README and of
// every page of docs/ compiles, as a user's strict project compiles it, and prints what
// the page shows. `qsfilter`, `qsfilter/client`… resolve by the package's own name
// through package.json's exports to dist/, rather than through a paths mapping to src/:
// what is checked is then the .d.ts a user installs and the exports map itself (a subpath
// missing from it fails here), and what runs is the built code. test/docs/markdown.ts
// says how a page marks what is what; the transcripts (`$ qsfilter …`, `$ curl …`,
// `$ npm start`) are run at the end of this file. A block that nothing here runs or
// checks must say why (a `fragment:` mark).

const PAGES = pages();
const snippets = PAGES.flatMap(({ page, text }) => snippetsOf(text, page));
const blocks = PAGES.flatMap(({ page, text }) => blocksOf(text, page));
const runnable = snippets.filter((s) => s.marks.fragment === undefined);

/** Where a block is: `docs/cli.md:12`. */
const where = (block: Block): string => at(block.page, block.line);

/**
 * Fragments are neither compiled nor run: each must say why (its mark does), and there
 * may be no more than this. Today every snippet compiles and runs; raise it only for a
 * snippet that cannot (say why in the commit too).
 */
const MAX_FRAGMENTS = 0;

/** The declarations the runner captures, by snippet id: the database is loaded with the compile example's items. */
const CAPTURES = { items: ['items'] };

let dir: string;
let modules: Map<Snippet, SnippetModule>;
let typeProblems: Map<SnippetModule, TypeProblem[]>;
let results: Map<string, RunResult>;
let runnerOutput: string;
let database: Database | undefined;

/** The section's paths that `request:` and `handler:` marks ask its servers for. */
function requestsOf(page: string, section: string): string[] {
  return blocks.filter((b) => b.page === page && b.section === section).flatMap((b) => [b.marks.request, b.marks.handler].filter((m) => m !== undefined).map(pathOf));
}

function pathOf(request: string): string {
  const match = /^GET (\/\S*)$/.exec(request);
  if (!match) throw new Error(`"${request}" is not GET /path?query`);
  return match[1]!;
}

beforeAll(async () => {
  if (!existsSync(join(root, 'dist', 'index.d.ts'))) throw new Error('dist/ is missing: run `npm run build` first (`npm test` does).');
  mkdirSync(join(root, '.docs'), { recursive: true });
  dir = mkdtempSync(join(root, '.docs', 'snippets-'));
  const written = writeModules(snippets, dir, CAPTURES);
  modules = new Map(written.map((m) => [m.snippet, m]));

  database = await SERVER.open();
  const manifest: Manifest = {
    results: join(dir, 'results.json'),
    given: GIVEN,
    modules: written.map((m) => ({
      file: m.runFile,
      where: where(m.snippet),
      given: [...m.chain, m.snippet].some((s) => (s.marks.given ?? []).length > 0),
      requests: requestsOf(m.snippet.page, m.snippet.section),
    })),
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  // The snippets run in a process of their own while this one typechecks them.
  const run = promisify(execFile)(process.execPath, ['--import', 'tsx', join(root, 'test', 'docs', 'runner.ts'), join(dir, 'manifest.json')], {
    cwd: root,
    env: { ...process.env, DOCS_DATABASE_URL: database.url, NO_COLOR: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
  typeProblems = typecheck(written);
  const { stdout, stderr } = await run;
  runnerOutput = stdout + stderr;
  const list = JSON.parse(readFileSync(manifest.results, 'utf8')) as RunResult[];
  results = new Map(list.map((r) => [r.where, r]));
});

afterAll(async () => {
  await database?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

function resultOf(snippet: Snippet): RunResult {
  const result = results.get(where(snippet));
  if (result === undefined) expect.fail(`the runner did not report the snippet at ${where(snippet)}: ${runnerOutput}`);
  return result;
}

/** An HTTP answer, as a server gave it. */
interface Answer {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * Where an answer differs from a block that shows it: with `head`, a status line,
 * the headers it shows (others are left out), a blank line, then the body; without, the
 * body. A body that reads as a value is compared as JSON (the page wraps it), else as text.
 */
function answerMismatch(shown: string, answer: Answer, head: boolean): string | undefined {
  let body = shown;
  if (head) {
    const [status, ...rest] = shown.split('\n');
    const blank = rest.indexOf('');
    const actual = `HTTP/1.1 ${answer.status} ${answer.statusText}`;
    if (status !== actual) return `the status line is ${actual}`;
    for (const header of rest.slice(0, blank)) {
      const name = header.slice(0, header.indexOf(':'));
      const found = `${name}: ${answer.headers[name.toLowerCase()]}`;
      if (!textMatches(header, found)) return `the header is ${found}`;
    }
    body = rest.slice(blank + 1).join('\n');
  }
  let pattern: Pattern | undefined;
  try {
    pattern = parseWholeValue(body);
  } catch {
    return textMatches(body.trimEnd(), answer.body.trimEnd()) ? undefined : `the body is ${answer.body}`;
  }
  return mismatch(pattern, JSON.parse(answer.body));
}

/** Blocks as `it.each` rows, named by where they are. */
const rows = <T extends Block>(list: readonly T[]): [string, T][] => list.map((b) => [where(b), b]);

describe('the docs', () => {
  it.each(rows(runnable))('the snippet at %s compiles with tsc --strict against the package', (_, snippet) => {
    const problems = typeProblems.get(modules.get(snippet)!)!;
    expect(problems.map((p) => `${p.where ?? '(outside the docs)'}: ${p.message}`)).toEqual([]);
  });

  it.each(rows(runnable))('the snippet at %s runs and prints what the page shows', (_, snippet) => {
    const module = modules.get(snippet)!;
    const result = resultOf(snippet);
    const page = (line: number) => at(snippet.page, line);
    expect(result.error, `${page(snippet.line)} failed`).toBeUndefined();

    module.values.forEach((comment, k) => {
      let pattern: Pattern;
      try {
        pattern = parseValue(comment.text).pattern;
      } catch (error) {
        return expect.fail(`${page(comment.line)}: the comment after an expression shows its value, and this is none: ${(error as Error).message}`);
      }
      const ran = result.values.filter((v) => v.k === k);
      expect(ran.length, `${page(comment.line)}: how many times the expression before this comment ran`).toBe(1);
      const found = mismatch(pattern, fromData(ran[0]!.data));
      if (found !== undefined) expect.fail(`${page(comment.line)}: ${found}`);
    });

    const printed = result.printed;
    const json = snippet.outputs.filter((o) => o.info === 'json');
    const text = snippet.outputs.filter((o) => o.info !== 'json');
    if (json.length > 0 && text.length > 0) expect.fail(`${page(snippet.line)}: show its output as text, or as one json block per console call, not both`);
    if (json.length > 0) {
      expect(printed.length, `${page(snippet.line)}: one console call per json block`).toBe(json.length);
      json.forEach((block, i) => {
        const args = printed[i]!.args.map(fromData);
        expect(args.length, `${page(block.line)}: one value per console call`).toBe(1);
        const value = typeof args[0] === 'string' ? (JSON.parse(args[0]) as unknown) : args[0];
        const found = mismatch(parseWholeValue(block.text), value);
        if (found !== undefined) expect.fail(`${page(block.line)}: ${found}`);
      });
      return;
    }
    if (text.length > 1) expect.fail(`${page(snippet.line)}: one text block shows all it prints`);
    const output = printed.map((p) => p.text).join('\n');
    const shown = text[0];
    if (shown === undefined) {
      expect(output, `${page(snippet.line)} prints what no block shows`).toBe('');
      return;
    }
    const sql = shown.info === 'sql';
    const normal = (s: string) => (sql ? s.replace(/\s+/g, ' ').trim() : s.replace(/[ \t]+$/gm, '').trimEnd());
    if (!textMatches(normal(shown.text), normal(output))) {
      // The whole output, for the diff.
      expect(output, `${page(shown.line)}${sql ? ' (whitespace aside)' : ''}`).toBe(shown.text);
    }
  });

  it(`marks no more than ${MAX_FRAGMENTS} snippets as fragments, and every fragment with its reason`, () => {
    const fragments = blocks.filter((b) => b.marks.fragment !== undefined);
    for (const f of fragments) expect(f.marks.fragment!.length, where(f)).toBeGreaterThan(10);
    const code = snippets.filter((s) => s.marks.fragment !== undefined);
    expect(code.length, code.map((f) => `${where(f)}: ${f.marks.fragment}`).join('\n')).toBeLessThanOrEqual(MAX_FRAGMENTS);
  });

  it('runs or checks every block, or the block says why not', () => {
    // Snippets and their outputs, by where they are (snippetsOf reads the pages anew).
    const read = new Set(snippets.flatMap((s) => [s, ...s.outputs]).map(where));
    const lines = (b: Block) => b.text.split('\n').filter((l) => l.trim() !== '');
    const unread = blocks.filter(
      (b) =>
        b.marks.fragment === undefined &&
        !read.has(where(b)) &&
        b.marks.request === undefined &&
        b.marks.handler === undefined &&
        b.marks.file === undefined &&
        // A transcript (`$ command` and what it prints), or request lines (GET /invoices?…): read below.
        !(OUTPUT_INFOS.includes(b.info) && (lines(b)[0]?.startsWith('$ ') || lines(b).every((l) => l.startsWith('GET ')))),
    );
    expect(unread.map((b) => `${where(b)}: a block that no test reads; run it, or mark it <!-- fragment: why -->`)).toEqual([]);
  });

  it('reads every page of docs/: the index lists each', () => {
    expect(inDocs().filter((name) => name !== 'README.md' && !indexed().includes(name))).toEqual([]);
    expect(indexed().filter((name) => !inDocs().includes(name))).toEqual([]);
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

describe.each(rows(blocks.filter((b) => b.marks.request !== undefined || b.marks.handler !== undefined)))(
  'the servers of the section before %s',
  (_, block: Block) => {
    const request = (block.marks.request ?? block.marks.handler)!;
    const path = pathOf(request);

    /** The server each snippet of the section before the block started, with its answer to this request. */
    function exchanges(): { at: string; exchange: Exchange }[] {
      const before = runnable.filter((s) => s.page === block.page && s.section === block.section && s.line < block.line);
      expect(before.length).toBeGreaterThan(0);
      return before.map((s) => {
        const [list, ...more] = resultOf(s).exchanges;
        expect(list !== undefined && more.length === 0, `${where(s)} starts one server`).toBe(true);
        return { at: where(s), exchange: list!.find((e) => e.path === path)! };
      });
    }

    if (block.marks.request !== undefined) {
      it(`answers ${request} as ${where(block)} shows`, () => {
        for (const { at, exchange } of exchanges()) {
          const found = answerMismatch(block.text, exchange, true);
          if (found !== undefined) expect.fail(`the server of ${at}: ${found}`);
        }
      });
    }

    if (block.marks.handler !== undefined) {
      it(`hands the handler the filter ${where(block)} shows for ${request}`, () => {
        for (const { at, exchange } of exchanges()) {
          expect(exchange.handled, `the server of ${at}`).toHaveLength(1);
          const found = mismatch(parseWholeValue(block.text), fromData(exchange.handled[0]));
          if (found !== undefined) expect.fail(`the server of ${at}: ${found}`);
        }
      });
    }
  },
);

/** A command of a transcript (a line `$ command` of a text block) and what the page shows it prints. */
interface Command {
  readonly page: string;
  readonly line: number;
  readonly words: readonly string[];
  readonly shown: string;
}

function commandsOf(block: Block): Command[] {
  const lines = block.text.split('\n');
  const commands: Command[] = [];
  lines.forEach((line, i) => {
    if (!line.startsWith('$ ')) return;
    let end = i + 1;
    while (end < lines.length && !lines[end]!.startsWith('$ ')) end++;
    const words = [...line.slice(2).matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
    commands.push({ page: block.page, line: block.line + i, words, shown: lines.slice(i + 1, end).join('\n').trimEnd() });
  });
  return commands;
}

const commands = blocks.filter((b) => OUTPUT_INFOS.includes(b.info) && b.info !== 'json').flatMap(commandsOf);
const commandRows = (list: readonly Command[]): [string, Command][] => list.map((c) => [at(c.page, c.line), c]);

/**
 * Commands the test does not run: the example server's start on a Postgres server of the
 * reader's (`DATABASE_URL=… npm start`), whose banner names that server.
 */
const NOT_RUN = [/^(\w+=\S+ )+npm start$/];

/** The example server's start, as `npm start` runs it (the build aside: the tests run on a built dist/). */
const START = 'npm start';

describe('the transcripts of the docs', () => {
  let cwd: string;
  let server: TestServer;
  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'qsfilter-docs-'));
    // The files that `file:` marks show, where the commands run.
    for (const block of blocks.filter((b) => b.marks.file !== undefined)) {
      expect(block.marks.file, where(block)).toMatch(/^[\w.-]+$/);
      writeFileSync(join(cwd, block.marks.file!), `${block.text}\n`);
    }
    // What `npm start` serves: the example API over its sample data in PGlite.
    server = await startServer('pglite');
  });
  afterAll(async () => {
    await server?.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('runs every command it shows, but for the start of the example server on a server of the reader', () => {
    const other = commands.filter((c) => !['qsfilter', 'curl'].includes(c.words[0]!) && c.words.join(' ') !== START);
    expect(other.filter((c) => !NOT_RUN.some((pattern) => pattern.test(c.words.join(' ')))).map((c) => at(c.page, c.line))).toEqual([]);
    expect(commands.length - other.length).toBeGreaterThan(0);
  });

  it.each(commandRows(commands.filter((c) => c.words[0] === 'qsfilter')))('$ qsfilter at %s prints what the page shows', async (where, command) => {
    const run = await runCli(command.words.slice(1), { cwd });
    expect(run.stderr).toBe('');
    if (!textMatches(command.shown, run.stdout.trimEnd())) expect(run.stdout.trimEnd(), where).toBe(command.shown);
  });

  it.each(commandRows(commands.filter((c) => c.words[0] === 'curl')))('$ curl at %s gets what the page shows from the example server', async (where, command) => {
    const [, flags, url] = command.words;
    expect(['-s', '-si'], `${where}: the flags the test knows`).toContain(flags);
    const path = url!.replace(/^http:\/\/localhost:3000/, '');
    const response = await server.request(path);
    const answer = { status: response.status, statusText: response.statusText, headers: Object.fromEntries(response.headers), body: await response.text() };
    const found = answerMismatch(command.shown, answer, flags === '-si');
    if (found !== undefined) expect.fail(`${where}: ${found}`);
  });

  it.each(commandRows(commands.filter((c) => c.words.join(' ') === START)))(
    '$ npm start at %s prints what the page shows',
    async (where, command) => {
      // The example server as npm starts it, on a free port, shown as the default 3000.
      const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', HOST: 'localhost', NO_COLOR: '1' };
      const child = spawn(process.execPath, ['--import', 'tsx', 'examples/server/main.ts'], { cwd: root, env });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      const exited = new Promise((resolve) => child.on('exit', resolve));
      try {
        // Its banner: four lines, "Try:", then two lines per example request.
        const banner = 5 + 2 * EXAMPLE_REQUESTS.length;
        while (out.split('\n').length <= banner && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 50));
        const port = /^Example financial-data API on http:\/\/localhost:(\d+)/.exec(out)?.[1];
        expect(port, `the server's output: ${out}`).toBeDefined();
        const shown = out.trimEnd().replaceAll(`http://localhost:${port}`, 'http://localhost:3000');
        if (!textMatches(command.shown, shown)) expect(shown, where).toBe(command.shown);
      } finally {
        child.kill('SIGTERM');
        await exited;
      }
    },
  );
});
