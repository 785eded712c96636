/**
 * Scenario 4, cold start: whole Node processes, spawned again and again in interleaved
 * order, timed from spawn to exit. A server that imports qsfilter and checks its first
 * query, against `node -e 0`: what a CLI call, a serverless cold start or a test worker
 * pays. The difference is the price of loading the bundle (chevrotain included) and of
 * building the lexer and parser on first use.
 */
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { median, times } from './lib/format';
import { DIST_CJS, DIST_ESM } from './lib/qsfilter';
import { defineScenario, Mismatch } from './lib/scenario';

const QUERY = 'businessName=Acme&serviceName=quickbooks&customerRef.id=42&totalAmount=gte:100;lte:200';
const esm = JSON.stringify(pathToFileURL(DIST_ESM).href);
const cjs = JSON.stringify(DIST_CJS);
const CHECK = `if (!check(${JSON.stringify(QUERY)}, invoices).ok) process.exit(3);`;
// The first compile generates and compiles the filter's code: a server's first filtered request.
const COMPILE = `const r = check(${JSON.stringify(QUERY)}, invoices); if (!r.ok || !compile(r.value)({ customerRef: { id: 42 }, totalAmount: 150 })) process.exit(3);`;

const COMMANDS: readonly { label: string; args: string[] }[] = [
  { label: 'node -e 0', args: ['-e', '0'] },
  { label: 'ESM, nothing imported', args: ['--input-type=module', '-e', '0'] },
  { label: 'ESM import', args: ['--input-type=module', '-e', `import { check, invoices } from ${esm};`] },
  { label: 'ESM import + check one query', args: ['--input-type=module', '-e', `import { check, invoices } from ${esm}; ${CHECK}`] },
  { label: 'ESM import + check + compile + one item', args: ['--input-type=module', '-e', `import { check, compile, invoices } from ${esm}; ${COMPILE}`] },
  { label: 'CJS require', args: ['-e', `const { check, invoices } = require(${cjs});`] },
  { label: 'CJS require + check one query', args: ['-e', `const { check, invoices } = require(${cjs}); ${CHECK}`] },
];

function spawnMs(args: string[]): number {
  const t0 = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (result.status !== 0) throw new Mismatch(`node ${args.join(' ')} exited with ${result.status}: ${result.stderr.toString().slice(0, 500)}`);
  return ms;
}

export default defineScenario({
  name: 'coldstart',
  title: 'whole-process cold start',
  async run({ quick }) {
    const runs = quick ? 8 : 50;
    const samples = COMMANDS.map(() => [] as number[]);
    for (const c of COMMANDS) spawnMs(c.args); // file system caches
    for (let r = 0; r < runs; r++) {
      for (let k = 0; k < COMMANDS.length; k++) {
        const i = (r + k) % COMMANDS.length;
        samples[i]!.push(spawnMs(COMMANDS[i]!.args));
      }
    }
    const ms = samples.map(median);
    const base = ms[0]!;
    const ratio = (label: string): number => ms[COMMANDS.findIndex((c) => c.label === label)]! / base;
    const esmRatio = ratio('ESM import + check one query');
    const cjsRatio = ratio('CJS require + check one query');
    return {
      tables: [
        {
          title: `median wall time of ${runs} spawns each (interleaved), from spawn to exit`,
          columns: ['process', 'median', 'over node -e 0', 'vs node -e 0'],
          rows: COMMANDS.map((c, i) => [c.label, `${ms[i]!.toFixed(1)} ms`, i === 0 ? '' : `${ms[i]! - base >= 0 ? '+' : ''}${(ms[i]! - base).toFixed(1)} ms`, times(ms[i]! / base)]),
          notes: [`The query checked: ${QUERY} against the catalog's invoices. Imports load dist/index.js (ESM) or dist/index.cjs (CJS).`],
        },
      ],
      goals: [
        // Issue 31: at most 22 ms over `node -e 0`, with Chevrotain as published (issue 26's 15 ms was met with a patched build).
        { goal: 'cold start, ESM import + check', target: '≤ +22 ms over node -e 0', actual: `+${((esmRatio - 1) * base).toFixed(1)} ms (${times(esmRatio)})`, pass: (esmRatio - 1) * base <= 22 },
        { goal: 'cold start, CJS require + check', target: '≤ +22 ms over node -e 0', actual: `+${((cjsRatio - 1) * base).toFixed(1)} ms (${times(cjsRatio)})`, pass: (cjsRatio - 1) * base <= 22 },
      ],
    };
  },
});
