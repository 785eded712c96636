import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * Reference §15: the README's commands run under a Node that `engines` accepts. On an
 * older one, `.ci/node.sh` (sourced by every script that runs code) puts a newer Node
 * first on PATH and says so in one line. Tried here with stand-in `node` and `npm`
 * commands, so that nothing is fetched: the registry cannot be reached (the stand-in npm
 * fails), and a Node 24 is already in the cache.
 */

const root = fileURLToPath(new URL('../', import.meta.url));
let dir: string;

afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in `node` that answers as Node `version` would to the questions node.sh asks. */
function fakeNode(at: string, version: string): void {
  mkdirSync(at, { recursive: true });
  const major = version.split('.')[0];
  writeFileSync(join(at, 'node'), `#!/bin/sh\ncase "$1" in -p) echo ${major};; --version) echo v${version};; *) cat >/dev/null; echo;; esac\n`);
  chmodSync(join(at, 'node'), 0o755);
}

/** Sources node.sh in a shell whose own Node is `machine`, and reports which Node it then finds. */
function sourced(machine: string): { status: number | null; node: string; stderr: string } {
  dir = mkdtempSync(join(tmpdir(), 'qsfilter-node-sh-'));
  const bin = join(dir, 'machine');
  fakeNode(bin, machine);
  writeFileSync(join(bin, 'npm'), '#!/bin/sh\nexit 1\n');
  chmodSync(join(bin, 'npm'), 0o755);
  fakeNode(join(dir, 'cache', '24.99.0', 'node_modules', '.bin'), '24.99.0');
  const shell = spawnSync('sh', ['-c', '. ./.ci/node.sh && node --version'], {
    cwd: root,
    encoding: 'utf8',
    env: { PATH: `${bin}:/usr/bin:/bin`, HOME: dir, QSFILTER_NODE_CACHE: join(dir, 'cache') },
  });
  return { status: shell.status, node: shell.stdout.trim(), stderr: shell.stderr };
}

describe('.ci/node.sh', () => {
  it('runs the commands under a cached Node 24 where the machine has Node 20, and says so in one line', () => {
    const { status, node, stderr } = sourced('20.20.2');
    expect(status).toBe(0);
    expect(node).toBe('v24.99.0');
    expect(stderr.trim().split('\n')).toEqual([expect.stringContaining("this machine's Node (v20.20.2) is older than package.json's engines (>=22): running under Node v24.99.0")]);
  });

  it('leaves a supported Node alone, and says nothing', () => {
    const { status, node, stderr } = sourced('22.23.3');
    expect(status).toBe(0);
    expect(node).toBe('v22.23.3');
    expect(stderr).toBe('');
  });

  it('is what every script that runs code starts with', () => {
    const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    for (const name of ['start', 'test', 'test:unit', 'bench']) expect(scripts[name], name).toMatch(/^\. \.\/\.ci\/node\.sh && /);
    // CI runs the README's command, on each major in turn.
    expect(readFileSync(join(root, '.ci/run'), 'utf8')).toMatch(/npm test\n/);
  });
});
