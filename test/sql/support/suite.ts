import fc from 'fast-check';
import { describe, it } from 'vitest';
import { check, type CaseFolding, type Filter, type SqlTarget } from '../../../src/index';
import { SERVERS, useDatabase, type Database, type DatabaseServer } from '../../support/databases';
import { documents, schema, typedItems, type FilterCase, type TypedItem } from './arbitraries';
import { createTables, documentTarget, loadDocuments, loadTyped, relationalTarget } from './database';
import { exactFoldings } from './folding';
import { writeJson } from './json';

/** A generated query and its filter: a generator that makes an invalid query is a bug of the test. */
export interface Checked {
  readonly source: FilterCase;
  readonly filter: Filter;
}

/** `n` generated queries for one data set, each checked against the schema. */
export function checkedCases(cases: fc.Arbitrary<FilterCase>, n: number): fc.Arbitrary<Checked[]> {
  return fc.array(cases, { minLength: n, maxLength: n }).map((sources) =>
    sources.map((source) => {
      const result = check(source.query, schema);
      if (!result.ok) throw new Error(`generated an invalid query ${JSON.stringify(source.query)}: ${JSON.stringify(result.errors)}`);
      return { source, filter: result.value };
    }),
  );
}

/**
 * What a differential suite asserts on one loaded data set: for each case, what the SQL
 * answers from `from` through `target` against what the evaluator makes of `items`
 * (`ids[i]` is the row of `items[i]`), folding case with `folding`.
 */
export type Agreement = (
  db: Database,
  folding: CaseFolding,
  items: readonly unknown[],
  ids: readonly number[],
  from: string,
  target: SqlTarget,
  cases: readonly Checked[],
) => Promise<void>;

/** What a suite's own further tests get: the open database and a generator of the foldings it has. */
export interface SuiteContext {
  readonly db: () => Database;
  readonly folding: () => fc.Arbitrary<CaseFolding>;
  readonly foldings: () => readonly CaseFolding[];
}

/**
 * A database of its own on `server` for the tests of one `describe` block, opened once
 * with the suites' tables and the case foldings that mean what the evaluator means.
 * Statements are large expressions, so Postgres's JIT is off (see OpenOptions.jit).
 */
export function useSuiteDatabase(server: DatabaseServer): SuiteContext {
  let db: Database;
  let foldings: CaseFolding[];
  useDatabase(server, { jit: false }, async (opened) => {
    db = opened;
    await createTables(db);
    foldings = await exactFoldings(db);
  });
  return { db: () => db, folding: () => fc.nat().map((n) => foldings[n % foldings.length]!), foldings: () => foldings };
}

/**
 * One differential suite per server (test/support/databases.ts), its database opened
 * once with the tables and the case foldings that mean what the evaluator means: the
 * same agreement on a relational layout (well-typed data) and on a document layout
 * (awkward data, which the evaluator reads JSON-parsed), `dataSets` data sets each.
 * Statements are large expressions, so Postgres's JIT is off (see OpenOptions.jit).
 * `relationalItems`: the relational rows (`typedItems`, or what a suite needs of them).
 */
export function onEveryServer(
  title: string,
  cases: fc.Arbitrary<readonly Checked[]>,
  dataSets: number,
  agree: Agreement,
  more?: (context: SuiteContext) => void,
  relationalItems: fc.Arbitrary<TypedItem[]> = typedItems,
): void {
  describe.each(SERVERS)(title, (server) => {
    const context = useSuiteDatabase(server);
    const { folding } = context;

    it('on a relational layout with well-typed data', async () => {
      await fc.assert(
        fc.asyncProperty(relationalItems, cases, folding(), async (items, checked, f) => {
          await loadTyped(context.db(), items);
          await agree(context.db(), f, items, items.map((item) => item.id), '"we""ird"."items.v1"', relationalTarget, checked);
        }),
        { numRuns: dataSets },
      );
    });

    it('on a document layout with awkward data', async () => {
      await documentsAgree(context.db(), folding(), cases, dataSets, agree, documentTarget);
    });

    more?.(context);
  });
}

/** The agreement on generated documents, loaded in the table `docs` and read through `target`. */
export async function documentsAgree(
  db: Database,
  folding: fc.Arbitrary<CaseFolding>,
  cases: fc.Arbitrary<readonly Checked[]>,
  dataSets: number,
  agree: Agreement,
  target: SqlTarget,
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(documents, cases, folding, async (docs, checked, f) => {
      await loadDocuments(db, docs);
      const parsed = docs.map((doc) => JSON.parse(writeJson(doc)) as unknown);
      await agree(db, f, parsed, parsed.map((_, i) => i + 1), 'docs', target, checked);
    }),
    { numRuns: dataSets },
  );
}
