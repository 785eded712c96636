import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../vitest.config';

// Issue 31, item 7: no test's time limit decides whether it passes. On a loaded machine a
// test is slower, not wrong; speed is measured in bench/, never asserted.

const TEST = import.meta.dirname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : /\.ts$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

/**
 * A time limit given to one test or hook: a number or a `…TIMEOUT…` constant as the last
 * argument of a call whose function closes on the line (`}, 60_000);`), or a `timeout`
 * option (`{ timeout: 5000 }`).
 */
const LIMIT = /^\s*\}, *(?:[0-9][0-9_]*|[A-Z_]*TIMEOUT[A-Z_]*)\);\s*$|[{,]\s*timeout\s*:/m;

describe('no time limit decides a pass', () => {
  it('is the configuration: no limit on a test or a hook', () => {
    expect(config.test?.testTimeout).toBe(0);
    expect(config.test?.hookTimeout).toBe(0);
  });

  it('is every test file: none gives a test or a hook a limit of its own', () => {
    const limited = sources(TEST)
      .filter((file) => file !== import.meta.filename && LIMIT.test(readFileSync(file, 'utf8')))
      .map((file) => relative(TEST, file));
    expect(limited).toEqual([]);
  });

  it('would see one (a sanity check of the pattern)', () => {
    expect(LIMIT.test("it('x', async () => {\n  await work();\n}, 60_000);")).toBe(true);
    expect(LIMIT.test('beforeAll(open, { timeout: 5000 });')).toBe(true);
    expect(LIMIT.test("it('x', () => {\n  expect(1).toBe(1);\n});")).toBe(false);
  });
});
