/**
 * What the smoke suite runs on every runtime and in every browser: a schema with paging
 * by cursor, a few items, and `selfCheck()`, what the package computes there (a check,
 * its refusals, the filter compiled and run, `toSql`, paging by cursor, the client
 * builder), as JSON. It imports the package by its name: from the packed tarball's
 * install on a runtime (`runtimes.ts`), from its files in a browser (`browsers.test.ts`).
 */
import { check, compile, defineSchema, format, nextCursor, pageItems, toSql, type Filter } from 'qsfilter';
import { query } from 'qsfilter/client';

export const accounts = defineSchema({
  fields: { id: { type: 'string', sortable: true }, vendorName: 'string', balance: { type: 'number', sortable: true }, openedDate: 'date' },
  paging: { defaultLimit: 2, maxLimit: 10, cursor: { key: 'id' } },
});

export const ACCOUNTS = [
  { id: 'a1', vendorName: 'Acme & Sons', balance: 120, openedDate: '2023-01-09' },
  { id: 'a2', vendorName: 'ACME Logistics', balance: 80, openedDate: '2023-02-01' },
  { id: 'a3', vendorName: 'Contoso', balance: 300, openedDate: '2022-12-31' },
  { id: 'a4', vendorName: 'acme fees', balance: 120, openedDate: '2024-06-30' },
  { id: 'a5', vendorName: 'Northwind', balance: 950 },
];

/** The items a filter selects, sorted and paged as it says, with the cursor of the next page. */
export function answer(filter: Filter): { data: typeof ACCOUNTS; next: string | null } {
  const page = pageItems(ACCOUNTS.filter(compile(filter)), filter);
  const last = page.at(-1);
  return { data: page, next: last === undefined || page.length < filter.page!.limit ? null : nextCursor(filter, last) };
}

/** Whether this runtime lets code be built from a string: `allowed`, or the name of what it threw. */
function codeGeneration(): string {
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the probe itself
    new Function('return 1');
    return 'allowed';
  } catch (error) {
    return error instanceof Error ? error.name : typeof error;
  }
}

/** What the package computes here, as JSON: the same on every runtime but for `codeGeneration`. */
export function selfCheck(): Record<string, unknown> {
  const good = check('vendorName=%25acme%25&balance=gte:100&orderBy=-balance', accounts, { caseInsensitive: true });
  if (!good.ok) throw new Error(`refused: ${JSON.stringify(good.errors)}`);
  const bad = check('balance=GTE:100&vendorNme=x&vendorName=%fee%', accounts);
  // Every page of a query by cursor, each one's cursor read back by `check`.
  const pages: string[][] = [];
  for (let after = ''; pages.length < 5; ) {
    const checked = check(`orderBy=-balance&limit=2${after}`, accounts);
    if (!checked.ok) throw new Error(`refused: ${JSON.stringify(checked.errors)}`);
    const { data, next } = answer(checked.value);
    pages.push(data.map((item) => item.id));
    if (next === null) break;
    after = `&after=${next}`;
  }
  return {
    codeGeneration: codeGeneration(),
    canonical: format(good.value),
    matched: ACCOUNTS.filter(compile(good.value)).map((item) => item.id),
    matchedByClosures: ACCOUNTS.filter(compile(good.value, { codegen: false })).map((item) => item.id),
    refused: bad.ok ? [] : bad.errors.map((d) => `${d.code} ${d.param ?? ''}`),
    sql: toSql(good.value, { table: 'accounts', document: 'doc' }),
    pages,
    built: query(accounts).where('balance', 'gte', 100).where('vendorName', 'contains', '50% off').orderBy('balance', 'desc').toString(),
    dates: ACCOUNTS.filter(compile(checkOrThrow('openedDate=gte:2023-01-01T00:00:00%2B01:00'))).map((item) => item.id),
  };
}

function checkOrThrow(text: string): Filter {
  const checked = check(text, accounts);
  if (!checked.ok) throw new Error(`refused: ${JSON.stringify(checked.errors)}`);
  return checked.value;
}
