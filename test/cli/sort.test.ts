import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../support/cli';

// orderBy at any size (issue 33, item 4): a sort spilled to a temporary directory, which
// is gone after the command, whatever ends it. Small inputs and a small --sort-memory make
// it spill and merge in many passes here; bench/cli.bench.ts sorts a gigabyte.

const dir = mkdtempSync(join(tmpdir(), 'qsfilter-cli-sort-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function invoice(i: number): string {
  return JSON.stringify({ id: `inv_${i}`, totalAmount: (i * 7919) % 1000, postedDate: `2023-01-${String(1 + (i % 28)).padStart(2, '0')}`, memo: 'é'.repeat(i % 40) });
}

/** A command reading invoices from a pipe that stays open: the sort has spilled once its temporary directory holds runs. */
function startSort(temp: string, via: 'option' | 'TMPDIR' = 'option') {
  const args = [CLI, 'filter', 'orderBy=-totalAmount', '-', '-r', 'invoices', '--ndjson', '--sort-memory', '4K', ...(via === 'option' ? ['--temp-dir', temp] : [])];
  const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH ?? '', ...(via === 'TMPDIR' ? { TMPDIR: temp } : {}) } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, closed };
}

/** The sort's directories in `temp` (Node's compile cache may be there too, when TMPDIR is it). */
function sortDirs(temp: string): string[] {
  return readdirSync(temp).filter((name) => name.startsWith('qsfilter-sort-'));
}

/** Waits until `temp` holds the sort's directory with at least `runs` runs in it. */
async function spilled(temp: string, runs: number): Promise<string> {
  for (;;) {
    const [made] = sortDirs(temp);
    if (made !== undefined && readdirSync(join(temp, made)).length >= runs) return made;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('orderBy without limit, past --sort-memory', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('removes its temporary files on %s, and is stopped by it', async (signal) => {
    const temp = mkdtempSync(join(dir, 'signal-'));
    const { child, closed } = startSort(temp);
    child.stdin.write(Array.from({ length: 2000 }, (_, i) => `${invoice(i)}\n`).join(''));
    await spilled(temp, 5);
    child.kill(signal);
    const result = await closed;
    expect(result).toMatchObject({ code: null, signal, stdout: '', stderr: '' });
    expect(readdirSync(temp)).toEqual([]);
  });

  it('removes its temporary files on an input error, after writing the sorted matches before it', async () => {
    const temp = mkdtempSync(join(dir, 'error-'));
    const items = Array.from({ length: 2000 }, (_, i) => invoice(i));
    const run = await runCli(['filter', 'orderBy=-totalAmount', '-', '-r', 'invoices', '--ndjson', '--sort-memory', '4K', '--temp-dir', temp], { input: `${items.join('\n')}\n{"id":}\n` });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^qsfilter: item 2001 \(line 2001\) is not JSON: /);
    expect(run.stdout.split('\n').slice(0, -1).map((line) => (JSON.parse(line) as { totalAmount: number }).totalAmount)).toEqual(items.map((line) => (JSON.parse(line) as { totalAmount: number }).totalAmount).sort((a, b) => b - a));
    expect(readdirSync(temp)).toEqual([]);
  });

  it('removes its temporary files when stdout is closed early (| head)', async () => {
    const temp = mkdtempSync(join(dir, 'head-'));
    const input = join(dir, 'head.ndjson');
    writeFileSync(input, Array.from({ length: 3000 }, (_, i) => `${invoice(i)}\n`).join(''));
    const run = await runCli([`filter 'orderBy=-totalAmount' "${input}" -r invoices --ndjson --sort-memory 4K --temp-dir "${temp}" | head -n 2`], { shell: true });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout.split('\n')).toHaveLength(3);
    expect(readdirSync(temp)).toEqual([]);
  });

  it('sorts in the directory TMPDIR names when --temp-dir is not given', async () => {
    const temp = mkdtempSync(join(dir, 'tmpdir-'));
    const { child, closed } = startSort(temp, 'TMPDIR');
    const items = Array.from({ length: 500 }, (_, i) => invoice(i));
    child.stdin.write(items.map((item) => `${item}\n`).join(''));
    await spilled(temp, 2);
    child.stdin.end();
    const result = await closed;
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.split('\n')).toHaveLength(501);
    expect(sortDirs(temp)).toEqual([]);
  });

  it('says which directory it cannot use, before reading', async () => {
    const missing = await runCli(['filter', 'orderBy=-totalAmount', '-r', 'invoices', '--temp-dir', join(dir, 'nope')], { input: '' });
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toMatch(/^qsfilter: cannot keep the sort's temporary files in ".*nope": ENOENT.*; give --temp-dir a directory to write to\n$/);
  });

  it.each([['0'], ['1000'], ['3X'], ['1.5M'], ['3G']])('refuses --sort-memory %s', async (size) => {
    const run = await runCli(['filter', 'orderBy=id', '-r', 'invoices', '--sort-memory', size], { input: '' });
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toContain(`--sort-memory "${size}" is not a size from 1K to 2G`);
  });
});
