import { PGlite } from '@electric-sql/pglite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, compile, toSql, type Filter, type SqlTarget } from '../../src/index';
import { documents, filterCase, schema, typedItems, type FilterCase } from './support/arbitraries';
import { createTables, documentTarget, loadDocuments, loadTyped, relationalTarget, selectIds, STARTUP_TIMEOUT, TEST_TIMEOUT } from './support/database';
import { writeJson } from './support/json';

/**
 * SQL agrees with the evaluator on a real Postgres (PGlite): for generated data and
 * filters, the ids `toSql` selects are exactly the ids `compile` accepts (both its
 * generated code and its closures), on a
 * relational layout (well-typed data) and on a document layout (awkward data, compiled
 * on the JSON-parsed documents). Many filters run per loaded data set, in one statement.
 */

let db: PGlite;

beforeAll(async () => {
  db = await PGlite.create();
  await createTables(db);
}, STARTUP_TIMEOUT);

afterAll(async () => {
  await db.close();
}, STARTUP_TIMEOUT);

const FILTERS_PER_DATA_SET = 60;
const DATA_SETS = 50;

interface Checked {
  readonly source: FilterCase;
  readonly filter: Filter;
}

const checkedFilters = fc.array(filterCase, { minLength: FILTERS_PER_DATA_SET, maxLength: FILTERS_PER_DATA_SET }).map((cases) =>
  cases.map((source): Checked => {
    const result = check(source.query, schema);
    if (!result.ok) throw new Error(`generated an invalid query ${JSON.stringify(source.query)}: ${JSON.stringify(result.errors)}`);
    return { source, filter: result.value };
  }),
);

/** Compares, filter by filter, the ids SQL selects with the ids the evaluator accepts. */
async function agree(items: readonly unknown[], ids: readonly number[], from: string, target: SqlTarget, filters: readonly Checked[]) {
  const selected = await selectIds(
    db,
    from,
    filters.map(({ source, filter }) => (firstParam) => toSql(filter, target, { caseInsensitive: source.caseInsensitive, firstParam })),
  );
  filters.forEach(({ source, filter }, i) => {
    const predicate = compile(filter, { caseInsensitive: source.caseInsensitive });
    const closures = compile(filter, { caseInsensitive: source.caseInsensitive, codegen: false });
    const accepted = ids.filter((_, j) => predicate(items[j]));
    // The closure evaluator accepts the same items as the generated code.
    expect(ids.filter((_, j) => closures(items[j]))).toEqual(accepted);
    if (selected[i]!.join() !== accepted.join()) {
      const differing = [...new Set([...selected[i]!, ...accepted])].filter((id) => selected[i]!.includes(id) !== accepted.includes(id));
      expect.fail(
        `${JSON.stringify(source)}\nSQL: ${toSql(filter, target, source).text}\nSQL selects ${selected[i]}, compile accepts ${accepted}\n` +
          differing.map((id) => `item ${id}: ${JSON.stringify(items[ids.indexOf(id)], (_, v) => (v instanceof Date ? v.toISOString() : v))}`).join('\n'),
      );
    }
  });
}

describe('toSql agrees with compile on Postgres', () => {
  it('on a relational layout with well-typed data', async () => {
    await fc.assert(
      fc.asyncProperty(typedItems, checkedFilters, async (items, filters) => {
        await loadTyped(db, items);
        await agree(items, items.map((item) => item.id), '"we""ird"."items.v1"', relationalTarget, filters);
      }),
      { numRuns: DATA_SETS },
    );
  }, TEST_TIMEOUT);

  it('on a document layout with awkward data', async () => {
    await fc.assert(
      fc.asyncProperty(documents, checkedFilters, async (docs, filters) => {
        await loadDocuments(db, docs);
        const parsed = docs.map((doc) => JSON.parse(writeJson(doc)) as unknown);
        await agree(parsed, parsed.map((_, i) => i + 1), 'docs', documentTarget, filters);
      }),
      { numRuns: DATA_SETS },
    );
  }, TEST_TIMEOUT);

  it('on documents without a table qualifier', async () => {
    await fc.assert(
      fc.asyncProperty(documents, checkedFilters, async (docs, filters) => {
        await loadDocuments(db, docs);
        const parsed = docs.map((doc) => JSON.parse(writeJson(doc)) as unknown);
        await agree(parsed, parsed.map((_, i) => i + 1), 'docs', { document: 'doc' }, filters);
      }),
      { numRuns: 5 },
    );
  }, TEST_TIMEOUT);
});
