import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog, check } from '../src/index';
import { runCli } from './support/cli';
import { SERVER, type Database } from './support/databases';
import { startServer, type TestServer } from './support/server';
import { fromData } from './readme/data';
import { mismatch, parseValue, parseWholeValue, textMatches, type Pattern } from './readme/expected';
import { blocksOf, snippetsOf, type Block, type Snippet } from './readme/markdown';
import { GIVEN, typecheck, writeModules, type SnippetModule, type TypeProblem } from './readme/modules';
import type { Exchange, Manifest, RunResult } from './readme/runner';

// Issue 14, item 15: every TypeScript snippet of the README compiles, as a user's strict
// project compiles it, and prints what the README shows. `qsfilter`, `qsfilter/client`…
// resolve by the package's own name through package.json's exports to dist/, rather than
// through a paths mapping to src/: what is checked is then the .d.ts a user installs and
// the exports map itself (a subpath missing from it fails here), and what runs is the
// built code. test/readme/markdown.ts says how the README marks what is what; the
// transcripts (`$ qsfilter …`, `$ curl …`) are run at the end of this file.

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

/** An HTTP answer, as a server gave it. */
interface Answer {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * Where an answer differs from a README block that shows it: with `head`, a status line,
 * the headers it shows (others are left out), a blank line, then the body; without, the
 * body. A body that reads as a value is compared as JSON (the README wraps it), else as text.
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

    /** The server each snippet of the section before the block started, with its answer to this request. */
    function exchanges(): { line: number; exchange: Exchange }[] {
      const before = runnable.filter((s) => s.section === block.section && s.line < block.line);
      expect(before.length).toBeGreaterThan(0);
      return before.map((s) => {
        const [list, ...more] = resultOf(s).exchanges;
        expect(list !== undefined && more.length === 0, `README.md:${s.line} starts one server`).toBe(true);
        return { line: s.line, exchange: list!.find((e) => e.path === path)! };
      });
    }

    if (block.marks.request !== undefined) {
      it(`answers ${request} as README.md:${block.line} shows`, () => {
        for (const { line, exchange } of exchanges()) {
          const found = answerMismatch(block.text, exchange, true);
          if (found !== undefined) expect.fail(`the server of README.md:${line}: ${found}`);
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

/** A command of a README transcript (a line `$ command` of a text block) and what the README shows it prints. */
interface Command {
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
    commands.push({ line: block.line + i, words, shown: lines.slice(i + 1, end).join('\n').trimEnd() });
  });
  return commands;
}

const commands = blocks.filter((b) => b.info === '').flatMap(commandsOf);

/**
 * Commands the test does not run: the example server's start, whose banner names the
 * machine's port and database (test/examples/server/start.test.ts starts it and reads that banner).
 */
const NOT_RUN = [/^(\w+=\S+ )*npm start$/];

describe('README.md, its transcripts', () => {
  /** The vendors.json of the README's `qsfilter filter`, as the README shows it. */
  const VENDORS = /<!-- file: vendors\.json -->\n```json\n(.*)\n```/.exec(README)?.[1];
  let cwd: string;
  let server: TestServer;
  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'qsfilter-readme-'));
    expect(JSON.parse(VENDORS ?? 'no vendors.json in the README')).toHaveLength(3);
    writeFileSync(join(cwd, 'vendors.json'), VENDORS!);
    // What `npm start` serves: the example API over its sample data in PGlite.
    server = await startServer('pglite');
  }, RUN_TIMEOUT);
  afterAll(async () => {
    await server?.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('runs every command it shows, but for the start of the example server', () => {
    const other = commands.filter((c) => !['qsfilter', 'curl'].includes(c.words[0]!));
    expect(other.filter((c) => !NOT_RUN.some((pattern) => pattern.test(c.words.join(' ')))).map((c) => `README.md:${c.line}`)).toEqual([]);
    expect(commands.length - other.length).toBeGreaterThan(0);
  });

  it.each(commands.filter((c) => c.words[0] === 'qsfilter'))('$ qsfilter at line $line prints what the README shows', async (command) => {
    const run = await runCli(command.words.slice(1), { cwd });
    expect(run.stderr).toBe('');
    if (!textMatches(command.shown, run.stdout.trimEnd())) expect(run.stdout.trimEnd(), `README.md:${command.line}`).toBe(command.shown);
  });

  it.each(commands.filter((c) => c.words[0] === 'curl'))('$ curl at line $line gets what the README shows from the example server', async (command) => {
    const [, flags, url] = command.words;
    expect(['-s', '-si'], `README.md:${command.line}: the flags the test knows`).toContain(flags);
    const path = url!.replace(/^http:\/\/localhost:3000/, '');
    const response = await server.request(path);
    const answer = { status: response.status, statusText: response.statusText, headers: Object.fromEntries(response.headers), body: await response.text() };
    const found = answerMismatch(command.shown, answer, flags === '-si');
    if (found !== undefined) expect.fail(`README.md:${command.line}: ${found}`);
  });
});
