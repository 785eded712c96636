import { expect, it } from 'vitest';
import { compile, toSql, type CaseFolding, type SqlTarget } from '../../src/index';
import type { Database } from '../support/databases';
import { filterCase } from './support/arbitraries';
import { selectIds } from './support/database';
import { checkedCases, documentsAgree, onEveryServer, type Checked } from './support/suite';

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

const checkedFilters = checkedCases(filterCase, FILTERS_PER_DATA_SET);

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

onEveryServer('toSql agrees with compile on $label', checkedFilters, DATA_SETS, agree, ({ db, folding, foldings }) => {
  it('folds case the way compile does with at least one folding', () => {
    expect(foldings().length).toBeGreaterThan(0);
  });

  it('on documents without a table qualifier', async () => {
    await documentsAgree(db(), folding(), checkedFilters, 5, agree, { document: 'doc' });
  });
});
