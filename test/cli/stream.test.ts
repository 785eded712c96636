import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sampleData } from '../../examples/server/data/sample';
import { EXAMPLE_REQUESTS } from '../../examples/server/examples';
import { check } from '../../src/check/check';
import type { Filter } from '../../src/filter/filter';
import { compile } from '../../src/eval/compile';
import { sortItems } from '../../src/eval/sort';
import { catalog, type ResourceName } from '../../src/schema/catalog';
import { PAGING_PARAMS } from '../../src/spec/spec';
import { CLI, runCli } from '../support/cli';

const dir = mkdtempSync(join(tmpdir(), 'qsfilter-cli-stream-'));
// The files of this suite (tens of MB) go with it: /tmp is shared.
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** What the command wrote before streaming: the matches of the parsed whole, sorted, then the page the query sends. */
function reference(items: readonly unknown[], filter: Filter): unknown[] {
  const sorted = sortItems(items.filter(compile(filter)), filter);
  const page = filter.page !== undefined && PAGING_PARAMS.some((name) => Object.hasOwn(filter.params, name)) ? filter.page : undefined;
  return page === undefined ? sorted : sorted.slice(page.offset, page.offset + page.limit);
}

const data = sampleData();

/**
 * For each resource: every example request's query, a page, a sort (every item, in order)
 * and a sort with a page; everything unsorted where the resource sorts by nothing.
 */
function queries(resource: ResourceName): string[] {
  const schema = catalog[resource];
  const sortable = [...schema.fields.entries()].filter(([, field]) => field.sortable).map(([path]) => path);
  const examples = EXAMPLE_REQUESTS.filter((r) => r.status === 200 && r.path.startsWith(`/${resource}?`)).map((r) => r.path.slice(r.path.indexOf('?') + 1));
  const sorts = sortable.length === 0 ? [] : [`orderBy=-${sortable[0]}`, `orderBy=${sortable.slice(-2).join(',')}&limit=3&offset=2`];
  // A parameter the resource requires comes with every query of ours.
  const required = resource === 'balanceSheets' ? 'reportFrequency=month&' : '';
  return [...examples, ...[...(sorts.length === 0 ? [''] : []), 'limit=2&offset=1', ...sorts].map((query) => `${required}${query}`)];
}

const CASES = [
  ...(Object.keys(data) as ResourceName[]).flatMap((resource) => queries(resource).map((query) => [resource, query] as const)),
  ['invoices', 'totalAmount=lt:-1&orderBy=-postedDate'] as const,
  ['vendors', 'vendorName=nobody%20at%20all'] as const,
];

describe('qsfilter filter streams the same answer as filtering the parsed whole', () => {
  it.each(CASES)('%s ? %s: a JSON array, NDJSON, the array at --path, each output', async (resource, query) => {
    const items = data[resource];
    const result = check(query, catalog[resource]);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const expected = reference(items, result.value);
    const array = file(`${resource}.json`, JSON.stringify(items, null, 2));
    const ndjson = file(`${resource}.ndjson`, items.map((item) => `${JSON.stringify(item)}\n`).join(''));
    const answer = file(`${resource}-answer.json`, JSON.stringify({ data: items, pagination: { next: null, data: [] } }));

    const fromArray = await runCli(['filter', query, array, '-r', resource]);
    expect(fromArray).toMatchObject({ code: 0, stderr: '' });
    expect(fromArray.stdout).toBe(`${JSON.stringify(expected)}\n`);

    const fromNdjson = await runCli(['filter', query, '-r', resource, '--ndjson'], { input: await readText(ndjson) });
    expect(fromNdjson).toMatchObject({ code: 0, stderr: '' });
    expect(fromNdjson.stdout).toBe(expected.map((item) => `${JSON.stringify(item)}\n`).join(''));

    const fromPath = await runCli(['filter', query, answer, '-r', resource, '--path', 'data', '--pretty']);
    expect(fromPath).toMatchObject({ code: 0, stderr: '' });
    expect(fromPath.stdout).toBe(`${JSON.stringify(expected, null, 2)}\n`);

    // The same through a sort that spills to disk in about eight runs (more for the smallest
    // inputs: 1 KiB at least) and merges them, in a directory left empty. A run every few
    // items took seconds on the largest resources, in merge passes that test/cli/sort.test.ts covers.
    if (result.value.sort.length > 0) {
      const temp = mkdtempSync(join(dir, 'temp-'));
      const memory = `${Math.max(1, Math.ceil(JSON.stringify(items).length / 8 / 1024))}K`;
      const spilled = await runCli(['filter', query, array, '-r', resource, '--ndjson', '--sort-memory', memory, '--temp-dir', temp]);
      expect(spilled).toMatchObject({ code: 0, stderr: '' });
      expect(spilled.stdout).toBe(expected.map((item) => `${JSON.stringify(item)}\n`).join(''));
      expect(readdirSync(temp)).toEqual([]);
    }

    const counted = await runCli(['filter', query, ndjson, '-r', resource, '--count', '--exit-status']);
    expect(counted).toMatchObject({ code: expected.length === 0 ? 3 : 0, stdout: `${expected.length}\n`, stderr: '' });
  });

  it('covers sorts, pages and queries that match nothing and some', () => {
    expect(CASES.length).toBeGreaterThan(20);
    const sizes = CASES.map(([resource, query]) => {
      const result = check(query, catalog[resource]);
      return result.ok ? reference(data[resource], result.value).length : -1;
    });
    expect(sizes).not.toContain(-1);
    expect(sizes.some((n) => n === 0) && sizes.some((n) => n > 10)).toBe(true);
  });
});

async function readText(path: string): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  return readFile(path, 'utf8');
}

describe('output and exit status', () => {
  const items = [{ id: 'a', totalAmount: 5 }, { id: 'b', totalAmount: 50 }, { id: 'c', totalAmount: 500 }];
  const input = items.map((item) => JSON.stringify(item)).join('\n');

  it.each([
    [['totalAmount=gt:10'], 0, `${JSON.stringify(items.slice(1))}\n`],
    [['totalAmount=gt:10', '--ndjson'], 0, `${JSON.stringify(items[1])}\n${JSON.stringify(items[2])}\n`],
    [['totalAmount=gt:10', '--count'], 0, '2\n'],
    [['totalAmount=gt:1000'], 0, '[]\n'],
    [['totalAmount=gt:1000', '--exit-status'], 3, '[]\n'],
    [['totalAmount=gt:1000', '-e', '--ndjson'], 3, ''],
    [['totalAmount=gt:1000', '-e', '--count'], 3, '0\n'],
    [['totalAmount=gt:10&offset=5', '-e'], 3, '[]\n'],
    [['totalAmount=gt:10', '-e', '--count'], 0, '2\n'],
    [['totalAmount=gt:0&orderBy=-totalAmount&limit=2', '--count'], 0, '2\n'],
    [['totalAmount=gt:0&orderBy=-totalAmount&limit=2&offset=2', '--ndjson'], 0, `${JSON.stringify(items[0])}\n`],
  ])('%j exits %i and writes %j', async (args, code, stdout) => {
    const run = await runCli(['filter', ...args, '-r', 'invoices'], { input });
    expect(run).toMatchObject({ code, stdout, stderr: '' });
  });

  it.each([
    [['--ndjson', '--count'], 'give --ndjson or --count, not both'],
    [['--ndjson', '--pretty'], '--pretty indents a JSON array: not with --ndjson'],
    [['--count', '--pretty'], '--pretty indents a JSON array: not with --count'],
    [['--path', 'a..b'], '--path "a..b" has an empty name'],
  ])('refuses %j (exit 2)', async (args, message) => {
    const run = await runCli(['filter', '', ...args, '-r', 'invoices'], { input });
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toContain(message);
  });

  it('notes --path when one object that holds an array matched nothing', async () => {
    const run = await runCli(['filter', 'totalAmount=1', '-r', 'invoices'], { input: JSON.stringify({ data: items, pagination: {} }) });
    expect(run).toMatchObject({ code: 0, stdout: '[]\n' });
    expect(run.stderr).toBe('qsfilter: note: the input is one object, read as one NDJSON item; for the items in its array "data", give --path "data"\n');
    // One item that is what was asked for needs no note.
    expect(await runCli(['filter', 'totalAmount=5', '-r', 'invoices'], { input: JSON.stringify(items[0]) })).toMatchObject({ code: 0, stderr: '' });
  });

  it('names the line of an input error, after writing the matches before it', async () => {
    const run = await runCli(['filter', '', '-r', 'invoices', '--ndjson'], { input: `${input}\n{"id": "d",}\n` });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe(`${input}\n`);
    expect(run.stderr).toMatch(/^qsfilter: item 4 \(line 4\) is not JSON: /);
  });

  // Issue 33, finding 1: up to 8 KiB of matches waiting to be written were dropped at an input error.
  it.each([
    ['--ndjson', (lines: string[]) => lines.map((line) => `${line}\n`).join('')],
    ['--compact', (lines: string[]) => `[${lines.join(',')}\n`],
    ['--count', (lines: string[]) => `${lines.length}\n`],
  ] as const)('writes every match before an input error with %s (a JSON array left open), then exits 2', async (flag, output) => {
    const vendors = Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ vendorName: i % 7 === 0 ? `acme${i}` : `other${i}`, balance: i }));
    const run = await runCli(['filter', 'vendorName=%25acme%25', '-', '-r', 'vendors', flag], { input: `${vendors.join('\n')}\n{"vendorName":"acme",}\n` });
    expect(run.stderr).toMatch(/^qsfilter: item 20001 \(line 20001\) is not JSON: /);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe(output(vendors.filter((_, i) => i % 7 === 0)));
    const small = await runCli(['filter', 'vendorName=%25acme%25', '-', '-r', 'vendors', flag], { input: '{"vendorName":"acme1"}\n{"vendorName":"acme2",}\n' });
    expect(small).toMatchObject({ code: 2, stdout: output(['{"vendorName":"acme1"}']) });
  });

  it('with orderBy, writes the matches before an input error in order (a JSON array left open)', async () => {
    const items = [5, 3, 9, 1].map((n) => `{"id":"${n}","totalAmount":${n}.0}`);
    const run = await runCli(['filter', 'orderBy=-totalAmount', '-r', 'invoices'], { input: `[${items.join(',')},{"id":}]` });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe(`[${[items[2], items[0], items[1], items[3]].join(',')}\n`);
    expect(run.stderr).toMatch(/^qsfilter: item 5 \(line 1\) is not JSON: /);
  });

  // Issue 33, finding 2: items were written as JSON.stringify wrote them back.
  it('writes the matches as they came: numbers, escapes, key order and whitespace inside kept; --pretty only indents', async () => {
    const item = '{"vendorName":"acme", "n":1e400,"big":123456789012345678901234567890,"z":-0,"f":1.50,"s":"\\u00e9\\/","vendorName":"acme"}';
    const input = `${item}\n{"vendorName":"other"}\n`;
    expect(await runCli(['filter', 'vendorName=acme', '-r', 'vendors', '--ndjson'], { input })).toMatchObject({ code: 0, stderr: '', stdout: `${item}\n` });
    expect(await runCli(['filter', 'vendorName=acme', '-r', 'vendors'], { input })).toMatchObject({ code: 0, stderr: '', stdout: `[${item}]\n` });
    expect(await runCli(['filter', 'vendorName=acme&orderBy=id', '-r', 'vendors', '--ndjson', '--sort-memory', '1K'], { input })).toMatchObject({ code: 0, stderr: '', stdout: `${item}\n` });
    const pretty = await runCli(['filter', 'vendorName=acme', '-r', 'vendors', '--pretty'], { input });
    expect(pretty).toMatchObject({ code: 0, stderr: '' });
    expect(pretty.stdout).toBe('[\n  {\n    "vendorName": "acme",\n    "n": 1e400,\n    "big": 123456789012345678901234567890,\n    "z": -0,\n    "f": 1.50,\n    "s": "\\u00e9\\/",\n    "vendorName": "acme"\n  }\n]\n');
  });

  it('stops reading once a page without a sort is written, as head does', async () => {
    // The broken line comes after the page: never read.
    const run = await runCli(['filter', 'limit=2', '-r', 'invoices', '--ndjson'], { input: `${input}\n${'x'.repeat(200_000)}` });
    expect(run).toMatchObject({ code: 0, stderr: '', stdout: `${JSON.stringify(items[0])}\n${JSON.stringify(items[1])}\n` });
  });
});

/** Runs the command on `count` generated invoices streamed to its stdin; resolves with its exit, output size and peak resident memory. */
function runLarge(args: readonly string[], count: number, shape: 'array' | 'ndjson'): Promise<{ code: number | null; stdout: string; lines: number; stderr: string; maxRssKb: number }> {
  // The child reports its own peak resident set as it exits; its old space is capped at 96 MB, so a leak fails loudly too.
  const report = "process.on('exit', () => process.stderr.write('maxrss=' + process.resourceUsage().maxRSS + '\\n'))";
  const child = spawn(process.execPath, ['--max-old-space-size=96', '--import', `data:text/javascript,${encodeURIComponent(report)}`, CLI, ...args], { env: { PATH: process.env.PATH ?? '' } });
  let stdout = '';
  let lines = 0;
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout = (stdout + chunk.toString()).slice(-4096);
    for (const byte of chunk) if (byte === 10) lines++;
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.on('error', () => {});
  const write = async (): Promise<void> => {
    const line = (i: number): string => JSON.stringify({
      id: `inv_${i}`, totalAmount: (i * 7919) % 10_000, customerRef: { id: String(i % 500) }, postedDate: '2023-01-09T10:00:00Z',
      lines: [{ description: i % 3 === 0 ? 'Consulting fee' : 'Hosting', amount: i % 97 }], memo: 'x'.repeat(400),
    });
    if (shape === 'array') child.stdin.write('[');
    for (let i = 0; i < count; i += 1000) {
      let batch = '';
      for (let j = i; j < Math.min(i + 1000, count); j++) batch += shape === 'array' ? `${j === 0 ? '' : ','}${line(j)}` : `${line(j)}\n`;
      if (!child.stdin.write(batch)) await new Promise((resolve) => child.stdin.once('drain', resolve));
    }
    child.stdin.end(shape === 'array' ? ']' : '');
  };
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    write().catch(reject);
    child.on('close', (code) => {
      const match = /maxrss=(\d+)\s*$/.exec(stderr);
      resolve({ code, stdout, lines, stderr, maxRssKb: match === null ? Number.NaN : Number(match[1]) });
    });
  });
}

describe('memory stays bounded whatever the input size', () => {
  // About 300 MB of input, far more than the heap the command is given: it must stream.
  const COUNT = 600_000;

  it.each([
    ['an NDJSON stream, every match written', ['filter', 'customerRef.id=42', '-r', 'invoices', '--ndjson'], 'ndjson'],
    ['a JSON array, counted', ['filter', 'lines.description=%25fee', '-r', 'invoices', '--count'], 'array'],
    ['a JSON array sorted, with a page', ['filter', 'totalAmount=gte:100&orderBy=-totalAmount,postedDate&limit=50&offset=100', '-r', 'invoices', '--count'], 'array'],
    ['NDJSON sorted, with a page written', ['filter', 'orderBy=-totalAmount&limit=500&offset=1000', '-r', 'invoices', '--ndjson'], 'ndjson'],
  ] as const)('%s', async (_name, args, shape) => {
    const run = await runLarge(args, COUNT, shape);
    expect(run.stderr.replace(/maxrss=\d+\s*$/, '')).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.length).toBeGreaterThan(0);
    // Node alone is about 45 MB resident here; the bound of the issue is 150 MB on 2 GB.
    expect(run.maxRssKb).toBeLessThan(150 * 1024);
  });

  it('sorts without a limit in runs spilled to disk: every match written, in order, memory bounded by --sort-memory', async () => {
    // About 50 MB of input through 1 MiB of sort memory: some fifty runs, merged.
    const count = 100_000;
    const run = await runLarge(['filter', 'orderBy=-totalAmount,id', '-r', 'invoices', '--ndjson', '--sort-memory', '1M'], count, 'ndjson');
    expect(run.stderr.replace(/maxrss=\d+\s*$/, '')).toBe('');
    expect(run.code).toBe(0);
    expect(run.lines).toBe(count);
    // The last lines: the smallest amount, ids in code-point order.
    const last = run.stdout.trimEnd().split('\n').slice(-3).map((line) => JSON.parse(line) as { id: string; totalAmount: number });
    expect(last.map((item) => item.totalAmount)).toEqual([0, 0, 0]);
    expect(last.map((item) => item.id)).toEqual([...last.map((item) => item.id)].sort());
    expect(run.maxRssKb).toBeLessThan(150 * 1024);
  });
});

/** Runs a command line on a pseudo-terminal (util-linux `script`): stdout and stderr are both that terminal. */
function onTerminal(command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { env: { PATH: process.env.PATH ?? '', TERM: 'xterm' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(output));
  });
}

describe('the progress bar on a terminal', () => {
  // Reading must last past the first redraw (200 ms): 60 MB of NDJSON whose lines, over
  // 2001 characters, are scanned for their depth before they are parsed (0.6 s here).
  const line = JSON.stringify({ id: 'x', totalAmount: 1, lines: Array.from({ length: 60 }, (_, i) => ({ amount: i, description: `d${i}` })) });
  const big = file('big.ndjson', `${line}\n`.repeat(30_000));
  const command = (flags: string) => `"${process.execPath}" "${CLI}" filter 'totalAmount=gte:0' "${big}" -r invoices --count ${flags}`;

  it.skipIf(process.platform !== 'linux' || !existsSync('/usr/bin/script'))('is drawn on stderr while a file is read, and cleared before the output', async () => {
    const output = await onTerminal(command(''));
    expect(output).toMatch(/\r\x1b\[K\[[= >]+\] +\d+% {2}[\d.]+ [kMG]?B of [\d.]+ MB {2}[\d,]+ items\/s {2}[\d,]+ match/);
    expect(output.endsWith('\r\x1b[K30000\r\n')).toBe(true);
  });

  it.skipIf(process.platform !== 'linux' || !existsSync('/usr/bin/script'))('shows a sort\'s merge, whatever the input (here standard input, which has no bar of its own)', async () => {
    // Runs of 4 KiB merged two at a time: the merge's first line is drawn as it starts, however fast it goes.
    const items = file('merge.ndjson', Array.from({ length: 500 }, (_, i) => `${JSON.stringify({ id: `inv_${i}`, totalAmount: i % 97, memo: 'm'.repeat(400) })}\n`).join(''));
    const output = await onTerminal(`"${process.execPath}" "${CLI}" filter 'orderBy=-totalAmount' - -r invoices --ndjson --sort-memory 4K < "${items}" > /dev/null`);
    expect(output).toMatch(/\r\x1b\[K\[[= >]+\] +\d+% {2}merging 2 runs \(pass \d+ of \d+\) {2}[\d,]+ of [\d,]+ matches {2}[\d,]+ matches\/s/);
    expect(output.endsWith('\r\x1b[K')).toBe(true);
    expect(await onTerminal(`"${process.execPath}" "${CLI}" filter 'orderBy=-totalAmount' - -r invoices --ndjson --sort-memory 4K --no-progress < "${items}" > /dev/null`)).toBe('');
  });

  it.skipIf(process.platform !== 'linux' || !existsSync('/usr/bin/script'))('is not drawn with --no-progress, nor for standard input', async () => {
    expect(await onTerminal(command('--no-progress'))).toBe('30000\r\n');
    expect(await onTerminal(`${command('').replace(`"${big}"`, '')} < "${big}"`)).toBe('30000\r\n');
  });
});
