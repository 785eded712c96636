/**
 * `qsfilter filter` at size (issues 25 and 33): throughput against jq, a gigabyte sort
 * against a `sort` pipeline and `jq -s`, and peak memory, on an NDJSON file and a JSON
 * array of generated invoices, 1 GB each by default (100 MB with `--quick`; another size
 * with `QSFILTER_BENCH_CLI_MB`). Run alone: `npm run bench -- cli`, or `npm run build &&
 * npx tsx bench/cli.bench.ts`. The inputs are generated under the system's temporary
 * directory and deleted at the end.
 *
 * A plain script (not a scenario): it prints its own tables, and a PASS or MISS line per
 * goal. Each command runs under GNU time (`/usr/bin/time`), which gives its CPU seconds
 * (user + system: what a loaded machine changes least) and its peak resident set; wall
 * seconds are shown beside them. The sides of a comparison must write the same bytes
 * before their times are compared: qsfilter with `--ndjson`, jq with `-c` (its output
 * and the items as generated agree byte for byte), the `sort` pipeline the input's own
 * lines.
 *
 * jq reads a JSON array whole (`.[]` needs the parsed array), and `jq -s` the whole
 * NDJSON file: about eleven times its size in memory. So jq reads an array of at most
 * `QSFILTER_BENCH_JQ_ARRAY_MB` (500 by default: 5.5 GB of memory), the first items of the
 * same ones, and `jq -s` sorts at most `QSFILTER_BENCH_JQ_SORT_MB` (1000 by default: 11
 * GB) of NDJSON, compared with qsfilter on the same bytes; 0 leaves either out.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateInvoices } from './lib/invoices';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const TIME = '/usr/bin/time';
const quick = process.argv.includes('--quick');
const megabytes = Number(process.env.QSFILTER_BENCH_CLI_MB ?? (quick ? 100 : 1000));
const jqArrayMegabytes = Number(process.env.QSFILTER_BENCH_JQ_ARRAY_MB ?? 500);
const jqSortMegabytes = Number(process.env.QSFILTER_BENCH_JQ_SORT_MB ?? 1000);

/** The goals of issue 33: CPU time of jq over qsfilter's, on the same file and filter. */
const GOALS = { ndjson: 2.5, array: 1.5 } as const;
/** Resident memory, whatever the input's size (SPEC §14.3). */
const MAX_RSS_MB = 150;

interface Run {
  readonly wall: number;
  readonly cpu: number;
  readonly rssMb: number;
  readonly lines: number;
  readonly hash: string;
}

/** Runs a command under GNU time; its output is hashed and counted, never kept. A shell pipeline's peak is its largest process's. */
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

function qsfilter(query: string, file: string, ...flags: string[]): Promise<Run> {
  return measure(process.execPath, [CLI, 'filter', query, file, '--resource', 'invoices', '--ndjson', ...flags]);
}

/** What the inputs are: paths, and how many items. */
interface Inputs {
  readonly ndjson: string;
  readonly array: string;
  readonly items: number;
  /** The first items as an array of at most `jqArrayMegabytes`, and as NDJSON of at most `jqSortMegabytes` (the whole files when they are that small). */
  readonly smallArray: string;
  readonly smallNdjson: string;
}

/**
 * Writes about `megabytes` MB of invoices as NDJSON and as one JSON array, the same items
 * in the same order, and their first items as the smaller inputs jq can hold in memory.
 */
async function generate(dir: string): Promise<Inputs> {
  const ndjson = join(dir, 'invoices.ndjson');
  const array = join(dir, 'invoices.json');
  const smallArray = jqArrayMegabytes < megabytes ? join(dir, 'invoices-jq.json') : array;
  const smallNdjson = jqSortMegabytes < megabytes ? join(dir, 'invoices-jq.ndjson') : ndjson;
  const streams = [...new Set([ndjson, array, smallArray, smallNdjson])].map((path) => [path, createWriteStream(path)] as const);
  const out = new Map(streams);
  const write = (path: string, text: string): Promise<void> | void => {
    const stream = out.get(path)!;
    if (!stream.write(text)) return new Promise((resolve) => stream.once('drain', () => resolve()));
  };
  let bytes = 0;
  let items = 0;
  for (const path of new Set([array, smallArray])) await write(path, '[');
  for (let seed = 1; bytes < megabytes * 1e6; seed++) {
    // Each batch its own seed: ids repeat between batches, which no filter here reads.
    const texts = generateInvoices(5000, seed).map((invoice) => JSON.stringify(invoice));
    const lines = `${texts.join('\n')}\n`;
    const before = bytes;
    items += texts.length;
    bytes += lines.length;
    await write(ndjson, lines);
    await write(array, `${seed === 1 ? '' : ','}${texts.join(',')}`);
    if (smallArray !== array && before < jqArrayMegabytes * 1e6) await write(smallArray, `${seed === 1 ? '' : ','}${texts.join(',')}`);
    if (smallNdjson !== ndjson && before < jqSortMegabytes * 1e6) await write(smallNdjson, lines);
  }
  for (const path of new Set([array, smallArray])) await write(path, ']\n');
  await Promise.all(streams.map(([, stream]) => new Promise((resolve) => stream.end(resolve))));
  return { ndjson, array, items, smallArray, smallNdjson };
}

const FILTERS = [
  { name: 'some match (22%)', query: 'totalAmount=gte:3000&lines.description=%25fee%25', jq: '.totalAmount >= 3000 and any(.lines[]; .description | contains("fee"))' },
  { name: 'selective (0.2%)', query: 'customerRef.id=42', jq: '.customerRef.id == "42"' },
];

/** The sort compared: two keys, the first descending; ties by input order (GNU sort -s, jq's stable sort_by). */
const SORT = {
  query: 'orderBy=-totalAmount,postedDate',
  jq: 'sort_by(-.totalAmount, .postedDate) | .[]',
  // The keys beside each line, sorted on them (stable), then cut off: the lines come out as they went in.
  pipeline: (file: string) => `jq -r '"\\(.totalAmount)\\t\\(.postedDate)"' '${file}' | paste - '${file}' | LC_ALL=C sort -s -t "$(printf '\\t')" -k1,1gr -k2,2 | cut -f3-`,
};

function row(cells: readonly (string | number)[]): string {
  return `| ${cells.join(' | ')} |`;
}

function fixed(n: number, digits = 2): string {
  return n.toFixed(digits);
}

function size(path: string): string {
  return `${(statSync(path).size / 1e9).toFixed(2)} GB`;
}

const verdicts: string[] = [];

function goal(name: string, met: boolean, value: string): void {
  verdicts.push(`${met ? 'PASS' : 'MISS'} ${name}: ${value}`);
}

function same(what: string, a: Run, b: Run): void {
  if (a.hash !== b.hash) throw new Error(`${what}: the outputs differ (${a.lines} and ${b.lines} lines)`);
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
    console.log(`cli: ${files.items.toLocaleString('en-US')} invoices, NDJSON ${size(files.ndjson)} and a JSON array ${size(files.array)}, generated in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    console.log(`machine: ${cpus()[0]?.model ?? '?'} x${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}, load average ${loadavg()[0]!.toFixed(1)} at the start\n`);

    console.log(row(['input', 'filter', 'qsfilter CPU s', 'jq CPU s', 'jq / qsfilter', 'qsfilter wall s', 'jq wall s', 'qsfilter peak RSS MB', 'jq peak RSS MB', 'matches']));
    console.log(row(['---', '---', '---', '---', '---', '---', '---', '---', '---', '---']));
    const inputs = [
      ['NDJSON', files.ndjson, (f: string) => `select(${f})`, GOALS.ndjson],
      [files.smallArray === files.array ? 'JSON array' : `JSON array, first ${size(files.smallArray)}`, files.smallArray, (f: string) => `.[] | select(${f})`, GOALS.array],
    ] as const;
    for (const [input, file, expression, target] of inputs) {
      if (!jq || (file === files.smallArray && jqArrayMegabytes === 0)) continue;
      for (const filter of FILTERS) {
        const ours = await qsfilter(filter.query, file);
        const theirs = await measure('jq', ['-c', expression(filter.jq), file]);
        same(`${input}, ${filter.name}`, ours, theirs);
        const ratio = theirs.cpu / ours.cpu;
        console.log(row([input, filter.name, fixed(ours.cpu), fixed(theirs.cpu), `${fixed(ratio, 1)}x`, fixed(ours.wall), fixed(theirs.wall), fixed(ours.rssMb, 0), fixed(theirs.rssMb, 0), ours.lines.toLocaleString('en-US')]));
        goal(`${input}, ${filter.name}: jq CPU over qsfilter's ≥ ${target}x`, ratio >= target, `${fixed(ratio, 2)}x`);
      }
    }

    console.log(`\nSorting every item (\`${SORT.query}\`, no limit): qsfilter against a \`sort\` pipeline and \`jq -s\`:\n`);
    console.log(row(['input', 'command', 'CPU s', 'wall s', 'peak RSS MB', 'CPU over qsfilter\'s']));
    console.log(row(['---', '---', '---', '---', '---', '---']));
    for (const file of [...new Set([files.ndjson, files.smallNdjson])]) {
      const input = `NDJSON ${size(file)}`;
      const ours = await qsfilter(SORT.query, file);
      console.log(row([input, `qsfilter \`${SORT.query}\``, fixed(ours.cpu), fixed(ours.wall), fixed(ours.rssMb, 0), '1.0x']));
      goal(`qsfilter sorting ${input}: peak RSS ≤ ${MAX_RSS_MB} MB`, ours.rssMb <= MAX_RSS_MB, `${fixed(ours.rssMb, 0)} MB`);
      if (!jq) continue;
      if (file === files.ndjson) {
        const piped = await measure('/bin/sh', ['-c', SORT.pipeline(file)]);
        same(`${input}, the sort pipeline`, ours, piped);
        console.log(row([input, 'jq keys \\| paste \\| `LC_ALL=C sort -s` \\| cut', fixed(piped.cpu), fixed(piped.wall), fixed(piped.rssMb, 0), `${fixed(piped.cpu / ours.cpu, 1)}x`]));
      }
      if (file === files.smallNdjson && jqSortMegabytes > 0) {
        const slurped = await measure('jq', ['-s', '-c', SORT.jq, file]);
        same(`${input}, jq -s`, ours, slurped);
        console.log(row([input, `\`jq -s -c '${SORT.jq.replaceAll('|', '\\|')}'\``, fixed(slurped.cpu), fixed(slurped.wall), fixed(slurped.rssMb, 0), `${fixed(slurped.cpu / ours.cpu, 1)}x`]));
      }
    }
    const sortedArray = await qsfilter(SORT.query, files.array);
    console.log(row([`JSON array ${size(files.array)}`, `qsfilter \`${SORT.query}\``, fixed(sortedArray.cpu), fixed(sortedArray.wall), fixed(sortedArray.rssMb, 0), '']));
    goal(`qsfilter sorting the JSON array: peak RSS ≤ ${MAX_RSS_MB} MB`, sortedArray.rssMb <= MAX_RSS_MB, `${fixed(sortedArray.rssMb, 0)} MB`);

    console.log('\nqsfilter alone, on the whole inputs:\n');
    console.log(row(['input', 'query', 'CPU s', 'wall s', 'peak RSS MB']));
    console.log(row(['---', '---', '---', '---', '---']));
    for (const [input, file] of [['NDJSON', files.ndjson], ['JSON array', files.array]] as const) {
      const queries = [...(file === files.array && files.smallArray !== files.array ? FILTERS.map((filter) => filter.query) : []), 'orderBy=-totalAmount&limit=100', 'totalAmount=gte:100&orderBy=dueDate,-totalAmount&limit=500&offset=5000'];
      for (const query of queries) {
        const run = await qsfilter(query, file);
        console.log(row([input, `\`${query}\``, fixed(run.cpu), fixed(run.wall), fixed(run.rssMb, 0)]));
        goal(`qsfilter ${input} \`${query}\`: peak RSS ≤ ${MAX_RSS_MB} MB`, run.rssMb <= MAX_RSS_MB, `${fixed(run.rssMb, 0)} MB`);
      }
      const counted = await measure(process.execPath, [CLI, 'filter', '', file, '--resource', 'invoices', '--count']);
      console.log(row([input, '`--count` of every item', fixed(counted.cpu), fixed(counted.wall), fixed(counted.rssMb, 0)]));
    }
    if (!jq) console.log('\n(jq is not installed: its comparisons are left out)');
    console.log(`\nload average ${loadavg()[0]!.toFixed(1)} at the end, ${((Date.now() - started) / 60_000).toFixed(0)} minutes in all\n`);
    for (const verdict of verdicts) console.log(verdict);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
