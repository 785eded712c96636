import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { check } from '../../src/check/check';
import { headSize, readHead, writeHead, type RunRecord } from '../../src/cli/sort/runs';
import { SortedMatches, type SortSettings } from '../../src/cli/sort/sorted';
import { TempDir } from '../../src/cli/sort/temp';
import { itemOrder, sortItems } from '../../src/eval/sort';
import { catalog } from '../../src/schema/catalog';

const parent = mkdtempSync(join(tmpdir(), 'qsfilter-sorted-test-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

function filterOf(query: string) {
  const result = check(query, catalog.invoices);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}

interface Sorted {
  readonly texts: string[];
  /** The most runs merged at once, and the most passes, as the progress callback saw them. */
  readonly runs: number;
  readonly passes: number;
}

/** The texts SortedMatches writes for the items (as JSON.stringify writes them), with a small memory so that it spills. */
async function sorted(items: readonly unknown[], query: string, page: { offset: number; limit: number }, settings: Partial<SortSettings> & { caseInsensitive?: boolean } = {}): Promise<Sorted> {
  const filter = filterOf(query);
  let runs = 0;
  let passes = 0;
  const sort = new SortedMatches(page, itemOrder(filter.sort, settings.caseInsensitive ?? false), {
    memory: 2048,
    temp: new TempDir(parent),
    ...settings,
    onMerge: (_done, _total, count, _pass, all) => {
      runs = Math.max(runs, count);
      passes = Math.max(passes, all);
    },
  });
  const texts: string[] = [];
  try {
    items.forEach((item, i) => sort.add(item, JSON.stringify(item), { item: i + 1, line: i + 1 }));
    await sort.finish({ add: (json) => texts.push(json), blocked: false, drained: async () => {} });
  } finally {
    sort.close();
  }
  return { texts, runs, passes };
}

function expected(items: readonly unknown[], query: string, page: { offset: number; limit: number }, caseInsensitive = false): string[] {
  return sortItems(items, filterOf(query), { caseInsensitive }).slice(page.offset, page.offset + page.limit).map((item) => JSON.stringify(item));
}

// Few distinct keys, so that ties are everywhere; some keys missing or mistyped; text that
// is not ASCII (several bytes a character in UTF-8) and of every length, so that the memory
// fills at odd places.
const invoice = fc.record({
  id: fc.integer({ min: 0, max: 1e6 }).map(String),
  totalAmount: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constant('12.50'), fc.constant(null), fc.constant('x')),
  dueDate: fc.oneof(fc.constantFrom('2023-01-01', '2023-01-02', '2022-12-31'), fc.constant(undefined)),
  invoiceNumber: fc.oneof(fc.constantFrom('acme', 'Acme', 'ACME', 'Café', 'ｚ', '\u{1f600}'), fc.string({ maxLength: 300, unit: 'binary' })),
}, { requiredKeys: ['id'] });

describe('SortedMatches: the sort spilled to disk', () => {
  it.each([
    'orderBy=-totalAmount',
    'orderBy=dueDate,-totalAmount',
    'orderBy=invoiceNumber,id',
  ])('%s: writes exactly sortItems(all matches) sliced to the page, ties in input order, however small the memory', async (query) => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(invoice, { maxLength: 400 }),
        fc.oneof(fc.constant({ offset: 0, limit: Infinity }), fc.record({ offset: fc.nat(300), limit: fc.integer({ min: 1, max: 200 }) })),
        fc.integer({ min: 1024, max: 16_384 }),
        fc.integer({ min: 2, max: 5 }),
        fc.boolean(),
        async (items, page, memory, fanIn, caseInsensitive) => {
          const result = await sorted(items, query, page, { memory, fanIn, caseInsensitive });
          expect(result.texts).toEqual(expected(items, query, page, caseInsensitive));
        },
      ),
      { numRuns: 30 },
    );
    expect(readdirSync(parent)).toEqual([]);
  });

  it('spills runs and merges them in more than one pass when there are more than it merges at once', async () => {
    const items = Array.from({ length: 3000 }, (_, i) => ({ id: String(i), totalAmount: (i * 7919) % 101, invoiceNumber: 'é'.repeat(i % 50) }));
    const all = { offset: 0, limit: Infinity };
    const result = await sorted(items, 'orderBy=-totalAmount', all, { memory: 4096, fanIn: 3 });
    expect(result.texts).toEqual(expected(items, 'orderBy=-totalAmount', all));
    expect(result.runs).toBe(3);
    expect(result.passes).toBeGreaterThan(10);
    // With the default fan-in, what a small memory has buffers for: 2.
    expect((await sorted(items, 'orderBy=-totalAmount', all, { memory: 4096 })).texts).toEqual(result.texts);
    // Enough memory: no run at all, and no merge to show.
    expect(await sorted(items, 'orderBy=-totalAmount', all, { memory: 4 * 1024 * 1024 })).toEqual({ texts: result.texts, runs: 0, passes: 0 });
  });

  it('holds the page, not the input: a small page in a small memory never writes a run', async () => {
    const items = Array.from({ length: 20_000 }, (_, i) => ({ id: String(i), totalAmount: i % 1000 }));
    const page = { offset: 2, limit: 3 };
    const result = await sorted(items, 'orderBy=-totalAmount', page, { memory: 2048 });
    expect(result).toEqual({ texts: expected(items, 'orderBy=-totalAmount', page), runs: 0, passes: 0 });
    expect(result.texts.map((text) => (JSON.parse(text) as { id: string }).id)).toEqual(['2999', '3999', '4999']);
  });

  it('writes a match larger than its memory as a run of its own', async () => {
    const items = [{ id: 'a', totalAmount: 2, memo: 'x'.repeat(5000) }, { id: 'b', totalAmount: 1 }, { id: 'c', totalAmount: 3, memo: 'y'.repeat(9000) }];
    const all = { offset: 0, limit: Infinity };
    expect((await sorted(items, 'orderBy=totalAmount', all, { memory: 1024 })).texts).toEqual(expected(items, 'orderBy=totalAmount', all));
  });

  it('removes its temporary files when closed before the end (an input error)', () => {
    const temp = new TempDir(parent);
    const sort = new SortedMatches({ offset: 0, limit: Infinity }, itemOrder(filterOf('orderBy=id').sort, false), { memory: 1024, temp });
    for (let i = 0; i < 200; i++) sort.add({ id: String(i) }, JSON.stringify({ id: String(i), pad: 'p'.repeat(100) }), { item: i + 1, line: 1 });
    expect(readdirSync(parent)).toHaveLength(1);
    expect(readdirSync(join(parent, readdirSync(parent)[0]!)).length).toBeGreaterThan(10);
    sort.close();
    expect(readdirSync(parent)).toEqual([]);
  });
});

describe('a run record\'s head', () => {
  it('reads back the keys and the number it was written with', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.double({ noNaN: true }), fc.string({ unit: 'binary' }), fc.constant(undefined))), fc.nat(), (keys, index) => {
        const buffer = Buffer.alloc(headSize(keys) + 2);
        writeHead(keys, index, buffer, 1);
        const record: RunRecord = { keys: ['left over', 1, 2, 3], index: -1, buffer, start: 0, end: 0 };
        readHead(buffer, 1, 1 + headSize(keys), record);
        expect(record).toMatchObject({ keys, index });
      }),
    );
  });
});
