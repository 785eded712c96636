import { constants } from 'node:buffer';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli';

const dir = mkdtempSync(join(tmpdir(), 'qsfilter-cli-hostile-'));
// The files of this suite (tens of MB) go with it: /tmp is shared.
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, bytes: Uint8Array | string): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

/** What a terminal acts on or hides behind: C0 and C1 controls, DEL, format characters (bidi overrides). */
const RAW_CONTROL = /[\p{Cc}\p{Cf}]/u;

describe('qsfilter check on hostile text', () => {
  it('prints no raw control or format character from the query, in the explanation or the request parameters', async () => {
    // ESC, a C1 CSI (U+009B) and a right-to-left override (U+202E), in a filter and in a pass-through parameter.
    const run = await runCli(['check', 'businessName=%C2%9B31m%E2%80%AEabc&vendorName=%1B%5B31mX%E2%80%AE%C2%9B', '-r', 'vendors']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout.replaceAll('\n', '')).not.toMatch(RAW_CONTROL);
    expect(run.stdout).toContain('  vendorName is "\\u001b[31mX\\u202e\\u009b"\n');
    expect(run.stdout).toContain('  businessName = "\\u009b31m\\u202eabc"\n');
  });

  it('with --json, escapes them too, and the JSON still holds the same text', async () => {
    const run = await runCli(['check', 'businessName=%C2%9B31m%E2%80%AE%E2%80%A8abc&vendorName=a%7Fb', '-r', 'vendors', '--json']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout.replaceAll('\n', '')).not.toMatch(RAW_CONTROL);
    expect(run.stdout).toContain('"businessName": "\\u009b31m\\u202e\\u2028abc"');
    const report = JSON.parse(run.stdout) as { filter: { params: Record<string, string> }; explanation: string[] };
    expect(report.filter.params.businessName).toBe('\u009b31m\u202e\u2028abc');
    expect(report.explanation).toEqual(['vendorName is "a\\u007fb"', 'Page: 100 items from offset 0 (matches 1 to 100).']);
  });
});

describe('qsfilter filter on hostile input', () => {
  it('writes matches that hold controls and bidi overrides escaped, compact or indented, as the same JSON', async () => {
    const items = [{ vendorName: 'Acme\u009b2J\u202e\u0085\u200b', note: 'line\nbreak\u2029' }];
    for (const layout of ['--compact', '--pretty']) {
      const run = await runCli(['filter', 'vendorName=Acme%25', '-r', 'vendors', layout], { input: JSON.stringify(items) });
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout.replaceAll('\n', '')).not.toMatch(RAW_CONTROL);
      expect(JSON.parse(run.stdout)).toEqual(items);
    }
  });

  it('refuses items nested too deeply to write as JSON as an input error (exit 2), not an internal one', async () => {
    // JSON.parse reads this; JSON.stringify overflows its stack writing it back. It is refused before, at the depth cap.
    const depth = 200_000;
    const deep = `[{"vendorName":"a","x":${'['.repeat(depth)}${']'.repeat(depth)}}]`;
    const run = await runCli(['filter', 'vendorName=a', '-r', 'vendors'], { input: deep });
    expect(run.stderr).not.toContain('internal error');
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toBe('qsfilter: item 1 (line 1) nests deeper than 1000 levels, the most one item may\n');
  });

  it('stops reading endless standard input at the item cap, and says so (exit 2)', async () => {
    // Endless input (< /dev/zero): before, it was buffered whole and its decoding threw (an
    // internal error, exit 70). Streamed, the NUL characters are one value that never
    // ends: refused at the cap on one item. Input past the longest string Node holds
    // stands for endless, so that a cap that stopped working would fail this test rather
    // than fill the machine's memory.
    const run = await runCli(["filter ''", '-r', 'vendors'], { pipeFrom: `head -c ${constants.MAX_STRING_LENGTH + 65_536} /dev/zero` });
    expect(run.stderr).toBe('qsfilter: item 1 (line 1) is longer than 16777216 characters, the most one item may hold\n');
    expect(run).toMatchObject({ code: 2, stdout: '' });
  });

  it('refuses input that is not UTF-8 rather than writing it out changed', async () => {
    // "Café" in Latin-1: decoded leniently, the é became U+FFFD and came out so.
    const latin1 = Buffer.from('[{"vendorName":"Caf\xe9"}]', 'latin1');
    const fromFile = await runCli(['filter', '', file('latin1.json', latin1), '-r', 'vendors']);
    expect(fromFile).toMatchObject({ code: 2, stdout: '' });
    expect(fromFile.stderr).toMatch(/^qsfilter: the input \(.*latin1\.json\) is not UTF-8: the byte 0xe9 at offset 19 \(line 1, in item 1\) is not\n$/);
  });

  // Issue 33, finding 4: the byte was named by the 32 KiB piece it was read in, and the matches before it were lost.
  it('names the byte that is not UTF-8, deep in the input, with its line and item, after writing the matches before it', async () => {
    // Characters of two, three and four bytes, so that the pieces the input is read in end inside them.
    const lines = Array.from({ length: 3000 }, (_, i) => `${JSON.stringify({ vendorName: `v${i} é€😀`, balance: i })}\n`);
    const before = Buffer.from(lines.slice(0, 2000).join(''));
    const bad = Buffer.concat([before, Buffer.from('{"vendorName":"caf'), Buffer.from([0xc3, 0x28]), Buffer.from(lines.slice(2001).join(''))]);
    const path = file('bad-deep.ndjson', bad);
    const message = `the byte 0xc3 at offset ${before.length + 18} (line 2001, in item 2001) is not\n`;
    for (const run of [await runCli(['filter', 'balance=gte:1000', path, '-r', 'vendors', '--ndjson']), await runCli(['filter', 'balance=gte:1000', '-', '-r', 'vendors', '--ndjson'], { pipeFrom: `cat "${path}"` })]) {
      expect(run.code).toBe(2);
      expect(run.stdout).toBe(lines.slice(1000, 2000).join(''));
      expect(run.stderr).toMatch(/^qsfilter: the input \(.*\) is not UTF-8: /);
      expect(run.stderr.endsWith(message)).toBe(true);
    }
  });

  it.each([
    ['an overlong form', [0xc0, 0xaf], 'the byte 0xc0 at offset 32 (line 2, in item 2)'],
    ['a surrogate', [0xed, 0xa0, 0x80], 'the byte 0xed at offset 32 (line 2, in item 2)'],
    ['past U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 'the byte 0xf4 at offset 32 (line 2, in item 2)'],
    ['a lone continuation byte', [0x80], 'the byte 0x80 at offset 32 (line 2, in item 2)'],
  ])('names %s by its first byte', async (_name, bytes, where) => {
    const input = Buffer.concat([Buffer.from('\ufeff{"balance":1}\n{"vendorName":"'), Buffer.from(bytes), Buffer.from('"}\n')]);
    const run = await runCli(['filter', '', file(`bad-${bytes[0]}.ndjson`, input), '-r', 'vendors', '--ndjson']);
    expect(run).toMatchObject({ code: 2, stdout: '{"balance":1}\n' });
    expect(run.stderr).toContain(`${where} is not\n`);
  });

  it('names a character cut short by the end of the input', async () => {
    const input = Buffer.concat([Buffer.from('[{"balance":1}]\n'), Buffer.from([0xe2, 0x82])]);
    const run = await runCli(['filter', '', file('cut.json', input), '-r', 'vendors']);
    expect(run).toMatchObject({ code: 2, stdout: '[{"balance":1}\n' });
    expect(run.stderr).toContain('the byte 0xe2 at offset 16 (line 2, after item 1) is not\n');
  });

  it('reads a UTF-8 file that starts with a byte order mark', async () => {
    const run = await runCli(['filter', 'vendorName=Caf%C3%A9', file('bom.json', '\ufeff[{"vendorName":"Café"}]'), '-r', 'vendors']);
    expect(run).toMatchObject({ code: 0, stderr: '', stdout: '[{"vendorName":"Café"}]\n' });
  });
});

describe('every path that prints user-derived text escapes terminal controls (issue 23, item 3)', () => {
  /** ESC with a colour sequence, a C1 CSI (U+009B) and a right-to-left override (U+202E). */
  const HOSTILE = '\u001b[31mX\u009b\u202e';
  /** As the escaping shows it. */
  const SHOWN = '\\u001b[31mX\\u009b\\u202e';
  const hostileDir = mkdtempSync(join(tmpdir(), `qsfilter-${HOSTILE}-`));
  afterAll(() => rmSync(hostileDir, { recursive: true, force: true }));
  const inHostileDir = (name: string, text: string): string => {
    const path = join(hostileDir, name);
    writeFileSync(path, text);
    return path;
  };
  const schemaFile = (spec: unknown): string => file(`schema-${Math.random().toString(36).slice(2)}.json`, JSON.stringify(spec));

  it.each<[string, () => string[]]>([
    ['check -r <name>', () => ['check', 'a=1', '-r', HOSTILE]],
    ['resources <name>', () => ['resources', HOSTILE]],
    ['an unknown command', () => [HOSTILE]],
    ['an unknown option', () => ['check', 'a=1', `--${HOSTILE}`]],
    ['too many arguments', () => ['check', 'a=1', HOSTILE, '-r', 'invoices']],
    ['a schema file path that cannot be read', () => ['check', 'a=1', '--schema', join(hostileDir, `missing-${HOSTILE}.json`)]],
    ['an input file path that cannot be read', () => ['filter', 'totalAmount=1', join(hostileDir, `missing-${HOSTILE}.json`), '-r', 'invoices']],
    ['a schema file that is not JSON (its parse error quotes the content)', () => ['check', 'a=1', '--schema', inHostileDir('bad.json', `${HOSTILE}{`)]],
    ['a schema file whose field name is no field name', () => ['check', 'a=1', '--schema', schemaFile({ fields: { [HOSTILE]: 'number' } })]],
    ['a schema file whose child field name is no field name', () => ['check', 'a=1', '--schema', schemaFile({ fields: { lines: { type: 'array', of: { [HOSTILE]: 'number' } } } })]],
    ['a declared parameter\'s decoded name, under "Request parameters"', () => ['check', `a=1&${encodeURIComponent(HOSTILE)}=v`, '--schema', schemaFile({ fields: { a: 'number' }, params: [HOSTILE] })]],
  ])('%s', async (_path, args) => {
    const run = await runCli(args());
    const printed = run.stdout + run.stderr;
    expect(printed.replaceAll('\n', '')).not.toMatch(RAW_CONTROL);
    expect(printed).toContain(SHOWN);
    expect(run.stderr).not.toContain('internal error');
  });
});
