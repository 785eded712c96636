import { PGlite } from '@electric-sql/pglite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, defineSchema, toSql, type Condition, type Filter, type QueryInput, type Schema, type SqlTarget } from '../../src/index';
import { escapeText, quoted } from './support/arbitraries';
import { STARTUP_TIMEOUT, TEST_TIMEOUT } from './support/database';

let db: PGlite;

beforeAll(async () => {
  db = await PGlite.create();
  await db.exec(`
    CREATE SCHEMA "acc""ts";
    CREATE TABLE "acc""ts"."in.voices" (id int PRIMARY KEY, "vendor ""name""" text, "total; --amount" float8, doc jsonb);
    CREATE TABLE "acc""ts".lines ("invoice id" int, "de$1scription" text);
  `);
}, STARTUP_TIMEOUT);

afterAll(async () => {
  await db.close();
}, STARTUP_TIMEOUT);

/** Every kind of field, refs inside child arrays included: the SQL shapes, apart from any one resource of the catalog. */
const invoices = defineSchema({
  fields: {
    customerRef: { type: 'ref' },
    totalAmount: 'number',
    docNumber: 'string',
    issueDate: 'date',
    dueDate: 'date',
    lines: { type: 'array', of: { description: 'string', amount: 'number', itemRef: { type: 'ref' } } },
  },
  params: ['limit', 'offset'],
});

function filterOf(query: QueryInput, schema: Schema = invoices): Filter {
  const result = check(query, schema);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}

const vendors = defineSchema({
  fields: { vendorName: 'string', totalAmount: 'number', lines: { type: 'array', of: { description: 'string' } } },
});

/** Identifiers that would break out of naive quoting. */
const hostileTarget: SqlTarget = {
  table: ['acc"ts', 'in.voices'],
  columns: { vendorName: 'vendor "name"', totalAmount: 'total; --amount' },
  arrays: { lines: { table: ['acc"ts', 'lines'], parentKey: 'id', foreignKey: 'invoice id', columns: { description: 'de$1scription' } } },
};

/** Values a careless translation would splice into SQL. */
const HOSTILE = ["O'Reilly", "x' OR '1'='1", 'back\\slash', '50% off', 'under_score', '$1', '-- comment', '/* c */', 'semi;colon', 'quote"d', "E'\\\\'"];

async function insertHostileRows(): Promise<void> {
  await db.exec(`TRUNCATE "acc""ts"."in.voices", "acc""ts".lines`);
  for (const [i, name] of HOSTILE.entries()) {
    await db.query(`INSERT INTO "acc""ts"."in.voices" VALUES ($1, $2, $3, jsonb_build_object('vendorName', $2::text))`, [i + 1, name, i + 1]);
    await db.query(`INSERT INTO "acc""ts".lines VALUES ($1, $2)`, [i + 1, name]);
  }
}

describe('toSql', () => {
  it('gives TRUE for a filter without conditions', () => {
    expect(toSql(filterOf(''), { columns: {} })).toEqual({ text: 'TRUE', values: [], orderBy: '' });
    expect(toSql(filterOf('limit=10'), { document: 'doc' })).toEqual({ text: 'TRUE', values: [], orderBy: '' });
  });

  it('writes each test of a relational filter as a comparison of a quoted column with a bound value', () => {
    const target: SqlTarget = { table: 'invoices', columns: { totalAmount: 'total_amount', 'customerRef.id': 'customer_id', issueDate: 'issue_date' } };
    const sql = toSql(filterOf('totalAmount=gte:100;lte:200&customerRef.id=42&issueDate=2023-01-09'), target);
    expect(sql.text).toBe(
      '("invoices"."total_amount" >= $1::numeric AND "invoices"."total_amount" <= $2::numeric' +
        ' AND "invoices"."customer_id"::text = $3' +
        ' AND "invoices"."issue_date" >= $4::timestamptz AND "invoices"."issue_date" < $5::timestamptz)',
    );
    expect(sql.values).toEqual([100, 200, '42', '2023-01-09T00:00:00.000Z', '2023-01-10T00:00:00.000Z']);
  });

  it('closes a one-sided comparison where the evaluator would refuse non-finite data', () => {
    const sql = toSql(filterOf('totalAmount=gt:5&dueDate=lt:2023-01-01'), { columns: { totalAmount: 'a', dueDate: 'd' } });
    expect(sql.text).toBe(`("a" > $1::numeric AND "a" <= 1.7976931348623157e308 AND "d" < $2::timestamptz AND "d" > '-infinity')`);
  });

  it('writes the years 0000 and 10000 of date bounds as Postgres reads them', () => {
    const sql = toSql(filterOf('issueDate=0000-01-01&dueDate=9999-12-31'), { columns: { issueDate: 'i', dueDate: 'd' } });
    expect(sql.values).toEqual(['0001-01-01T00:00:00.000Z BC', '0001-01-02T00:00:00.000Z BC', '9999-12-31T00:00:00.000Z', '10000-01-01T00:00:00.000Z']);
  });

  it('puts all tests of a child-array parameter in one EXISTS, one EXISTS per parameter', () => {
    const target: SqlTarget = {
      table: 'invoices',
      columns: {},
      arrays: { lines: { table: 'invoice_lines', parentKey: 'id', foreignKey: 'invoice_id', columns: { amount: 'amount', description: 'description' } } },
    };
    const sql = toSql(filterOf('lines.amount=gte:10;lte:20&lines.description=%25fee'), target);
    expect(sql.text).toBe(
      '(EXISTS (SELECT 1 FROM "invoice_lines" AS "lines" WHERE "lines"."invoice_id" = "invoices"."id" AND "lines"."amount" >= $1::numeric AND "lines"."amount" <= $2::numeric)' +
        ` AND EXISTS (SELECT 1 FROM "invoice_lines" AS "lines" WHERE "lines"."invoice_id" = "invoices"."id" AND "lines"."description" LIKE $3 ESCAPE E'\\\\'))`,
    );
  });

  it('escapes %, _ and \\ of the text in LIKE patterns and folds case on both sides', () => {
    const sql = toSql(filterOf('docNumber=%25A\\%25_B\\\\%25'), { columns: { docNumber: 'n' } }, { caseInsensitive: true });
    expect(sql.text).toBe(`(lower(("n") COLLATE "pg_c_utf8") LIKE $1 ESCAPE E'\\\\')`);
    expect(sql.values).toEqual(['%a\\%\\_b\\\\%']);
    const plain = toSql(filterOf('docNumber=%25A'), { columns: { docNumber: 'n' } }, { caseInsensitive: true, foldCollation: null });
    expect(plain.text).toBe(`(lower("n") LIKE $1 ESCAPE E'\\\\')`);
  });

  it('numbers placeholders from firstParam, so the SQL can follow a query\'s own parameters', async () => {
    await insertHostileRows();
    const sql = toSql(filterOf('vendorName=%25_%25&totalAmount=gte:2', vendors), hostileTarget, { firstParam: 3 });
    expect(sql.text.match(/\$\d+/g)).toEqual(['$3', '$4']);
    const rows = await db.query<{ id: number }>(
      `SELECT id FROM "acc""ts"."in.voices" WHERE id >= $1 AND id <= $2 AND ${sql.text} ORDER BY id`,
      [1, 9, ...sql.values],
    );
    expect(rows.rows.map((r) => r.id)).toEqual([5]); // only "under_score" holds a literal "_"
  }, TEST_TIMEOUT);

  it('quotes identifiers: quotes doubled, dots in name parts kept, never splitting a part', () => {
    const sql = toSql(filterOf('vendorName=x', vendors), hostileTarget);
    expect(sql.text).toBe('("acc""ts"."in.voices"."vendor ""name""" = $1)');
    expect(toSql(filterOf('vendorName=x', vendors), { table: 'public.vendors', columns: { vendorName: 'name' } }).text).toBe('("public"."vendors"."name" = $1)');
  });

  it('binds hostile values and finds exactly them, in columns, child tables and documents', async () => {
    await insertHostileRows();
    for (const [i, value] of HOSTILE.entries()) {
      for (const [key, target] of [
        ['vendorName', hostileTarget],
        ['lines.description', hostileTarget],
        ['vendorName', { document: 'doc', table: ['acc"ts', 'in.voices'] }],
      ] as const) {
        for (const [operand, like] of [[quoted(value), false], [`"%${escapeText(value)}%"`, true]] as const) {
          const sql = toSql(filterOf({ [key]: operand }, vendors), target);
          const bound = like ? `%${value.replace(/[\\%_]/g, '\\$&')}%` : value;
          expect(sql.values).toContain(bound);
          const rows = await db.query<{ id: number }>(`SELECT id FROM "acc""ts"."in.voices" WHERE ${sql.text} ORDER BY id`, sql.values);
          const expected = like ? HOSTILE.flatMap((h, j) => (h.includes(value) ? [j + 1] : [])) : [i + 1];
          expect(rows.rows.map((r) => r.id), `${key}=${operand}`).toEqual(expected);
        }
      }
    }
  }, TEST_TIMEOUT);

  it('never puts a value in the text: filters that differ only in their values give the same text', () => {
    const schema = defineSchema({
      fields: { s: 'string', n: 'number', d: 'date', r: { type: 'ref' }, a: { type: 'array', of: { s: 'string', n: 'number' } } },
    });
    const targets: SqlTarget[] = [
      { table: 't', columns: { s: 's', n: 'n', d: 'd', 'r.id': 'r' }, arrays: { a: { table: 'c', parentKey: 'id', foreignKey: 'p', columns: { s: 's', n: 'n' } } } },
      { document: 'doc' },
    ];
    const text = fc.string({ unit: 'binary', maxLength: 12 }).map((s) => s.replaceAll('\0', ''));
    const date = fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true });
    /** The same filter with every value replaced by another of its type. */
    const revalue = (filter: Filter, pick: () => { s: string; n: number; d: Date }): Filter => ({
      ...filter,
      conditions: filter.conditions.map((c): Condition => {
        const v = pick();
        switch (c.type) {
          case 'number':
            return { ...c, tests: c.tests.map((t) => ({ ...t, value: v.n })) };
          case 'date':
            return { ...c, tests: c.tests.map((t) => ({ ...t, value: { start: v.d.getTime(), end: v.d.getTime() + 1, unit: 'instant' as const } })) };
          default:
            return { ...c, tests: c.tests.map((t) => (t.op === 'eq' ? { op: 'eq' as const, value: v.s } : { op: 'like' as const, segments: t.segments.map(() => v.s) })) };
        }
      }),
    });
    const query = fc.constantFrom('s=a&n=1&d=2023-01-09&r.id=7', 's=a%25;b&n=gt:1;lt:2&a.s=%25x&a.n=lte:3&d=gte:2023-01-09T10:00Z', 'r.id=%25&a.s=x;y');
    fc.assert(
      fc.property(query, fc.boolean(), fc.array(fc.record({ s: text, n: fc.double({ noNaN: true, noDefaultInfinity: true }), d: date }), { minLength: 8, maxLength: 8 }), (q, ci, picks) => {
        const base = filterOf(q, schema);
        let k = 0;
        const other = revalue(base, () => picks[k++ % picks.length]!);
        for (const target of targets) {
          const a = toSql(base, target, { caseInsensitive: ci });
          const b = toSql(other, target, { caseInsensitive: ci });
          expect(b.text).toBe(a.text);
          expect(b.values.length).toBe(a.values.length);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('throws a TypeError naming what the target lacks', () => {
    const lines = filterOf('lines.amount=1');
    expect(() => toSql(filterOf('totalAmount=1'), { columns: {} })).toThrow(/no column for the field "totalAmount"/);
    // Only own properties: a field named like an Object.prototype method is not "mapped" by the prototype.
    const named = defineSchema({ fields: { toString: 'string' } });
    expect(() => toSql(filterOf('toString=x', named), { columns: {} })).toThrow(TypeError);
    expect(() => toSql(lines, { columns: {} })).toThrow(/no child table for the array "lines"/);
    const arrays = { lines: { table: 'lines', parentKey: 'id', foreignKey: 'invoice_id', columns: { amount: 'amount' } } };
    expect(() => toSql(lines, { columns: {}, arrays })).toThrow(/needs the target's "table"/);
    expect(() => toSql(lines, { table: 'lines', columns: {}, arrays })).toThrow(/needs an "alias"/);
    expect(() => toSql(lines, { table: 'lines', columns: {}, arrays: { lines: { ...arrays.lines, alias: 'l' } } })).not.toThrow();
    expect(() => toSql(filterOf('totalAmount=1'), { columns: { totalAmount: '' } })).toThrow(/non-empty string without NUL/);
    expect(() => toSql(filterOf('totalAmount=1'), { columns: { totalAmount: 'a\0b' } })).toThrow(TypeError);
    const empty = filterOf('totalAmount=1');
    const withoutTests: Filter = { ...empty, conditions: [{ ...empty.conditions[0]!, type: 'number', tests: [] }] };
    expect(() => toSql(withoutTests, { document: 'doc' })).toThrow(/"totalAmount" has no tests/);
    expect(() => toSql(filterOf(''), { columns: {} }, { firstParam: 0 })).toThrow(/firstParam/);
    expect(() => toSql(filterOf(''), { columns: {} }, { firstParam: 1.5 })).toThrow(/firstParam/);
  });

  it('runs on Postgres for every field type, relational and document', async () => {
    await db.exec(`
      CREATE TABLE IF NOT EXISTS invoices (id int, total_amount float8, customer_id text, issue_date timestamptz, doc jsonb);
      CREATE TABLE IF NOT EXISTS invoice_lines (invoice_id int, amount numeric, description text, item_id int8);
    `);
    const target: SqlTarget = {
      table: 'invoices',
      columns: { totalAmount: 'total_amount', 'customerRef.id': 'customer_id', issueDate: 'issue_date' },
      arrays: { lines: { table: 'invoice_lines', parentKey: 'id', foreignKey: 'invoice_id', columns: { amount: 'amount', description: 'description', 'itemRef.id': 'item_id' } } },
    };
    const filter = filterOf('totalAmount=gt:1&customerRef.id=4%25&issueDate=lte:2023-01-09T10:00:00%2B01:00&lines.amount=lt:5;gte:1&lines.itemRef.id=7&lines.description=x');
    for (const [t, ci] of [[target, false], [target, true], [{ document: 'doc', table: 'invoices' }, true]] as const) {
      const sql = toSql(filter, t, { caseInsensitive: ci });
      await expect(db.query(`SELECT count(*) FROM invoices WHERE ${sql.text}`, sql.values)).resolves.toBeDefined();
    }
  }, TEST_TIMEOUT);
});
