import { describe, expect, it } from 'vitest';
import { check, compile, sortItems, toSql, type CaseFolding, type SqlTarget } from '../../src/index';
import type { Database } from '../support/databases';
import { finiteItems, pagedCase, schema } from './support/arbitraries';
import { relationalTarget } from './support/database';
import { checkedCases, onEveryServer, type Checked } from './support/suite';

/**
 * SQL pages through the rows as the evaluator pages through the items (reference §9), on
 * real Postgres servers (PGlite, and a Postgres server: see test/support/databases.ts):
 * for generated data and queries that filter, sort and page at once (with typed
 * request parameters among them), `WHERE` and `ORDER BY` of `toSql`, the id as
 * tie-breaker, then `LIMIT` and `OFFSET` of the filter's page, give the ids that
 * `sortItems` of the items `compile` accepts, cut to the same page, gives (it keeps the
 * input order, by id, for equal keys). Missing, null and mistyped values included, on
 * both layouts (non-finite numbers on the document layout; the relational one holds what
 * `sqlConstraints` lets in, its contract: no NaN or ±Infinity), case-sensitively and not
 * (folding with each folding the server has that means what `sortItems` means).
 */

const CASES_PER_DATA_SET = 12;
const DATA_SETS = 40;

const pagedCases = checkedCases(pagedCase, CASES_PER_DATA_SET);

/** The ids of one page in SQL's order and in the evaluator's must be the same list, query by query. */
async function agree(db: Database, caseFolding: CaseFolding, items: readonly unknown[], ids: readonly number[], from: string, target: SqlTarget, cases: readonly Checked[]) {
  for (const { source, filter } of cases) {
    const { caseInsensitive } = source;
    const { text, values, orderBy } = toSql(filter, target, { caseInsensitive, caseFolding, tieBreaker: 'id' });
    const { limit, offset } = filter.page!;
    const n = values.length;
    const { rows } = await db.query<{ id: number }>(`SELECT id FROM ${from} WHERE ${text} ${orderBy} LIMIT $${n + 1} OFFSET $${n + 2}`, [...values, limit, offset]);
    const matches = compile(filter, { caseInsensitive });
    const kept = ids.flatMap((id, i) => (matches(items[i]) ? [{ id, item: items[i] }] : []));
    // Items may repeat (the same primitive twice): equal items keep their input order, so each takes its next id.
    const idsOf = new Map<unknown, number[]>();
    for (const { id, item } of kept) idsOf.set(item, [...(idsOf.get(item) ?? []), id]);
    const ordered = sortItems(
      kept.map((k) => k.item),
      filter,
      { caseInsensitive },
    ).map((item) => idsOf.get(item)!.shift());
    const expected = ordered.slice(offset, offset + limit);
    const actual = rows.map((row) => row.id);
    if (actual.join() !== expected.join()) {
      const show = (order: readonly (number | undefined)[]) =>
        order.map((id) => `${id}: ${JSON.stringify(items[ids.indexOf(id!)], (_, v) => (v instanceof Date ? v.toISOString() : v))}`).join('\n');
      expect.fail(
        `${JSON.stringify(source.query)} (caseInsensitive: ${caseInsensitive}, ${caseFolding})\nWHERE ${text} ${orderBy}\n${JSON.stringify(values)}\n` +
          `SQL:\n${show(actual)}\ncompile, sortItems, page ${offset}+${limit}:\n${show(expected)}`,
      );
    }
  }
}

onEveryServer('WHERE, ORDER BY and the page agree with compile and sortItems on $label', pagedCases, DATA_SETS, agree, undefined, finiteItems);

describe('the ORDER BY clause', () => {
  const filter = (orderBy: string) => {
    const result = check(`orderBy=${orderBy}`, schema);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    return result.value;
  };

  it('is empty with nothing to order by, and only the tie-breaker without a sort', () => {
    expect(toSql(filter('amount'), relationalTarget).orderBy).not.toBe('');
    const unsorted = check('', schema);
    expect(unsorted.ok && toSql(unsorted.value, relationalTarget).orderBy).toBe('');
    expect(unsorted.ok && toSql(unsorted.value, { document: 'doc' }, { tieBreaker: ['created', 'id'] }).orderBy).toBe('ORDER BY "created" ASC, "id" ASC');
  });

  it('binds no values and quotes every identifier', () => {
    const { orderBy, values } = toSql(filter('-name,ref.id'), relationalTarget, { tieBreaker: 'we"ird id' });
    expect(values).toEqual([]);
    expect(orderBy).toBe(
      'ORDER BY (("we""ird"."items.v1"."na;me--") COLLATE "C" IS NOT NULL) DESC, ("we""ird"."items.v1"."na;me--") COLLATE "C" DESC NULLS LAST, ("we""ird"."items.v1"."ref id"::text) COLLATE "C" ASC NULLS LAST, "we""ird"."items.v1"."we""ird id" ASC',
    );
  });

  it('refuses a tie-breaker that is not a column name', () => {
    expect(() => toSql(filter('amount'), relationalTarget, { tieBreaker: '' })).toThrow(TypeError);
    expect(() => toSql(filter('amount'), relationalTarget, { tieBreaker: 5 as never })).toThrow(/"tieBreaker" must be a column name or an array of column names, not the number 5/);
  });
});
