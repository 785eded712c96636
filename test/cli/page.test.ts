import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check } from '../../src/check/check';
import { SortedPage } from '../../src/cli/stream/page';
import { InputError } from '../../src/cli/usage';
import { sortItems } from '../../src/eval/sort';
import { catalog } from '../../src/schema/catalog';

function filterOf(query: string) {
  const result = check(query, catalog.invoices);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}

/** The page SortedPage writes, fed the items one by one. */
function streamed(items: readonly unknown[], query: string, offset: number, limit: number, caseInsensitive = false): unknown[] {
  const page = new SortedPage({ offset, limit }, filterOf(query), { caseInsensitive });
  items.forEach((item, i) => page.add(item, { item: i + 1, line: i + 1 }, JSON.stringify(item).length));
  return [...page.finish()].map(([item]) => item);
}

describe('SortedPage', () => {
  // Few distinct keys, so that ties are everywhere; some keys missing or mistyped; more
  // items than the buffer holds (the page plus at least 1024), so that it is cut back often.
  const invoice = fc.record({
    id: fc.integer({ min: 0, max: 1e6 }).map(String),
    totalAmount: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constant('12.50'), fc.constant(null), fc.constant('x')),
    dueDate: fc.oneof(fc.constantFrom('2023-01-01', '2023-01-02', '2022-12-31'), fc.constant(undefined)),
  }, { requiredKeys: ['id'] });

  it.each([
    'orderBy=-totalAmount',
    'orderBy=dueDate,-totalAmount',
    'orderBy=id',
  ])('%s: the page equals sortItems(all matches) sliced, ties in input order', (query) => {
    fc.assert(
      fc.property(fc.array(invoice, { minLength: 0, maxLength: 4000 }), fc.nat(1500), fc.integer({ min: 1, max: 600 }), (items, offset, limit) => {
        const expected = sortItems(items, filterOf(query)).slice(offset, offset + limit);
        expect(streamed(items, query, offset, limit)).toEqual(expected);
      }),
      { numRuns: 25 },
    );
  });

  it('keeps every match without a limit, and refuses past the cap on what it holds', () => {
    const items = Array.from({ length: 3000 }, (_, i) => ({ id: String(i), totalAmount: i % 7 }));
    expect(streamed(items, 'orderBy=totalAmount', 0, Infinity)).toEqual(sortItems(items, filterOf('orderBy=totalAmount')));
    const page = new SortedPage({ offset: 0, limit: Infinity }, filterOf('orderBy=totalAmount'), {}, 1000);
    expect(() => items.forEach((item, i) => page.add(item, { item: i + 1, line: i + 1 }, 40))).toThrow(InputError);
    const capped = new SortedPage({ offset: 0, limit: Infinity }, filterOf('orderBy=totalAmount'), {}, 1000);
    let message = '';
    try {
      items.forEach((item, i) => capped.add(item, { item: i + 1, line: i + 2 }, 40));
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe('the matches kept for orderBy pass 1000 characters of JSON at item 26 (line 27): give limit (and offset) to keep only a page of them');
  });

  it('holds the page, not the input: a small page keeps within the cap however many items pass', () => {
    const page = new SortedPage({ offset: 0, limit: 5 }, filterOf('orderBy=-totalAmount'), {}, 5000 * 40);
    for (let i = 0; i < 100_000; i++) page.add({ id: String(i), totalAmount: i % 1000 }, { item: i + 1, line: i + 1 }, 40);
    expect([...page.finish()].map(([item]) => (item as { id: string }).id)).toEqual(['999', '1999', '2999', '3999', '4999']);
  });
});
