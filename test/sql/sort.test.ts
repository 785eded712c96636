import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check, defineSchema, sortItems, toSql, type CaseFolding, type Filter, type SqlTarget } from '../../src/index';
import { SERVERS, useDatabase, type Database } from '../support/databases';
import { documents, typedItems } from './support/arbitraries';
import { createTables, documentTarget, loadDocuments, loadTyped, relationalTarget, TEST_TIMEOUT } from './support/database';
import { exactFoldings } from './support/folding';
import { writeJson } from './support/json';

/**
 * SQL orders rows as `sortItems` orders items (reference §9), on real Postgres servers
 * (PGlite, and a Postgres server: see test/support/databases.ts): for generated data
 * and sorts, `ORDER BY` of `toSql` with the id as tie-breaker gives
 * the ids in the order `sortItems` gives the items (which keeps the input order, by id,
 * for equal keys). Missing, null, mistyped and non-finite values included, on both
 * layouts, case-sensitively and not (folding with each folding the server has that
 * means what `sortItems` means).
 */

/** The differential schema's scalar fields and ref id, all sortable. */
const sortable = defineSchema({
  fields: {
    amount: { type: 'number', sortable: true },
    score: { type: 'number', sortable: true },
    name: { type: 'string', sortable: true },
    toString: { type: 'string', sortable: true },
    at: { type: 'date', sortable: true },
    ref: { type: 'ref', sortable: true },
    lines: { type: 'array', of: { label: 'string', qty: 'number', on: 'date', item: { type: 'ref' } } },
  },
});

const KEYS = ['amount', 'score', 'name', 'toString', 'at', 'ref.id'];

interface SortCase {
  readonly filter: Filter;
  readonly caseInsensitive: boolean;
}

/** One to three distinct sort keys, each ascending or descending. */
const sortCase: fc.Arbitrary<SortCase> = fc
  .tuple(fc.shuffledSubarray(KEYS, { minLength: 1, maxLength: 3 }), fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }), fc.boolean())
  .map(([keys, descending, caseInsensitive]) => {
    const orderBy = keys.map((k, i) => (descending[i] ? `-${k}` : k)).join(',');
    const result = check(`orderBy=${orderBy}`, sortable);
    if (!result.ok) throw new Error(`generated an invalid sort ${orderBy}: ${JSON.stringify(result.errors)}`);
    return { filter: result.value, caseInsensitive };
  });

const SORTS_PER_DATA_SET = 12;
const DATA_SETS = 40;

/** The ids in SQL's order and in `sortItems`' order must be the same list, sort by sort. */
async function agree(db: Database, caseFolding: CaseFolding, items: readonly unknown[], ids: readonly number[], from: string, target: SqlTarget, sorts: readonly SortCase[]) {
  for (const { filter, caseInsensitive } of sorts) {
    const { orderBy } = toSql(filter, target, { caseInsensitive, caseFolding, tieBreaker: 'id' });
    const { rows } = await db.query<{ id: number }>(`SELECT id FROM ${from} ${orderBy}`);
    // Items may repeat (the same primitive twice): equal items keep their input order, so each takes its next id.
    const idsOf = new Map<unknown, number[]>();
    items.forEach((item, i) => idsOf.set(item, [...(idsOf.get(item) ?? []), ids[i]!]));
    const expected = sortItems(items, filter, { caseInsensitive }).map((item) => idsOf.get(item)!.shift());
    const actual = rows.map((row) => row.id);
    if (actual.join() !== expected.join()) {
      const show = (order: readonly (number | undefined)[]) =>
        order.map((id) => `${id}: ${JSON.stringify(items[ids.indexOf(id!)], (_, v) => (v instanceof Date ? v.toISOString() : v))}`).join('\n');
      expect.fail(`${filter.params.orderBy} (caseInsensitive: ${caseInsensitive}, ${caseFolding})\n${orderBy}\nSQL:\n${show(actual)}\nsortItems:\n${show(expected)}`);
    }
  }
}

describe.each(SERVERS)('ORDER BY agrees with sortItems on $label', (server) => {
  let db: Database;
  let foldings: CaseFolding[];

  useDatabase(server, {}, async (opened) => {
    db = opened;
    await createTables(db);
    foldings = await exactFoldings(db);
  });

  const folding = () => fc.nat().map((n) => foldings[n % foldings.length]!);
  const sorts = fc.array(sortCase, { minLength: SORTS_PER_DATA_SET, maxLength: SORTS_PER_DATA_SET });

  it('on a relational layout with well-typed data', async () => {
    await fc.assert(
      fc.asyncProperty(typedItems, sorts, folding(), async (items, cases, f) => {
        await loadTyped(db, items);
        await agree(db, f, items, items.map((item) => item.id), '"we""ird"."items.v1"', relationalTarget, cases);
      }),
      { numRuns: DATA_SETS },
    );
  }, TEST_TIMEOUT);

  it('on a document layout with awkward data', async () => {
    await fc.assert(
      fc.asyncProperty(documents, sorts, folding(), async (docs, cases, f) => {
        await loadDocuments(db, docs);
        const parsed = docs.map((doc) => JSON.parse(writeJson(doc)) as unknown);
        await agree(db, f, parsed, parsed.map((_, i) => i + 1), 'docs', documentTarget, cases);
      }),
      { numRuns: DATA_SETS },
    );
  }, TEST_TIMEOUT);
});

describe('the ORDER BY clause', () => {
  const filter = (orderBy: string) => {
    const result = check(`orderBy=${orderBy}`, sortable);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    return result.value;
  };

  it('is empty with nothing to order by, and only the tie-breaker without a sort', () => {
    expect(toSql(filter('amount'), relationalTarget).orderBy).not.toBe('');
    const unsorted = check('', sortable);
    expect(unsorted.ok && toSql(unsorted.value, relationalTarget).orderBy).toBe('');
    expect(unsorted.ok && toSql(unsorted.value, { document: 'doc' }, { tieBreaker: ['created', 'id'] }).orderBy).toBe('ORDER BY "created" ASC, "id" ASC');
  });

  it('binds no values and quotes every identifier', () => {
    const { orderBy, values } = toSql(filter('-name,ref.id'), relationalTarget, { tieBreaker: 'we"ird id' });
    expect(values).toEqual([]);
    expect(orderBy).toBe(
      'ORDER BY ("we""ird"."items.v1"."na;me--") COLLATE "C" DESC NULLS LAST, ("we""ird"."items.v1"."ref id"::text) COLLATE "C" ASC NULLS LAST, "we""ird"."items.v1"."we""ird id" ASC',
    );
  });

  it('refuses a tie-breaker that is not a column name', () => {
    expect(() => toSql(filter('amount'), relationalTarget, { tieBreaker: '' })).toThrow(TypeError);
    expect(() => toSql(filter('amount'), relationalTarget, { tieBreaker: 5 as never })).toThrow(/tieBreaker must be a column name/);
  });
});
