/**
 * `qsfilter filter` at size (issue 25): throughput against jq and peak memory, on an
 * NDJSON file and a JSON array of generated invoices, 500 MB each by default (100 MB
 * with `--quick`), 2 GB as bench/RESULTS.md records it with `QSFILTER_BENCH_CLI_MB=2000`
 * (about 25 minutes here, most of it jq's). Run alone: `npm run bench -- cli`, or
 * `npm run build && npx tsx bench/cli.bench.ts`.
 *
 * A plain script (not a scenario): it prints its own table. Each command runs under GNU
 * time (`/usr/bin/time`), which gives its CPU seconds (user + system: what a loaded
 * machine changes least) and its peak resident set; wall seconds are shown beside them.
 * The two sides must write the same lines before their times are compared: qsfilter
 * with `--ndjson`, jq with `-c`, whose outputs agree byte for byte on this data.
 *
 * jq reads a JSON array whole (`.[]` needs the parsed array): about ten times its size
 * in memory, 20 GB for 2 GB. So it runs on an array of at most `QSFILTER_BENCH_JQ_ARRAY_MB`
 * (500 by default) only, and the array's comparison is made at that size, on a prefix
 * of the same items; qsfilter alone runs on the whole array.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateInvoices } from './lib/invoices';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const TIME = '/usr/bin/time';
const quick = process.argv.includes('--quick');
const megabytes = Number(process.env.QSFILTER_BENCH_CLI_MB ?? (quick ? 100 : 500));
const jqArrayMegabytes = Number(process.env.QSFILTER_BENCH_JQ_ARRAY_MB ?? 500);

interface Run {
  readonly wall: number;
  readonly cpu: number;
  readonly rssMb: number;
  readonly lines: number;
  readonly hash: string;
}

/** Runs a command under GNU time; its output is hashed and counted, never kept. */
function measure(command: string, args: readonly string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(TIME, ['-f', 'qsfilter-bench %e %U %S %M', command, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const hash = createHash('sha256');
    let lines = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      for (const byte of chunk) if (byte === 10) lines++;
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const match = /qsfilter-bench (\S+) (\S+) (\S+) (\d+)\s*$/.exec(stderr);
      if (code !== 0 || match === null) return reject(new Error(`${command} ${args.join(' ')} failed (${code}): ${stderr}`));
      resolve({ wall: Number(match[1]), cpu: Number(match[2]) + Number(match[3]), rssMb: Number(match[4]) / 1024, lines, hash: hash.digest('hex') });
    });
  });
}

/**
 * Writes about `megabytes` MB of invoices as NDJSON and as one JSON array, the same items
 * in the same order, and the first `jqArrayMegabytes` of them as a smaller array for jq.
 */
async function generate(dir: string): Promise<{ ndjson: string; array: string; smallArray: string; items: number }> {
  const ndjson = join(dir, 'invoices.ndjson');
  const array = join(dir, 'invoices.json');
  const smallArray = join(dir, 'invoices-small.json');
  const a = createWriteStream(ndjson);
  const b = createWriteStream(array);
  const c = createWriteStream(smallArray);
  const write = (stream: NodeJS.WritableStream, text: string): Promise<void> | void => {
    if (!stream.write(text)) return new Promise((resolve) => stream.once('drain', () => resolve()));
  };
  let bytes = 0;
  let items = 0;
  await write(b, '[');
  await write(c, '[');
  for (let seed = 1; bytes < megabytes * 1e6; seed++) {
    // Each batch its own seed: ids repeat between batches, which no filter here reads.
    const texts = generateInvoices(5000, seed).map((invoice) => JSON.stringify(invoice));
    items += texts.length;
    const lines = `${texts.join('\n')}\n`;
    bytes += lines.length;
    await write(a, lines);
    await write(b, `${seed === 1 ? '' : ','}${texts.join(',')}`);
    if (bytes - lines.length < jqArrayMegabytes * 1e6) await write(c, `${seed === 1 ? '' : ','}${texts.join(',')}`);
  }
  await write(b, ']\n');
  await write(c, ']\n');
  await Promise.all([a, b, c].map((stream) => new Promise((resolve) => stream.end(resolve))));
  return { ndjson, array, smallArray, items };
}

const FILTERS = [
  { name: 'some match (22%)', query: 'totalAmount=gte:3000&lines.description=%25fee%25', jq: '.totalAmount >= 3000 and any(.lines[]; .description | contains("fee"))' },
  { name: 'selective (0.2%)', query: 'customerRef.id=42', jq: '.customerRef.id == "42"' },
];

function row(cells: readonly (string | number)[]): string {
  return `| ${cells.join(' | ')} |`;
}

function fixed(n: number, digits = 2): string {
  return n.toFixed(digits);
}

if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npm run build` first');
if (!existsSync(TIME)) {
  console.log(`cli: skipped, ${TIME} (GNU time) is not installed`);
} else {
  const jq = await measure('jq', ['--version']).then(() => true, () => false);
  const dir = mkdtempSync(join(tmpdir(), 'qsfilter-bench-cli-'));
  try {
    const started = Date.now();
    const files = await generate(dir);
    const size = statSync(files.ndjson).size;
    console.log(`cli: ${files.items.toLocaleString('en-US')} invoices, NDJSON ${(size / 1e9).toFixed(2)} GB and a JSON array ${(statSync(files.array).size / 1e9).toFixed(2)} GB, generated in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    console.log(`machine: ${cpus()[0]?.model ?? '?'} x${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}\n`);
    console.log(row(['input', 'filter', 'qsfilter CPU s', 'jq CPU s', 'jq / qsfilter', 'qsfilter wall s', 'jq wall s', 'qsfilter peak RSS MB', 'jq peak RSS MB', 'matches']));
    console.log(row(['---', '---', '---', '---', '---', '---', '---', '---', '---', '---']));
    const small = `JSON array, first ${(statSync(files.smallArray).size / 1e9).toFixed(2)} GB`;
    for (const [input, file, expression] of [['NDJSON', files.ndjson, (f: string) => `select(${f})`], [small, files.smallArray, (f: string) => `.[] | select(${f})`]] as const) {
      for (const filter of FILTERS) {
        const ours = await measure(process.execPath, [CLI, 'filter', filter.query, file, '--resource', 'invoices', '--ndjson']);
        const theirs = jq ? await measure('jq', ['-c', expression(filter.jq), file]) : undefined;
        if (theirs !== undefined && theirs.hash !== ours.hash) throw new Error(`qsfilter and jq disagree on ${input}, ${filter.name}: ${ours.lines} and ${theirs.lines} lines`);
        console.log(row([input, filter.name, fixed(ours.cpu), theirs ? fixed(theirs.cpu) : '-', theirs ? `${fixed(theirs.cpu / ours.cpu, 1)}x` : '-', fixed(ours.wall), theirs ? fixed(theirs.wall) : '-', fixed(ours.rssMb, 0), theirs ? fixed(theirs.rssMb, 0) : '-', ours.lines.toLocaleString('en-US')]));
      }
    }
    console.log(`\nqsfilter alone: the whole JSON array, and sorts (jq has no streaming sort):\n`);
    console.log(row(['input', 'query', 'CPU s', 'wall s', 'peak RSS MB']));
    console.log(row(['---', '---', '---', '---', '---']));
    for (const [input, file] of [['NDJSON', files.ndjson], ['JSON array', files.array]] as const) {
      if (file === files.array) {
        for (const filter of FILTERS) {
          const run = await measure(process.execPath, [CLI, 'filter', filter.query, file, '--resource', 'invoices', '--ndjson']);
          console.log(row([input, `\`${filter.query}\``, fixed(run.cpu), fixed(run.wall), fixed(run.rssMb, 0)]));
        }
      }
      for (const query of ['orderBy=-totalAmount&limit=100', 'totalAmount=gte:100&orderBy=dueDate,-totalAmount&limit=500&offset=5000']) {
        const run = await measure(process.execPath, [CLI, 'filter', query, file, '--resource', 'invoices', '--ndjson']);
        console.log(row([input, `\`${query}\``, fixed(run.cpu), fixed(run.wall), fixed(run.rssMb, 0)]));
      }
      const counted = await measure(process.execPath, [CLI, 'filter', '', file, '--resource', 'invoices', '--count']);
      console.log(row([input, '`--count` of every item', fixed(counted.cpu), fixed(counted.wall), fixed(counted.rssMb, 0)]));
    }
    if (!jq) console.log('\n(jq is not installed: its columns are empty)');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
