import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check, compile, toSql, type CaseFolding, type Filter, type SqlTarget } from '../../src/index';
import { SERVERS, useDatabase, type Database } from '../support/databases';
import { exactFoldings } from './support/folding';
import { documents, filterCase, schema, typedItems, type FilterCase } from './support/arbitraries';
import { createTables, documentTarget, loadDocuments, loadTyped, relationalTarget, selectIds, TEST_TIMEOUT } from './support/database';
import { writeJson } from './support/json';

/**
 * SQL agrees with the evaluator on real Postgres servers (PGlite, and a Postgres
 * server: see test/support/databases.ts): for generated data and filters, the ids
 * `toSql` selects are exactly the ids `compile` accepts (both its generated code and
 * its closures), on a relational layout (well-typed data) and on a document layout
 * (awkward data, compiled on the JSON-parsed documents), case-insensitive filters
 * folding with each folding the server has that means what `compile` means. Many
 * filters run per loaded data set, in one statement.
 */

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
async function agree(db: Database, folding: CaseFolding, items: readonly unknown[], ids: readonly number[], from: string, target: SqlTarget, filters: readonly Checked[]) {
  const selected = await selectIds(
    db,
    from,
    filters.map(({ source, filter }) => (firstParam) => toSql(filter, target, { caseInsensitive: source.caseInsensitive, caseFolding: folding, firstParam })),
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
        `${JSON.stringify(source)} (${folding})\nSQL: ${toSql(filter, target, { ...source, caseFolding: folding }).text}\nSQL selects ${selected[i]}, compile accepts ${accepted}\n` +
          differing.map((id) => `item ${id}: ${JSON.stringify(items[ids.indexOf(id)], (_, v) => (v instanceof Date ? v.toISOString() : v))}`).join('\n'),
      );
    }
  });
}

describe.each(SERVERS)('toSql agrees with compile on $label', (server) => {
  let db: Database;
  let foldings: CaseFolding[];

  // Sixty filters run in one statement: see OpenOptions.jit.
  useDatabase(server, { jit: false }, async (opened) => {
    db = opened;
    await createTables(db);
    foldings = await exactFoldings(db);
  });

  const folding = () => fc.nat().map((n) => foldings[n % foldings.length]!);

  it('folds case the way compile does with at least one folding', () => {
    expect(foldings.length).toBeGreaterThan(0);
  });

  it('on a relational layout with well-typed data', async () => {
    await fc.assert(
      fc.asyncProperty(typedItems, checkedFilters, folding(), async (items, filters, f) => {
        await loadTyped(db, items);
        await agree(db, f, items, items.map((item) => item.id), '"we""ird"."items.v1"', relationalTarget, filters);
      }),
      { numRuns: DATA_SETS },
    );
  }, TEST_TIMEOUT);

  it('on a document layout with awkward data', async () => {
    await fc.assert(
      fc.asyncProperty(documents, checkedFilters, folding(), async (docs, filters, f) => {
        await loadDocuments(db, docs);
        const parsed = docs.map((doc) => JSON.parse(writeJson(doc)) as unknown);
        await agree(db, f, parsed, parsed.map((_, i) => i + 1), 'docs', documentTarget, filters);
      }),
      { numRuns: DATA_SETS },
    );
  }, TEST_TIMEOUT);

  it('on documents without a table qualifier', async () => {
    await fc.assert(
      fc.asyncProperty(documents, checkedFilters, folding(), async (docs, filters, f) => {
        await loadDocuments(db, docs);
        const parsed = docs.map((doc) => JSON.parse(writeJson(doc)) as unknown);
        await agree(db, f, parsed, parsed.map((_, i) => i + 1), 'docs', { document: 'doc' }, filters);
      }),
      { numRuns: 5 },
    );
  }, TEST_TIMEOUT);
});
