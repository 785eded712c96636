import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, sqlConstraints, toSql, type DocumentTarget } from '../../src/index';
import { SERVERS, type Database } from '../support/databases';
import { documents, filterCase, pagedCase, schema } from './support/arbitraries';
import { relationalTarget, selectIds } from './support/database';
import { object, writeJson, type Json } from './support/json';
import { checkedCases, useSuiteDatabase } from './support/suite';
import { sortedIds, typedDocuments } from './support/typed-documents';

/**
 * `sqlConstraints` (reference §14.1): the CHECK constraints under which every row Postgres
 * accepts is one the target reads exactly. On the typed document target: with them in
 * place, whatever documents an `INSERT` is given, those it accepts are selected exactly as
 * `compile` accepts them and ordered exactly as `sortItems` orders them; wrong JSON types,
 * impossible or non-canonical dates are refused on write. They are safe to run twice.
 */

const typed: DocumentTarget = { document: 'doc', table: 'docs', typed: true };

describe('sqlConstraints', () => {
  it('names one constraint per field after the table, the column and the field, dropped and added in one statement', () => {
    const statements = sqlConstraints(schema, typed);
    expect(statements).toHaveLength([...schema.fields.values()].length);
    expect(statements[0]).toBe(
      `ALTER TABLE "docs" DROP CONSTRAINT IF EXISTS "docs_doc_amount_check_qsf", ADD CONSTRAINT "docs_doc_amount_check_qsf" CHECK (jsonb_typeof("doc"->'amount') IN ('number', 'null'))`,
    );
    expect(statements.find((statement) => statement.includes('"docs_doc_lines_on_check_qsf"'))).toMatch(
      /CHECK \(jsonb_typeof\("doc"->'lines'\) IS DISTINCT FROM 'array' OR NOT jsonb_path_exists\("doc"->'lines', '\$\[\*\] \? \(exists\(@\."on"\) && !\(@\."on"\.type\(\) == "null" \|\| @\."on"\.type\(\) == "string" && @\."on" like_regex "\^/,
    );
  });

  it('keeps NaN, the infinities and numerics past the doubles out of a relational table, and needs nothing on an untyped document', () => {
    const statements = sqlConstraints(schema, relationalTarget);
    expect(statements).toContain(
      `ALTER TABLE "we""ird"."items.v1" DROP CONSTRAINT IF EXISTS "items.v1_amount_check_qsf", ADD CONSTRAINT "items.v1_amount_check_qsf" CHECK ("Amount ""total"""::float8 BETWEEN -1.7976931348623157e308 AND 1.7976931348623157e308)`,
    );
    expect(statements).toContain(`ALTER TABLE "we""ird"."lines" DROP CONSTRAINT IF EXISTS "lines_lines_on_check_qsf", ADD CONSTRAINT "lines_lines_on_check_qsf" CHECK (isfinite("on"))`);
    expect(statements.some((statement) => statement.includes('"na;me--"'))).toBe(false);
    expect(sqlConstraints(schema, { document: 'doc', table: 'docs' })).toEqual([]);
  });

  it('throws a TypeError without the real table, or for a schema it was not given', () => {
    expect(() => sqlConstraints(schema, { document: 'doc', typed: true })).toThrow(/sqlConstraints: the target must be a target of toSql with its "table"/);
    expect(() => sqlConstraints({} as never, typed)).toThrow(TypeError);
  });
});

/** What an INSERT of one document does: accepted, or refused by a CHECK constraint (any other error is the test's failure). */
async function insert(db: Database, id: number, doc: Json): Promise<boolean> {
  try {
    await db.query('INSERT INTO docs VALUES ($1, $2::jsonb)', [id, writeJson(doc)]);
    return true;
  } catch (error) {
    expect((error as { code?: string }).code, `${writeJson(doc)}: ${String(error)}`).toBe('23514');
    return false;
  }
}

/** The documents of fields `[name, value]` the constraints refuse, and those they let in. */
const REFUSED: readonly (readonly [string, Json])[] = [
  ['amount', '5'],
  ['amount', true],
  ['name', 5],
  ['at', '2023-02-30'],
  ['at', '2023-1-5'],
  ['at', '2023-01-05T10:00:00+01:00'],
  ['at', '2023-01-05T10:00:00Z'],
  ['at', '2023-01-05T24:00:00'],
  ['at', '2023-01-05T10:00'],
  ['at', '2023-01-05T10:00:00.'],
  ['at', '2100-02-29'],
  ['at', 20230105],
  ['ref', object([['id', 42.5]])],
  ['ref', object([['id', { raw: '1e-400' }]])],
  ['ref', object([['id', { raw: '42.00000000000000001' }]])],
  ['ref', object([['id', 9007199254740992]])],
  ['ref', object([['id', object([])]])],
  ['lines', [object([['qty', '5']])]],
  ['lines', [object([['on', '2023-02-30']])]],
  ['lines', [object([['label', 'x']]), object([['on', '2023-01-05T10:00:00Z']])]],
  ['lines', [object([['item', object([['id', 0.5]])]])]],
];
const ACCEPTED: readonly (readonly [string, Json])[] = [
  ['amount', { raw: '1e400' }],
  ['amount', { raw: '0.10000000000000000001' }],
  ['amount', null],
  ['at', '2024-02-29'],
  ['at', '2000-02-29T23:59:59.123456789'],
  ['at', '0000-02-29'],
  ['at', null],
  ['ref', object([['id', { raw: '42.0' }]])],
  ['ref', object([['id', -9007199254740991]])],
  ['ref', 'not a ref'],
  ['lines', 'not an array'],
  ['lines', [5, object([['qty', 1], ['on', '2023-01-05'], ['item', object([['id', '7']])]])]],
];

describe.each(SERVERS)('sqlConstraints on $label', (server) => {
  const suite = useSuiteDatabase(server);

  it('runs twice, and refuses on write what the typed target cannot read exactly', async () => {
    const db = suite.db();
    await db.exec('TRUNCATE docs');
    for (const statement of [...sqlConstraints(schema, typed), ...sqlConstraints(schema, typed)]) await db.exec(statement);
    let id = 0;
    for (const [name, value] of REFUSED) expect(await insert(db, ++id, object([[name, value]])), `${name}: ${writeJson(value)}`).toBe(false);
    for (const [name, value] of ACCEPTED) expect(await insert(db, ++id, object([[name, value]])), `${name}: ${writeJson(value)}`).toBe(true);
  });

  it('runs on a relational table, twice, and refuses NaN and infinite dates', async () => {
    const db = suite.db();
    for (const statement of [...sqlConstraints(schema, relationalTarget), ...sqlConstraints(schema, relationalTarget)]) await db.exec(statement);
    await expect(db.query(`INSERT INTO "we""ird"."items.v1" (id, "Amount ""total""") VALUES (1, 'NaN')`)).rejects.toMatchObject({ code: '23514' });
    await expect(db.query(`INSERT INTO "we""ird".lines ("item id", "on") VALUES (1, '-infinity')`)).rejects.toMatchObject({ code: '23514' });
    await db.query(`INSERT INTO "we""ird"."items.v1" (id, "Amount ""total""", "at$1") VALUES (1, 1e300, '2023-01-01Z')`);
  });

  it('under them, the typed target selects and orders whatever an INSERT accepts as compile and sortItems do', async () => {
    const db = suite.db();
    for (const statement of sqlConstraints(schema, typed)) await db.exec(statement);
    const docsArbitrary = fc.tuple(typedDocuments(true), documents).map(([canonical, awkward]) => [...canonical, ...awkward]);
    const inserts = { accepted: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(docsArbitrary, checkedCases(filterCase, 30), checkedCases(pagedCase, 8), suite.folding(), async (docs, filters, pages, caseFolding) => {
        await db.exec('TRUNCATE docs');
        const kept: { id: number; doc: unknown }[] = [];
        for (const [i, doc] of docs.entries()) {
          if (await insert(db, i + 1, doc)) kept.push({ id: i + 1, doc: JSON.parse(writeJson(doc)) });
          else inserts.refused++;
        }
        inserts.accepted += kept.length;
        const selected = await selectIds(db, 'docs', filters.map(({ source, filter }) => (firstParam) => toSql(filter, typed, { caseInsensitive: source.caseInsensitive, caseFolding, firstParam })));
        for (const [i, { source, filter }] of filters.entries()) {
          const matches = compile(filter, { caseInsensitive: source.caseInsensitive });
          expect(selected[i], `${JSON.stringify(source)} (${caseFolding})`).toEqual(kept.filter(({ doc }) => matches(doc)).map(({ id }) => id));
        }
        for (const { source, filter } of pages) {
          const { caseInsensitive } = source;
          const { text, values, orderBy } = toSql(filter, typed, { caseInsensitive, caseFolding, tieBreaker: 'id' });
          const { limit, offset } = filter.page!;
          const { rows } = await db.query<{ id: number }>(`SELECT id FROM docs WHERE ${text} ${orderBy} LIMIT ${limit} OFFSET ${offset}`, values);
          const matches = compile(filter, { caseInsensitive });
          const expected = sortedIds(kept.filter(({ doc }) => matches(doc)), filter, caseInsensitive);
          expect(rows.map((row) => row.id), `${JSON.stringify(source)} (${caseFolding})\n${orderBy}`).toEqual(expected.slice(offset, offset + limit));
        }
      }),
      { numRuns: 10 },
    );
    // Neither side empty: the property held over documents let in and documents refused.
    expect(inserts.accepted).toBeGreaterThan(20);
    expect(inserts.refused).toBeGreaterThan(20);
  });
});
