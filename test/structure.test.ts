import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layout of `src/` (STYLE.md, "The next redesign"): a query flows down the floors,
 * and no import runs back up one. Each floor is a folder (the public entry, `index.ts`,
 * is a floor of its own, which the server adapters import); folders on one floor import
 * nothing of each other (`eval/` and `sql/` are two back ends, side by side). A folder
 * that is not listed fails the test: a new one takes its place here, above what it uses.
 */
const FLOORS: readonly (readonly string[])[] = [
  ['text', 'values'], // user text quoted for messages; numbers, dates and case, read and written
  ['arguments'], // the TypeErrors of wrong arguments (programmer errors, not diagnostics)
  ['diagnostics'], // codes, the Diagnostic, rendering, problem+json
  ['input'], // raw forms → decoded (key, value) pairs, limits
  ['syntax'], // tokens, the grammar, the AST, which key is what, explaining a failed parse
  ['spec'], // a schema spec checked and indexed: the Schema, its Fields, parameters and paging; the schema guard
  ['filter'], // the hand-off: Filter types, intervals, format, the Condition builder, its guards
  ['check'], // AST + schema → Filter
  ['standard'], // the Standard Schema face of a schema (loading check lazily)
  ['schema'], // schemas as users make them: defineSchema, the catalog, JSON Schema in, OpenAPI out
  ['eval', 'sql'], // the back ends
  ['client', 'server'], // the query builder; the request check of every server adapter
  ['index.ts'], // the public entry
  ['integrations'], // the server adapters, over the public entry alone
  ['cli'], // the command
];

const SRC = join(import.meta.dirname, '../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** Every relative import of a file of `src/` (static, re-export or dynamic), as a path in `src/` without extension. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|\s)(?:import|export)\s(?:[^'";]*?\sfrom\s)?'(\.[^']+)'|\bimport\(\s*'(\.[^']+)'\s*\)/g)) {
    const target = relative(SRC, normalize(join(dirname(file), (match[1] ?? match[2])!))).replace(/\.(?:js|ts)$/, '');
    if (!target.startsWith('..')) found.push(target);
  }
  return found;
}

/** The folder of a path in `src/` (`check/validate` → `check`), or `index.ts` for the entry. */
function folderOf(path: string): string {
  return path.includes('/') ? path.slice(0, path.indexOf('/')) : `${path.replace(/\.ts$/, '')}.ts`;
}

const FILES = sources(SRC).map((file) => ({ path: relative(SRC, file).replace(/\.ts$/, ''), file }));
const IMPORTS = FILES.flatMap(({ path, file }) => importsOf(file).map((target) => ({ from: path, to: target })));
const CROSSING = IMPORTS.filter(({ from, to }) => folderOf(from) !== folderOf(to));

function floorOf(folder: string): number {
  const floor = FLOORS.findIndex((names) => names.includes(folder));
  if (floor === -1) throw new Error(`src/${folder} has no floor in test/structure.test.ts: give it one, above what it imports`);
  return floor;
}

/** The imports from `from` folders into `to` folders, as `file → file`. */
function between(from: readonly string[], to: readonly string[]): string[] {
  return CROSSING.filter((i) => from.includes(folderOf(i.from)) && to.includes(folderOf(i.to))).map((i) => `${i.from} → ${i.to}`);
}

describe('the layout of src/', () => {
  it('reads the imports (a sanity check of the reading)', () => {
    expect(IMPORTS).toContainEqual({ from: 'check/validate', to: 'spec/spec' });
    expect(IMPORTS).toContainEqual({ from: 'standard/standard', to: 'check/check' });
    expect(IMPORTS).toContainEqual({ from: 'schema/define', to: 'standard/standard' });
  });

  it('has a floor for every folder', () => {
    for (const { path } of FILES) floorOf(folderOf(path));
  });

  it('runs no import back up a floor, nor across one', () => {
    const upward = CROSSING.filter(({ from, to }) => floorOf(folderOf(to)) >= floorOf(folderOf(from))).map((i) => `${i.from} → ${i.to}`);
    expect(upward).toEqual([]);
  });

  it('keeps the back ends and the client on the Filter: eval/, sql/ and client/ import nothing from check/', () => {
    expect(between(['eval', 'sql', 'client'], ['check'])).toEqual([]);
  });

  it('keeps the back ends off the grammar: eval/ and sql/ import nothing from syntax/ (names are values/name.ts)', () => {
    expect(between(['eval', 'sql'], ['syntax'])).toEqual([]);
  });

  it('keeps the adapters on the public entry: integrations/ imports index.ts alone, as a framework\'s user would', () => {
    const inside = FLOORS.flat().filter((folder) => folder !== 'index.ts' && folder !== 'integrations');
    expect(between(['integrations'], inside)).toEqual([]);
    expect(between(['integrations'], ['index.ts']).length).toBeGreaterThan(0);
  });

  it('keeps the back ends apart: sql/ imports nothing from eval/, nor eval/ from sql/', () => {
    expect(between(['sql'], ['eval'])).toEqual([]);
    expect(between(['eval'], ['sql'])).toEqual([]);
  });

  it('keeps the Schema below checking: spec/ imports nothing from check/, standard/ or schema/', () => {
    expect(between(['spec'], ['check', 'standard', 'schema'])).toEqual([]);
  });

  it('has no import cycle, between folders or between files', () => {
    const edges = new Map<string, Set<string>>();
    for (const { from, to } of IMPORTS) {
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(to);
    }
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (node: string, trail: string[]): void => {
      if (state.get(node) === 'done') return;
      if (state.get(node) === 'open') {
        cycles.push([...trail.slice(trail.indexOf(node)), node].join(' → '));
        return;
      }
      state.set(node, 'open');
      for (const next of edges.get(node) ?? []) visit(next, [...trail, node]);
      state.set(node, 'done');
    };
    for (const { path } of FILES) visit(path, []);
    expect(cycles).toEqual([]);
  });

  it('has no file over 450 lines', () => {
    const long = FILES.map(({ path, file }) => ({ path, lines: readFileSync(file, 'utf8').split('\n').length })).filter(({ lines }) => lines > 450);
    expect(long).toEqual([]);
  });
});
