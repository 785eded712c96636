import { check, compile, defineSchema, nextCursor, pageItems, sortItems, sqlConstraints, sqlIndexes, toSql, type Filter, type SqlTarget } from '../../src/index';
import { prng } from './invoices';
import type { Engine } from './invoices-sql';

/**
 * Issue 32's checks at size: on well-typed invoices written every way the typed target's
 * canonical forms allow (a number in several JSON spellings of one double, a date in
 * several spellings of one instant, texts equal but for case, ids as strings and as
 * numbers, NULLs and missing values), the typed document target orders every sorted
 * filter exactly as `sortItems` does (`toSql`'s `ORDER BY`, the whole result), and a walk
 * through the pages by cursor on the typed and the relational target returns exactly the
 * items of `pageItems`' walk. Deterministic data (`prng`); each mismatch is reported.
 */

const schema = defineSchema({
  fields: {
    id: { type: 'string', sortable: true },
    status: { type: 'string', sortable: true },
    totalAmount: { type: 'number', sortable: true },
    postedDate: { type: 'date', sortable: true },
    customerRef: { type: 'ref', sortable: true },
  },
  paging: { defaultLimit: 100, maxLimit: 500, cursor: { key: 'id' } },
});

const relational: SqlTarget = { table: 'awkward', columns: { id: 'id', status: 'status', totalAmount: 'total_amount', postedDate: 'posted_date', 'customerRef.id': 'customer_id' } };
const typed: SqlTarget = { document: 'doc', table: 'awkward', typed: true };

/** One double, written every way: JSON spellings that `JSON.parse` reads as it. */
const AMOUNTS: readonly (readonly [number, ...string[]])[] = [
  [0.1, '0.1', '0.10000000000000000001', '1e-1', '0.100'],
  [100, '100', '100.0', '1e2', '100.00000000000000000001'],
  [199.99, '199.99', '199.990'],
  [9007199254740992, '9007199254740992', '9007199254740993'],
  [1e21, '1e21', '1000000000000000000000'],
  [0, '0', '-0', '0.0', '1e-400'],
  [-5, '-5', '-5.0', '-5e0'],
  [1500.5, '1500.5', '1.5005e3'],
];
const STATUSES = ['paid', 'PAID', 'Paid', 'open', 'OPEN', 'void', 'draft', 'Draft'];
const CUSTOMERS: readonly (string | number)[] = ['42', 42, '7', 7, 'c-1', 'C-1', '100', 100];

/** `n` invoices: their documents' text, and their relational columns. */
export function awkwardInvoices(n: number): { docs: string[]; rows: Record<string, unknown>[] } {
  const random = prng(32);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const docs: string[] = [];
  const rows: Record<string, unknown>[] = [];
  for (let i = 0; i < n; i++) {
    // Ids unique case-sensitively, many equal but for case: inv-1 and INV-1 are two items.
    const id = `${i % 3 === 0 ? 'INV' : 'inv'}-${Math.floor(i / 2)}${i % 2 === 0 ? '' : 'b'}`;
    const fields: string[] = [`"id":${JSON.stringify(id)}`];
    const row: Record<string, unknown> = { id, status: null, total_amount: null, posted_date: null, customer_id: null };
    const missing = () => random() < 0.08;
    const nulled = () => random() < 0.04;
    if (!missing()) {
      const status = nulled() ? null : pick(STATUSES);
      fields.push(`"status":${JSON.stringify(status)}`);
      row.status = status;
    }
    if (!missing()) {
      const [value, ...spellings] = pick(AMOUNTS);
      const spelled = nulled() ? 'null' : pick(spellings);
      fields.push(`"totalAmount":${spelled}`);
      row.total_amount = spelled === 'null' ? null : value;
    }
    if (!missing()) {
      // An instant of a few days, at whole seconds and milliseconds, in every canonical spelling.
      const ms = Date.UTC(2023, 0, 1 + Math.floor(random() * 5)) + pick([0, 0, 36_000_000, 36_000_500, 86_399_999]);
      const iso = new Date(ms).toISOString();
      const text = pick([iso.slice(0, 19) + (ms % 1000 === 0 ? '' : iso.slice(19, 23)), iso.slice(0, 23), `${iso.slice(0, 23)}${Math.floor(random() * 10)}71`, ...(ms % 86_400_000 === 0 ? [iso.slice(0, 10)] : [])]);
      fields.push(`"postedDate":${nulled() ? 'null' : JSON.stringify(text)}`);
      row.posted_date = fields.at(-1)!.endsWith('null') ? null : iso;
    }
    if (!missing()) {
      const customer = pick(CUSTOMERS);
      fields.push(`"customerRef":{"id":${JSON.stringify(customer)}}`);
      row.customer_id = String(customer);
    }
    docs.push(`{${fields.join(',')}}`);
    rows.push(row);
  }
  return { docs, rows };
}

/** The sorted filters: every sort of one or two keys, either way, without and with a filter, case folded and not. */
function sortedFilters(): { query: Record<string, string>; caseInsensitive: boolean }[] {
  const keys = ['status', 'totalAmount', 'postedDate', 'customerRef.id', 'id'];
  const directed = keys.flatMap((k) => [k, `-${k}`]);
  const sorts = [...directed, ...directed.flatMap((a) => directed.filter((b) => b.replace('-', '') !== a.replace('-', '')).map((b) => `${a},${b}`))];
  const filters: Record<string, string>[] = [{}, { totalAmount: 'gte:100' }, { status: 'paid' }];
  return sorts.flatMap((orderBy, i) => [false, true].map((caseInsensitive) => ({ query: { ...filters[i % filters.length]!, orderBy, limit: '500' }, caseInsensitive })));
}

function checked(query: Record<string, string>, caseInsensitive: boolean): Filter {
  const result = check(query, schema, { caseInsensitive });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}

/**
 * Loads `n` awkward invoices into `awkward` (both layouts, under `sqlConstraints`, with
 * `sqlIndexes`' indexes), then checks the typed order and the walks. Returns the lines of
 * its report.
 */
export async function checkOrder(engine: Engine, n: number, folding: 'pg_c_utf8' | 'icu'): Promise<string[]> {
  const { docs, rows } = awkwardInvoices(n);
  await engine.exec(`DROP TABLE IF EXISTS awkward; CREATE TABLE awkward (n int PRIMARY KEY, id text, status text, total_amount float8, posted_date timestamptz, customer_id text, doc jsonb)`);
  for (const statement of [...sqlConstraints(schema, relational), ...sqlConstraints(schema, typed), ...sqlIndexes(schema, relational), ...sqlIndexes(schema, typed)]) await engine.exec(statement);
  await engine.query(
    `INSERT INTO awkward SELECT (r->>'n')::int, r->>'id', r->>'status', (r->>'total_amount')::float8, (r->>'posted_date')::timestamptz, r->>'customer_id', (r->>'doc')::jsonb FROM jsonb_array_elements($1::jsonb) AS r`,
    [JSON.stringify(rows.map((row, i) => ({ ...row, n: i + 1, doc: docs[i] })))],
  );
  await engine.exec('ANALYZE awkward');
  const items = docs.map((doc) => JSON.parse(doc) as { id: string });
  const lines: string[] = [];

  // The typed target's order against sortItems', every sorted filter, the whole result.
  const cases = sortedFilters();
  let differ = 0;
  for (const { query, caseInsensitive } of cases) {
    const filter = checked({ ...query, limit: '1' }, caseInsensitive);
    const { text, values, orderBy } = toSql(filter, typed, { caseFolding: folding });
    const sql = (await engine.query(`SELECT doc->>'id' AS id FROM awkward WHERE ${text} ${orderBy}`, values)).map((row) => row.id as string);
    const expected = sortItems(items.filter(compile(filter)), filter).map((item) => item.id);
    if (sql.join() !== expected.join()) {
      differ++;
      if (differ <= 3) lines.push(`- differs: ${JSON.stringify(query)} caseInsensitive ${caseInsensitive}`);
    }
  }
  lines.unshift(`- typed order against \`sortItems\`: ${cases.length - differ} of ${cases.length} sorted filters the same (${n.toLocaleString('en')} invoices, every row of each)`);

  // Walks by cursor, 500 a page, against pageItems' walk.
  // Every eleventh: both directions, case folded and not.
  const walks = cases.filter((_, i) => i % 11 === 0);
  for (const [name, target] of [['typed document', typed], ['relational', relational]] as const) {
    let same = 0;
    let rowsWalked = 0;
    for (const { query, caseInsensitive } of walks) {
      const walk = async (page: (filter: Filter) => Promise<unknown[]>): Promise<string[]> => {
        let filter = checked(query, caseInsensitive);
        const seen: string[] = [];
        for (let pages = 0; pages <= n; pages++) {
          const got = await page(filter);
          seen.push(...got.map((item) => (item as { id: string }).id));
          if (got.length < filter.page!.limit) break;
          filter = checked({ ...query, after: nextCursor(filter, got.at(-1)) }, caseInsensitive);
        }
        return seen;
      };
      const matches = items.filter(compile(checked(query, caseInsensitive)));
      const memory = await walk(async (filter) => pageItems(matches, filter));
      const sql = await walk(async (filter) => {
        const { text, values, orderBy } = toSql(filter, target, { caseFolding: folding });
        const found = await engine.query(`SELECT doc FROM awkward WHERE ${text} ${orderBy} LIMIT ${filter.page!.limit}`, values);
        // Each row as the application hands it to nextCursor: the document, as the driver parses it.
        return found.map((row) => row.doc);
      });
      rowsWalked += sql.length;
      if (sql.join() === memory.join()) same++;
      else lines.push(`- ${name} walk differs: ${JSON.stringify(query)} caseInsensitive ${caseInsensitive}: ${sql.length} rows, pageItems ${memory.length}`);
    }
    lines.push(`- ${name}: ${same} of ${walks.length} walks by cursor equal to \`pageItems\`' walk (${rowsWalked.toLocaleString('en')} rows in pages of 500)`);
  }
  await engine.exec('DROP TABLE awkward');
  return lines;
}
