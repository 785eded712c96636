import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FILTER_OPTIONS } from '../../src/cli/commands/filter';
import { EXIT } from '../../src/cli/usage';
import { runCli } from '../support/cli';

const ESC = '\x1b[';

const dir = mkdtempSync(join(tmpdir(), 'qsfilter-cli-'));
// The files of this suite (tens of MB) go with it: /tmp is shared.
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const INVOICES = [
  { id: 'a', totalAmount: 150, customerRef: { id: 42 }, vendorName: 'x', lines: [{ description: 'Consulting fee', amount: 15 }] },
  { id: 'b', totalAmount: '250.00', customerRef: { id: '42' }, lines: [{ description: 'consulting FEE', amount: 5 }] },
  { id: 'c', totalAmount: '120.50', customerRef: { id: '7' }, lines: [{ description: 'Hosting', amount: 30 }, { amount: 12 }] },
  { id: 'd', lines: [] },
];
const invoicesFile = file('invoices.json', JSON.stringify(INVOICES));

function ids(stdout: string): string[] {
  return (JSON.parse(stdout) as { id: string }[]).map((item) => item.id);
}

describe('qsfilter check', () => {
  it('prints the canonical query and what each filter means, and exits 0', async () => {
    const run = await runCli(['check', 'limit=50&totalAmount=gte:100;lte:200&lines.amount=gte:10;lte:20&postedDate=2023-01-09', '--resource', 'invoices']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe('limit=50&totalAmount=gte:100;lte:200&lines.amount=gte:10;lte:20&postedDate=2023-01-09');
    expect(run.stdout).toContain('  totalAmount is at least 100 and at most 200\n');
    expect(run.stdout).toContain('  in some line, amount is at least 10 and at most 20\n');
    expect(run.stdout).toContain('  postedDate is on 2023-01-09 (UTC)\n');
    expect(run.stdout).toContain('Page: 50 items from offset 0 (matches 1 to 50).\n');
  });

  it('says that a query without filters matches every item', async () => {
    const run = await runCli(['check', '', '-r', 'vendors']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('No filters: every item matches.');
  });

  it('prints every diagnostic with its caret line on stderr, and exits 1', async () => {
    const run = await runCli(['check', 'totalAmount=GTE:100&postedDate=2023-02-30', '-r', 'invoices']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('error[INVALID_NUMBER]');
    expect(run.stderr).toContain('  totalAmount=GTE:100\n              ^^^^^^^\n');
    expect(run.stderr).toContain('hint: Operators are lower case');
    expect(run.stderr).toContain('error[INVALID_DATE]');
    expect(run.stderr).toContain('  postedDate=2023-02-30\n             ^^^^^^^^^^\n');
  });

  it('reports a bare % as MALFORMED_ENCODING with the %25 hint', async () => {
    const run = await runCli(['check', 'vendorName=%acme%', '-r', 'vendors']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error[MALFORMED_ENCODING]');
    expect(run.stderr).toContain('%25');
  });

  it('with --json prints the filter, the canonical query and the explanation', async () => {
    const run = await runCli(['check', 'vendorName=%25acme%25&limit=5', '-r', 'vendors', '--json']);
    expect(run.code).toBe(0);
    const body = JSON.parse(run.stdout) as { query: string; explanation: string[]; filter: { type: string; conditions: unknown[]; params: unknown } };
    expect(body.query).toBe('limit=5&vendorName=%25acme%25');
    expect(body.explanation).toEqual(['vendorName contains "acme"', 'Page: 5 items from offset 0 (matches 1 to 5).']);
    expect(body.filter.type).toBe('Filter');
    expect(body.filter.conditions).toEqual([
      { type: 'string', key: 'vendorName', field: 'vendorName', path: ['vendorName'], tests: [{ op: 'like', segments: ['', 'acme', ''] }] },
    ]);
    expect(body.filter.params).toEqual({ limit: '5' });
  });

  it('with --json prints the problem details body of a bad query on stdout, and exits 1', async () => {
    const run = await runCli(['check', 'lines.memo=x&memo=gt:5', '-r', 'deposits', '--json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
    const body = JSON.parse(run.stdout) as { status: number; errors: { code: string; param: string }[] };
    expect(body.status).toBe(400);
    expect(body.errors.map((e) => [e.code, e.param])).toEqual([
      ['FIELD_REMOVED', 'lines.memo'],
      ['OPERATOR_NOT_SUPPORTED', 'memo'],
    ]);
  });

  it('checks against a schema file in the shape of defineSchema', async () => {
    const schema = file('schema.json', JSON.stringify({ fields: { amount: 'number', tags: { type: 'array', of: { name: 'string' } } }, params: ['page'] }));
    const ok = await runCli(['check', 'page=2&amount=lt:5&tags.name=urgent', '--schema', schema]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('  amount is less than 5\n  in some tag, name is "urgent"\n');
    const bad = await runCli(['check', 'amont=1', '-s', schema]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('error[UNKNOWN_FIELD]');
    expect(bad.stderr).toContain('Did you mean amount?');
  });

  it('passes a query with shell-special characters through a single-quoted shell argument unchanged', async () => {
    // & ; | ( ) * $ " \ and % mean something to the shell or to the URL; inside '…' they reach the query as typed.
    const query = String.raw`vendorName=%25$HOME*|(x)\;"y"%25&balance=gte:1;lte:2`;
    const run = await runCli([`check '${query}' --resource vendors --json`], { shell: true });
    expect(run.code).toBe(0);
    const body = JSON.parse(run.stdout) as { explanation: string[]; filter: { conditions: { tests: unknown[] }[] } };
    expect(body.filter.conditions[0]!.tests).toEqual([{ op: 'like', segments: ['', '$HOME*|(x);"y"', ''] }]);
    expect(body.explanation).toEqual([
      'vendorName contains "$HOME*|(x);\\"y\\""',
      'balance is at least 1 and at most 2',
      'Page: 100 items from offset 0 (matches 1 to 100).',
    ]);
  });
});

describe('qsfilter filter', () => {
  it('prints the matching items of a file as one compact JSON array when stdout is not a terminal', async () => {
    const run = await runCli(['filter', 'totalAmount=gte:100;lte:200', invoicesFile, '-r', 'invoices']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(`${JSON.stringify([INVOICES[0], INVOICES[2]])}\n`);
  });

  it('reads standard input when no file is given, or when the file is "-"', async () => {
    for (const args of [['filter', 'customerRef.id=42', '-r', 'invoices'], ['filter', 'customerRef.id=42', '-', '-r', 'invoices']]) {
      const run = await runCli(args, { input: JSON.stringify(INVOICES) });
      expect(run.code).toBe(0);
      expect(ids(run.stdout)).toEqual(['a', 'b']);
    }
  });

  it('holds the clauses of one child-array parameter to the same element', async () => {
    const run = await runCli(['filter', 'lines.amount=gte:10;lte:20', invoicesFile, '-r', 'invoices']);
    expect(ids(run.stdout)).toEqual(['a', 'c']);
  });

  it('compares text case-sensitively unless --case-insensitive is given', async () => {
    const sensitive = await runCli(['filter', 'lines.description=Consulting%20fee', invoicesFile, '-r', 'invoices']);
    expect(ids(sensitive.stdout)).toEqual(['a']);
    const insensitive = await runCli(['filter', 'lines.description=Consulting%20fee', invoicesFile, '-r', 'invoices', '--case-insensitive']);
    expect(ids(insensitive.stdout)).toEqual(['a', 'b']);
  });

  it('indents the output with --pretty', async () => {
    const run = await runCli(['filter', 'customerRef.id=7', invoicesFile, '-r', 'invoices', '--pretty']);
    expect(run.stdout).toBe(`${JSON.stringify([INVOICES[2]], null, 2)}\n`);
  });

  it('prints the diagnostics of a bad query and exits 1 without reading the input', async () => {
    const run = await runCli(['filter', 'totalAmount=abc', '-r', 'invoices'], { input: 'not even JSON' });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('error[INVALID_NUMBER]');
  });

  it('refuses a cut-short array with exit 2, naming where, and no usage text', async () => {
    const run = await runCli(['filter', 'totalAmount=1', '-r', 'invoices'], { input: '[1, 2' });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('qsfilter: the input ends at line 1, after item 2, before the array of items is closed: it is cut short\n');
  });
});

describe('qsfilter resources', () => {
  it('lists every resource of the catalog with its fields and parameters', async () => {
    const run = await runCli(['resources']);
    expect(run.code).toBe(0);
    for (const name of ['balanceSheets', 'invoices', 'vendors', 'deposits', 'bills', 'connections', 'syncStatus', 'businesses']) {
      expect(run.stdout).toMatch(new RegExp(`^${name}$`, 'm'));
    }
    expect(run.stdout).toContain('customerRef.id (id)');
    expect(run.stdout).toContain('params: businessName, serviceName, connectionUuid, reportFrequency, startDate, endDate, accountingMethod, limit, offset');
  });

  it('shows one resource as JSON, removed fields apart', async () => {
    const run = await runCli(['resources', 'deposits', '--json']);
    expect(run.code).toBe(0);
    const body = JSON.parse(run.stdout) as Record<string, { fields: Record<string, string>; removed: Record<string, string>; params: string[] }>;
    expect(Object.keys(body)).toEqual(['deposits']);
    expect(body.deposits!.fields).toMatchObject({ memo: 'string', 'lines.amount': 'number' });
    expect(body.deposits!.fields).not.toHaveProperty('lines.memo');
    expect(body.deposits!.removed['lines.memo']).toContain('memo=');
    expect(body.deposits!.params).toEqual(['businessName', 'serviceName', 'connectionUuid', 'startDate', 'endDate', 'limit', 'offset']);
  });
});

describe('usage errors', () => {
  const notJson = file('not-json.json', '{ fields: ');
  const badSpec = file('bad-spec.json', JSON.stringify({ fields: { amount: 'money' } }));
  it.each([
    [[], 'missing command'],
    [['frobnicate'], 'unknown command "frobnicate"'],
    [['check', 'a=1', '-r', 'nope'], 'unknown resource "nope"'],
    [['check', '-r', 'invoices'], 'check needs a query'],
    [['check', 'a=1'], '--resource <name> or --schema <file>'],
    [['check', 'a=1', '-r', 'invoices', '-s', 'x.json'], 'not both'],
    [['check', 'a=1', 'b=2', '-r', 'invoices'], 'too many arguments: "b=2"'],
    [['check', 'a=1', '--schema', join(dir, 'missing.json')], 'cannot read the schema file'],
    [['check', 'a=1', '--schema', notJson], 'is not JSON'],
    [['check', 'a=1', '--schema', badSpec], 'unknown type "money"'],
    [['filter', 'totalAmount=1', join(dir, 'missing.json'), '-r', 'invoices'], 'cannot read the input file'],
    [['filter', 'totalAmount=1', dir, '-r', 'invoices'], 'cannot read the input file'],
    [['filter', 'a=1', '-r', 'invoices', '--pretty', '--compact'], 'not both'],
    [['resources', 'nope'], 'unknown resource "nope"'],
  ])('%j exits 2 with a short usage message', async (args, message) => {
    const run = await runCli(args, { input: '[]' });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain('Usage: qsfilter check <query>');
  });

  it.each([
    [['check', 'a=1', '-r', 'invoices', '--bogus'], 'unknown option "--bogus" for check'],
    [['check', 'a=1', '-r', 'invoices', '--case-insensitive'], 'unknown option "--case-insensitive" for check'],
    [['filter', 'a=1', '-r', 'invoices', '-x'], 'unknown option "-x" for filter'],
    [['filter', 'a=1', '-r', 'invoices', '--count=3'], 'option "--count" takes no value'],
    [['filter', 'a=1', '-r', 'invoices', '--path'], 'option "--path" needs a value'],
    [['filter', 'a=1', '-r', '--count'], 'option "-r" needs a value'],
    [['filter', 'a=1', '-r', 'invoices', '--bad\u009b\u202e'], 'unknown option "--bad\\u009b\\u202e" for filter'],
  ])('%j is one line of ours, exit 2', async (args, message) => {
    const run = await runCli(args, { input: '[]' });
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toBe(`qsfilter: ${message}; "qsfilter --help" lists the options\n`);
  });

  it('prints the help on stdout for --help, and the version for --version, -V and -v', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Exit status: 0 valid query, 1 invalid query, 2 usage or input error');
    // Every exit status the command has is listed (70 was not: issue 34, item 6).
    const statuses = help.stdout.slice(help.stdout.indexOf('Exit status:')).replaceAll('\n', ' ');
    expect(statuses).toContain(', 3 with --exit-status when no item was written, 70 a bug');
    for (const [name, code] of Object.entries(EXIT)) expect(statuses, name).toMatch(new RegExp(`[:,] ${code} `));
    for (const flag of ['--path <a.b>', '--ndjson', '--count', '--exit-status', '--pretty', '--compact', '--no-progress', '--case-insensitive', '--version', '--temp-dir <dir>', '--sort-memory <size>']) {
      expect(help.stdout).toContain(flag);
    }
    // Every option of filter is used in one of the examples, by its long or short name.
    const examples = help.stdout.slice(help.stdout.indexOf('Examples:'), help.stdout.indexOf('Exit status:'));
    for (const [name, option] of Object.entries(FILTER_OPTIONS)) {
      const short = 'short' in option ? ` -${option.short} ` : undefined;
      expect(examples.includes(` --${name}`) || (short !== undefined && examples.includes(short)), name).toBe(true);
    }
    expect((await runCli(['check', '--help'])).stdout).toBe(help.stdout);
    expect((await runCli(['filter', '-h'])).stdout).toBe(help.stdout);
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const args of [['--version'], ['-V'], ['-v'], ['filter', '-V']]) {
      expect(await runCli(args)).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
    }
  });
});

describe('colour', () => {
  const bad = ['check', 'totalAmount=x', '-r', 'invoices'];

  it('is off when stderr is not a terminal', async () => {
    expect((await runCli(bad)).stderr).not.toContain(ESC);
  });

  it('is forced by FORCE_COLOR, using the ANSI style of the diagnostics renderer', async () => {
    const run = await runCli(bad, { env: { FORCE_COLOR: '1' } });
    expect(run.stderr).toContain(`${ESC}1;31merror[INVALID_NUMBER]${ESC}0m`);
    expect(run.stderr).toContain(`${ESC}31m^${ESC}0m`);
  });

  it('is never on when NO_COLOR is set, FORCE_COLOR or not', async () => {
    expect((await runCli(bad, { env: { NO_COLOR: '1', FORCE_COLOR: '1' } })).stderr).not.toContain(ESC);
    expect((await runCli(bad, { env: { NO_COLOR: '1' } })).stderr).not.toContain(ESC);
  });

  it('treats an empty NO_COLOR as unset, and FORCE_COLOR=0 as off', async () => {
    expect((await runCli(bad, { env: { NO_COLOR: '', FORCE_COLOR: '1' } })).stderr).toContain(ESC);
    expect((await runCli(bad, { env: { FORCE_COLOR: '0' } })).stderr).not.toContain(ESC);
  });
});
