import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check as checkQuery, compile, sqlIndexes, toSql, type CaseFolding, type DocumentTarget } from '../../src/index';
import { instantFromData } from '../../src/values/date';
import { SERVERS, type Database } from '../support/databases';
import { documents, filterCase, pagedCase, schema } from './support/arbitraries';
import { sortedIds, typedDocuments } from './support/typed-documents';
import { explain, INDEX_SCAN, loadDocuments, selectIds } from './support/database';
import { object, writeJson, type Json } from './support/json';
import { checkedCases, useSuiteDatabase, type Checked } from './support/suite';

/**
 * The typed document target (reference §14.1) on every server the SQL suites use: on
 * documents whose values have the schema's JSON types it selects exactly what `compile`
 * accepts and pages exactly as `sortItems` does; on awkward documents (any JSON where a
 * field is) it never raises and selects nothing `compile` refuses, since a value of
 * another type never matches (but for a string that starts like a date without being a
 * canonical one, which is compared by its text: `datesOutsideContract`). `sqlIndexes`' statements run, and a selective filter on
 * some thousands of rows is served by an index.
 */

const target: DocumentTarget = { document: 'doc', table: 'docs', typed: true };

const CANONICAL_DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]{1,9})?)?$/;
const DATE_SHAPE = /^[0-9].{3}-.{2}-.{2}/su;

/**
 * Whether a document has, in a date field, a string that the typed target compares by its
 * text though it is no canonical date (`2023-02-30`, an offset): outside the contract
 * (reference §14.1), where the target may select what `compile` refuses.
 */
function datesOutsideContract(doc: unknown): boolean {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const outside = (o: Record<string, unknown>, key: string) => {
    const v = Object.hasOwn(o, key) ? o[key] : undefined;
    return typeof v === 'string' && DATE_SHAPE.test(v) && !(CANONICAL_DATE.test(v) && instantFromData(v) !== undefined);
  };
  if (!isObject(doc)) return false;
  const lines = Object.hasOwn(doc, 'lines') ? doc.lines : undefined;
  return outside(doc, 'at') || (Array.isArray(lines) && lines.some((line) => isObject(line) && outside(line, 'on')));
}

/** What the SQL selects from the loaded documents, filter by filter, and what compile accepts of them. */
async function selections(db: Database, folding: CaseFolding, docs: readonly Json[], cases: readonly Checked[]) {
  await loadDocuments(db, docs);
  const parsed = docs.map((doc) => JSON.parse(writeJson(doc)) as unknown);
  const selected = await selectIds(
    db,
    'docs',
    cases.map(({ source, filter }) => (firstParam) => toSql(filter, target, { caseInsensitive: source.caseInsensitive, caseFolding: folding, firstParam })),
  );
  return cases.map(({ source, filter }, i) => {
    const predicate = compile(filter, { caseInsensitive: source.caseInsensitive });
    const accepted = parsed.flatMap((doc, j) => (predicate(doc) ? [j + 1] : []));
    const why = () => `${JSON.stringify(source)} (${folding})\nSQL selects ${selected[i]}, compile accepts ${accepted}\n${selected[i]!.concat(accepted).map((id) => `${id}: ${writeJson(docs[id - 1]!)}`).join('\n')}`;
    return { selected: selected[i]!, accepted, why };
  });
}

describe.each(SERVERS)('the typed document target on $label', (server) => {
  const suite = useSuiteDatabase(server);
  const { folding } = suite;

  it('selects exactly what compile accepts on typed documents, every spelling of the canonical forms included', async () => {
    await fc.assert(
      fc.asyncProperty(typedDocuments(true), checkedCases(filterCase, 60), folding(), async (docs, cases, f) => {
        for (const { selected, accepted, why } of await selections(suite.db(), f, docs, cases)) {
          if (selected.join() !== accepted.join()) expect.fail(why());
        }
      }),
      { numRuns: 30 },
    );
  });

  it('never raises on awkward documents, and a value of another type never matches', async () => {
    await fc.assert(
      fc.asyncProperty(documents, checkedCases(filterCase, 60), folding(), async (docs, cases, f) => {
        const outside = new Set(docs.flatMap((doc, j) => (datesOutsideContract(JSON.parse(writeJson(doc))) ? [j + 1] : [])));
        for (const { selected, accepted, why } of await selections(suite.db(), f, docs, cases)) {
          if (selected.some((id) => !accepted.includes(id) && !outside.has(id))) expect.fail(why());
        }
      }),
      { numRuns: 30 },
    );
  });

  it('compares a date-shaped string by its text, and never matches a value of another type in a date field or a number past the doubles', async () => {
    const docs = [
      [['at', '2023-09-01T10:00:00']], // 1: canonical
      [['at', '2023-02-30']], // 2: no calendar date, but shaped like one: its text is compared
      [['at', '2023-09-01T10:00:00+02:00']], // 3: an offset: its text too
      [['at', 20230901]], // 4: a number
      [['at', ['ab-de-fg']]], // 5: an array whose text has the dashes
      [['at', object([['ab-de-', 1]])]], // 6: an object, likewise
      [['at', 'x023-09-01']], // 7: not starting with a digit
      [['amount', { raw: '1e400' }]], // 8: Infinity to compile
      [['amount', { raw: '-1e400' }]], // 9: -Infinity to compile
      [['amount', 5]], // 10
    ].map((entries) => object(entries as [string, Json][]));
    await loadDocuments(suite.db(), docs);
    const [dates, above, below] = await selectIds(suite.db(), 'docs', ['at=gte:2023-01-01', 'amount=gte:1', 'amount=lte:9'].map((query) => (firstParam) => toSql(check(query), target, { firstParam })));
    expect(dates).toEqual([1, 2, 3]);
    expect(above).toEqual([10]);
    expect(below).toEqual([10]);
  });

  // Issue 32: two spellings of one instant or one double were ordered by their text, where sortItems ties them.
  it('orders and pages exactly as sortItems does on typed documents, every spelling of the canonical forms included', async () => {
    await fc.assert(
      fc.asyncProperty(typedDocuments(true), checkedCases(pagedCase, 12), folding(), async (docs, cases, caseFolding) => {
        await loadDocuments(suite.db(), docs);
        const parsed = docs.map((doc) => JSON.parse(writeJson(doc)) as unknown);
        for (const { source, filter } of cases) {
          const { caseInsensitive } = source;
          const { text, values, orderBy } = toSql(filter, target, { caseInsensitive, caseFolding, tieBreaker: 'id' });
          const { limit, offset } = filter.page!;
          const n = values.length;
          const { rows } = await suite.db().query<{ id: number }>(`SELECT id FROM docs WHERE ${text} ${orderBy} LIMIT $${n + 1} OFFSET $${n + 2}`, [...values, limit, offset]);
          const matches = compile(filter, { caseInsensitive });
          const kept = parsed.map((doc, i) => ({ id: i + 1, doc })).filter(({ doc }) => matches(doc));
          const expected = sortedIds(kept, filter, caseInsensitive).slice(offset, offset + limit);
          if (rows.map((row) => row.id).join() !== expected.join()) {
            expect.fail(`${JSON.stringify(source)} (${caseFolding})\n${orderBy}\nSQL ${rows.map((r) => r.id)}, sortItems ${expected}\n${kept.map(({ id }) => `${id}: ${writeJson(docs[id - 1]!)}`).join('\n')}`);
          }
        }
      }),
      { numRuns: 25 },
    );
  });

  it('runs every statement of sqlIndexes, twice, and a selective filter on thousands of rows uses an index', async () => {
    const statements = [
      ...sqlIndexes(schema, target),
      ...suite.foldings().flatMap((caseFolding) => sqlIndexes(schema, target, { caseInsensitive: true, caseFolding })),
    ];
    for (const statement of [...statements, ...statements]) await suite.db().exec(statement);
    await suite.db().exec(`TRUNCATE docs;
      INSERT INTO docs SELECT i, jsonb_build_object('amount', i % 1000, 'name', 'n' || i, 'ref', jsonb_build_object('id', (i % 500)::text),
        'at', to_char(timestamp '2020-01-01' + i * interval '1 hour', 'YYYY-MM-DD"T"HH24:MI:SS'), 'lines', jsonb_build_array(jsonb_build_object('label', 'l' || i)))
        FROM generate_series(1, 5000) AS i`);
    // VACUUM also moves the GIN index's pending entries into the index proper, as autovacuum would.
    await suite.db().exec('VACUUM ANALYZE docs');
    for (const query of ['amount=gte:10;lte:11', 'name=n42', 'ref.id=42', 'at=2020-01-05', 'name=n42%25', 'lines.label=l7', 'orderBy=at&limit=5', 'orderBy=amount&limit=5']) {
      const filter = check(query);
      // A pattern and an array element are served only case-sensitively (by the C-collated text and by containment).
      const caseSettings = query.includes('%') || query.startsWith('lines') ? [undefined] : [undefined, ...suite.foldings()];
      for (const caseFolding of caseSettings) {
        const sql = toSql(filter, target, caseFolding === undefined ? {} : { caseInsensitive: true, caseFolding });
        const limit = query.includes('orderBy') ? ` LIMIT ${filter.page!.limit}` : '';
        const plan = await explain(suite.db(), `SELECT id FROM docs WHERE ${sql.text} ${sql.orderBy}${limit}`, sql.values);
        expect(plan, `${query} (${caseFolding ?? 'case-sensitive'})`).toMatch(INDEX_SCAN);
      }
    }
  });
});

/** A checked filter of the test schema; a query the schema refuses is a bug of the test. */
function check(query: string) {
  const result = checkQuery(query, schema);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}
