import { describe, expect, it } from 'vitest';
import { check, defineSchema, sqlIndexes, toSql, type CaseFolding, type RelationalTarget } from '../../src/index';
import { SERVERS } from '../support/databases';
import { schema } from './support/arbitraries';
import { explain, INDEX_SCAN, relationalTarget } from './support/database';
import { useSuiteDatabase } from './support/suite';

/**
 * `sqlIndexes` (reference §14.1): what it makes of a schema and a target, and, on every
 * server, that its statements run (twice: they are idempotent) and that a selective
 * filter through `toSql` is then served by an index on a relational layout of some
 * thousands of rows, identifiers that need quoting included. The typed document target's
 * indexes are tested beside its meaning, in typed.test.ts.
 */

describe('sqlIndexes', () => {
  it('indexes each column as the filters compare it, each sort key, and each child table by its foreign key', () => {
    const statements = sqlIndexes(schema, relationalTarget);
    expect(statements).toContain('CREATE INDEX IF NOT EXISTS "items.v1_amount_qsf" ON "we""ird"."items.v1" ("Amount ""total""")');
    expect(statements).toContain('CREATE INDEX IF NOT EXISTS "items.v1_ref_id_qsf" ON "we""ird"."items.v1" (("ref id"::text))');
    expect(statements).toContain('CREATE INDEX IF NOT EXISTS "lines_lines_item id_qsf" ON "we""ird"."lines" ("item id")');
    expect(statements).toContain('CREATE INDEX IF NOT EXISTS "items.v1_name_sort_qsf" ON "we""ird"."items.v1" ((("na;me--") COLLATE "C" IS NULL) ASC, (("na;me--") COLLATE "C") ASC NULLS LAST)');
    expect(new Set(statements).size).toBe(statements.length);
  });

  it('names folded expressions apart, per folding, so that IF NOT EXISTS never takes one for another', () => {
    const names = (caseFolding: CaseFolding) =>
      sqlIndexes(schema, relationalTarget, { caseInsensitive: true, caseFolding }).map((s) => /EXISTS (".*?") ON/.exec(s)![1]);
    const plain = sqlIndexes(schema, relationalTarget).map((s) => /EXISTS (".*?") ON/.exec(s)![1]);
    expect(names('icu')).toContain('"items.v1_name_ci_icu_qsf"');
    const folded = (caseFolding: CaseFolding) => names(caseFolding).filter((n) => n!.includes('_ci_'));
    expect(folded('icu').length).toBeGreaterThan(0);
    expect(folded('icu').filter((n) => folded('pg_c_utf8').includes(n) || plain.includes(n))).toEqual([]);
  });

  it('keeps names within 63 bytes, distinct and the same on every run', () => {
    const long = 'x'.repeat(60);
    const wide = defineSchema({ fields: { [`${long}a`]: 'number', [`${long}b`]: 'number' } });
    const target: RelationalTarget = { table: 't', columns: { [`${long}a`]: 'a', [`${long}b`]: 'b' } };
    const names = sqlIndexes(wide, target).map((s) => /EXISTS "(.*?)" ON/.exec(s)![1]!);
    expect(names).toHaveLength(2);
    expect(new Set(names).size).toBe(2);
    for (const name of names) expect(new TextEncoder().encode(name).length).toBeLessThanOrEqual(63);
    expect(sqlIndexes(wide, target)).toEqual(sqlIndexes(wide, target));
  });

  it('refuses what it cannot index: the untyped document target, a target without its table, an unmapped field', () => {
    expect(() => sqlIndexes(schema, { document: 'doc', table: 'docs' })).toThrow(/typed: true/);
    expect(() => sqlIndexes(schema, { document: 'doc', typed: true })).toThrow(TypeError);
    expect(() => sqlIndexes(schema, { table: 't', columns: { amount: 'amount' } })).toThrow(/no column for the field "score"/);
    expect(() => sqlIndexes(schema, relationalTarget, { caseFolding: 'klingon' as CaseFolding })).toThrow(TypeError);
    expect(() => sqlIndexes({} as typeof schema, relationalTarget)).toThrow(TypeError);
  });

  it('leaves a field the schema marks removed unindexed', () => {
    const removed = defineSchema({ fields: { memo: { type: 'string', removed: 'use note' }, note: 'string' } });
    expect(sqlIndexes(removed, { table: 't', columns: { note: 'note' } })).toEqual(['CREATE INDEX IF NOT EXISTS "t_note_qsf" ON "t" ("note")']);
  });
});

describe.each(SERVERS)('sqlIndexes on $label', (server) => {
  const suite = useSuiteDatabase(server);

  it('runs every statement twice, and a selective filter on a relational layout of thousands of rows uses an index', async () => {
    await suite.db().exec(`
      INSERT INTO "we""ird"."items.v1"
        SELECT i, i % 1000, i % 777, 'n' || i, 't' || i, timestamptz '2020-01-01T00:00:00Z' + i * interval '1 hour', (i % 500)::text
          FROM generate_series(1, 5000) AS i;
      INSERT INTO "we""ird".lines SELECT i / 2 + 1, 'l' || i, i % 100, timestamptz '2020-01-01T00:00:00Z', i FROM generate_series(1, 10000) AS i;
    `);
    const statements = [
      ...sqlIndexes(schema, relationalTarget),
      ...suite.foldings().flatMap((caseFolding) => sqlIndexes(schema, relationalTarget, { caseInsensitive: true, caseFolding })),
    ];
    for (const statement of [...statements, ...statements]) await suite.db().exec(statement);
    await suite.db().exec('ANALYZE "we""ird"."items.v1"; ANALYZE "we""ird".lines');
    const from = '"we""ird"."items.v1"';
    for (const query of ['amount=gte:10;lte:11', 'name=n42', 'ref.id=42', 'at=2020-01-05', 'lines.label=l7', 'lines.qty=gte:99&amount=5', 'orderBy=at&limit=5']) {
      const checked = check(query, schema);
      if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
      const filter = checked.value;
      const caseSettings = /name|ref|label/.test(query) ? [undefined, ...suite.foldings()] : [undefined];
      for (const caseFolding of caseSettings) {
        const sql = toSql(filter, relationalTarget, caseFolding === undefined ? {} : { caseInsensitive: true, caseFolding });
        const limit = query.includes('orderBy') ? ` LIMIT ${filter.page!.limit}` : '';
        const plan = await explain(suite.db(), `SELECT id FROM ${from} WHERE ${sql.text} ${sql.orderBy}${limit}`, sql.values);
        expect(plan, `${query} (${caseFolding ?? 'case-sensitive'})`).toMatch(INDEX_SCAN);
      }
    }
  });
});
