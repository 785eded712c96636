import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check, compile, defineSchema, nextCursor, sortItems, sqlIndexes, toSql, type Filter, type SqlTarget } from '../../src/index';
import { SERVERS, useDatabase, type Database } from '../support/databases';
import { explain, TEST_TIMEOUT } from './support/database';

/**
 * A walk through every page by cursor (reference §9) gives, on every server the SQL
 * suites use and on every target (relational, document, typed document), each matching
 * row once, in `sortItems`' order: `toSql`'s keyset predicate and full order, `LIMIT` of
 * the page, then the next request's `after` from `nextCursor` of the page's last item.
 * Random sorts (mixed directions, the cursor key among them or not), duplicates and
 * missing values in every key, random page sizes.
 */

const schema = defineSchema({
  fields: {
    id: { type: 'number', sortable: true },
    n: { type: 'number', sortable: true },
    d: { type: 'date', sortable: true },
    s: { type: 'string', sortable: true },
    r: { type: 'ref', sortable: true },
  },
  paging: { defaultLimit: 10, maxLimit: 50, cursor: { key: 'id' } },
});

interface Item {
  id: number;
  n?: number;
  d?: string;
  s?: string;
  r?: { id: string };
}

/** Few distinct values, so that every key has duplicates; each value sometimes missing. Dates in the typed target's canonical form, read as UTC. */
const items: fc.Arbitrary<Item[]> = fc.uniqueArray(fc.integer({ min: 1, max: 1000 }), { maxLength: 30 }).chain((ids) =>
  fc.tuple(
    ...ids.map((id) =>
      fc.record(
        {
          id: fc.constant(id),
          n: fc.constantFrom(-1.5, 0, 2, 2, 1e21, 0.1),
          d: fc.constantFrom('2023-01-01', '2023-01-01T10:00:00', '2023-01-01T10:00:00.5', '2022-12-31T23:59:59.999', '0001-01-01'),
          s: fc.constantFrom('a', 'B', 'b', 'é', '', '😀', '\uffff'),
          r: fc.record({ id: fc.constantFrom('1', '10', '2', 'x') }),
        },
        { requiredKeys: ['id'] },
      ),
    ),
  ),
);

const orderBys = fc
  .uniqueArray(fc.constantFrom('n', 'd', 's', 'r.id', 'id'), { maxLength: 3 })
  .chain((keys) => fc.tuple(...keys.map((key) => fc.constantFrom(key, `-${key}`))))
  .map((keys) => keys.join(','));

const TARGETS: readonly (readonly [string, SqlTarget])[] = [
  ['relational', { table: 'cursor_items', columns: { id: 'id', n: 'n', d: 'd', s: 's', 'r.id': 'r' } }],
  ['document', { document: 'doc', table: 'cursor_items' }],
  ['typed document', { document: 'doc', table: 'cursor_items', typed: true }],
];

function checked(query: Record<string, string>): Filter {
  const result = check(query, schema);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}

describe('sqlIndexes with cursor paging', () => {
  it('indexes each sort key (its NULL flag, then the key) followed by the cursor key, both directions, and the cursor key alone', () => {
    const statements = sqlIndexes(schema, TARGETS[0]![1]);
    const id = 'CASE WHEN "id" BETWEEN -1.7976931348623157e308 AND 1.7976931348623157e308 THEN "id"::float8 END';
    expect(statements).toContain(`CREATE INDEX IF NOT EXISTS "cursor_items_id_sort_qsf" ON "cursor_items" ((${id} IS NULL) ASC, (${id}) ASC NULLS LAST)`);
    expect(statements).toContain(`CREATE INDEX IF NOT EXISTS "cursor_items_s_cursor_qsf" ON "cursor_items" ((("s") COLLATE "C" IS NULL) ASC, (("s") COLLATE "C") ASC NULLS LAST, (${id}))`);
    expect(statements).toContain(`CREATE INDEX IF NOT EXISTS "cursor_items_s_cursor_desc_qsf" ON "cursor_items" ((("s") COLLATE "C" IS NOT NULL) DESC, (("s") COLLATE "C") DESC NULLS LAST, (${id}))`);
    expect(sqlIndexes(schema, TARGETS[2]![1]).filter((statement) => statement.includes('_cursor'))).toHaveLength(8);
  });
});

describe.each(SERVERS)('a walk through every page by cursor on $label', (server) => {
  let db: Database;
  useDatabase(server, { jit: false }, async (opened) => {
    db = opened;
    await db.exec('CREATE TABLE cursor_items (id int PRIMARY KEY, n float8, d timestamptz, s text, r text, doc jsonb)');
    // The walks run with sqlIndexes' indexes in place, and its statements run twice.
    for (const [, target] of [TARGETS[0]!, TARGETS[2]!]) for (const statement of [...sqlIndexes(schema, target), ...sqlIndexes(schema, target)]) await db.exec(statement);
  });

  // Issue 24: a page after a cursor was a scan of every row before it (an index walked
  // from its start, the rows before the cursor filtered out one by one).
  it('starts a deep page at the cursor in an index, both directions, relational and typed document', async () => {
    await db.exec('TRUNCATE cursor_items');
    await db.exec(`INSERT INTO cursor_items
      SELECT i, n, d, s, r, jsonb_build_object('id', i, 'n', n, 'd', to_char(d AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'), 's', s, 'r', jsonb_build_object('id', r))
        FROM generate_series(1, 20000) AS i,
          LATERAL (SELECT (i % 997) / 10.0 AS n, timestamptz '2023-01-01T00:00:00Z' + (i % 991) * interval '1 hour' AS d, 's' || (i % 983) AS s, (i % 7)::text AS r) AS v`);
    await db.exec('ANALYZE cursor_items');
    const item = { id: 12345, n: 12.3, d: '2023-01-20T10:00:00', s: 's456', r: { id: '3' } };
    for (const [name, target] of [TARGETS[0]!, TARGETS[2]!]) {
      // '': no orderBy, the sort is the cursor key alone (an integer column in the relational layout).
      for (const orderBy of ['', 'n', '-n', 'd', '-d', 's', '-s']) {
        const query = { ...(orderBy === '' ? {} : { orderBy }), limit: '20' };
        const { text, values, orderBy: order } = toSql(checked({ ...query, after: nextCursor(checked(query), item) }), target);
        const plan = await explain(db, `SELECT id FROM cursor_items WHERE ${text} ${order} LIMIT 20`, values);
        expect(plan, `${name} ${orderBy}\n${plan}`).toMatch(/Index Cond: \(ROW\(/);
        expect(plan, `${name} ${orderBy}\n${plan}`).not.toMatch(/\bSort\b/);
      }
    }
  }, TEST_TIMEOUT);

  it.each(TARGETS)('yields each matching row once, in sortItems order: %s', async (_name, target) => {
    await fc.assert(
      fc.asyncProperty(items, orderBys, fc.integer({ min: 1, max: 7 }), fc.boolean(), async (data, orderBy, limit, filtered) => {
        await db.exec('TRUNCATE cursor_items');
        await db.query(
          `INSERT INTO cursor_items SELECT id, n, (d || 'Z')::timestamptz, s, r->>'id', to_jsonb(e) FROM jsonb_to_recordset($1::jsonb) AS e(id int, n float8, d text, s text, r jsonb)`,
          [JSON.stringify(data)],
        );
        const query = { ...(filtered ? { n: 'gte:0' } : {}), ...(orderBy === '' ? {} : { orderBy }), limit: String(limit) };
        const first = checked(query);
        const byId = new Map(data.map((item) => [item.id, item]));
        const seen: number[] = [];
        let filter = first;
        for (let pages = 0; pages <= data.length; pages++) {
          const { text, values, orderBy: order } = toSql(filter, target);
          const { rows } = await db.query<{ id: number }>(`SELECT id FROM cursor_items WHERE ${text} ${order} LIMIT ${limit}`, values);
          seen.push(...rows.map((row) => row.id));
          if (rows.length < limit) break;
          filter = checked({ ...query, after: nextCursor(filter, byId.get(rows.at(-1)!.id)) });
        }
        const expected = sortItems(data.filter(compile(first)), first).map((item) => item.id);
        expect(seen, `${JSON.stringify(query)}\n${JSON.stringify(data)}`).toEqual(expected);
      }),
      { numRuns: 40 },
    );
  }, TEST_TIMEOUT);
});
