import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  check,
  defineSchema,
  detectCaseFolding,
  toSql,
  toSqlTemplate,
  type CaseFolding,
  type Condition,
  type Filter,
  type QueryInput,
  type Schema,
  type SqlTarget,
} from '../../src/index';
import { SERVERS, useDatabase, type Database } from '../support/databases';
import { escapeText, quoted } from './support/arbitraries';

/** Every kind of field, refs inside child arrays included: the SQL shapes, apart from any one resource of the catalog. */
const invoices = defineSchema({
  fields: {
    customerRef: { type: 'ref' },
    totalAmount: 'number',
    docNumber: 'string',
    issueDate: 'date',
    dueDate: 'date',
    balance: 'number',
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

async function insertHostileRows(db: Database): Promise<void> {
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
    expect(sql.text).toBe(`("a" >= $1::numeric AND "a" <= $2::numeric AND "d" > '-infinity' AND "d" < $3::timestamptz)`);
    // gt:5 is "at least the next double above 5"; the side without a bound ends at the largest double.
    expect(sql.values).toEqual([5.000000000000001, Number.MAX_VALUE, '2023-01-01T00:00:00.000Z']);
  });

  it('merges the comparisons of one parameter into one interval, as compile does', () => {
    const target: SqlTarget = { columns: { totalAmount: 'a', issueDate: 'd' } };
    const sql = toSql(filterOf('totalAmount=gte:1;gt:2;lte:9;lt:10;gte:0&issueDate=gte:2023-01-01;lt:2023-03-01;gt:2023-01-09;lte:2023-12-31'), target);
    expect(sql.text).toBe(`("a" >= $1::numeric AND "a" <= $2::numeric AND "d" >= $3::timestamptz AND "d" < $4::timestamptz)`);
    expect(sql.values).toEqual([2.0000000000000004, 9, '2023-01-10T00:00:00.000Z', '2023-03-01T00:00:00.000Z']);
    // An empty interval keeps the same text, with bounds that nothing lies between.
    const empty = toSql(filterOf('totalAmount=gt:5;lt:5&issueDate=gte:2023-01-02;lt:2023-01-01'), target);
    expect(empty.text).toBe(sql.text);
    expect(empty.values).toEqual([1, 0, '1970-01-01T00:00:00.000Z', '1970-01-01T00:00:00.000Z']);
    const document = toSql(filterOf('totalAmount=gte:1;gt:2;lte:9;lt:10&issueDate=gte:2023-01-01;lt:2023-03-01;gt:2023-01-09'), { document: 'doc' });
    expect(document.values).toEqual([
      '2.0000000000000002220446049250313080847263336181640625',
      '9.00000000000000088817841970012523233890533447265625',
      '(]',
      Date.parse('2023-01-10T00:00:00Z'),
      Date.parse('2023-03-01T00:00:00Z'),
    ]);
  });

  it('binds a constant number of values per number or date parameter, whatever its number of clauses (issue 14)', () => {
    const targets: SqlTarget[] = [{ columns: { balance: 'b', issueDate: 'd' } }, { document: 'doc' }];
    for (const target of targets) {
      const one = toSql(filterOf('balance=1e-300'), target);
      const sixteen = toSql(filterOf(`balance=${Array(16).fill('1e-300').join(';')}`), target);
      expect(sixteen).toEqual(one);
      const dates = toSql(filterOf(`issueDate=${Array(16).fill('gte:2023-01-09').join(';')}`), target);
      expect(dates.values.length).toBeLessThanOrEqual(2);
    }
    // The reproduction: 64 parameters of 16 clauses each, 7.7 KB of query, bound 3,072 values (2.16 MB) before.
    const query = Array(64).fill(`balance=${Array(16).fill('1e-300').join(';')}`).join('&');
    const sql = toSql(filterOf(query), { document: 'doc' });
    expect(sql.values.length).toBe(64 * 3);
    expect(sql.values.reduce<number>((n, v) => n + String(v).length, 0)).toBeLessThan(20 * query.length);
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
    expect(sql.text).toBe(`((lower(("n") COLLATE pg_catalog."pg_c_utf8") COLLATE pg_catalog."C") LIKE $1 ESCAPE E'\\\\')`);
    expect(sql.values).toEqual(['%a\\%\\_b\\\\%']);
  });

  it('folds case as the chosen caseFolding does, the bound values alike', () => {
    const filter = filterOf('docNumber=ÉCOLE İ ΣΑΣ');
    const target = { columns: { docNumber: 'n' } };
    const fold = (caseFolding: CaseFolding) => toSql(filter, target, { caseInsensitive: true, caseFolding });
    expect(fold('pg_c_utf8')).toEqual({ text: `((lower(("n") COLLATE pg_catalog."pg_c_utf8") COLLATE pg_catalog."C") = $1)`, values: ['école i σασ'], orderBy: '' });
    expect(fold('icu')).toEqual({
      text: `((lower(translate("n", E'\\u0130\\u03A3', E'i\\u03C3') COLLATE pg_catalog."und-x-icu") COLLATE pg_catalog."C") = $1)`,
      values: ['école i σασ'],
      orderBy: '',
    });
    expect(fold('ascii')).toEqual({ text: `(lower(("n") COLLATE pg_catalog."C") = $1)`, values: ['École İ ΣΑΣ'], orderBy: '' });
    // Without caseInsensitive, the folding changes nothing.
    expect(toSql(filter, target, { caseFolding: 'ascii' })).toEqual({ text: '("n" = $1)', values: ['ÉCOLE İ ΣΑΣ'], orderBy: '' });
  });

  it('gives the same SQL as template-tag arguments, the values in reading order', () => {
    const target: SqlTarget = {
      table: 'invoices',
      columns: { totalAmount: 'total $1', vendorName: 'vendor' },
      arrays: { lines: { table: 'invoice_lines', parentKey: 'id', foreignKey: 'invoice_id', columns: { description: 'd' } } },
    };
    const filter = filterOf('vendorName=%25acme%25&totalAmount=gt:5&lines.description=fee;%25e%25', vendors);
    for (const options of [{}, { caseInsensitive: true }] as const) {
      const [strings, ...values] = toSqlTemplate(filter, target, options);
      const sql = toSql(filter, target, options);
      expect(strings.length).toBe(values.length + 1);
      expect(strings.raw).toEqual([...strings]);
      expect(values).toEqual(sql.values);
      expect(strings.reduce((text, part, i) => `${text}$${i}${part}`)).toBe(sql.text);
    }
    const [strings, ...values] = toSqlTemplate(filterOf(''), { columns: {} });
    expect([[...strings], values]).toEqual([['TRUE'], []]);
  });

  it('quotes identifiers: quotes doubled, dots in name parts kept, never splitting a part', () => {
    const sql = toSql(filterOf('vendorName=x', vendors), hostileTarget);
    expect(sql.text).toBe('("acc""ts"."in.voices"."vendor ""name""" = $1)');
    expect(toSql(filterOf('vendorName=x', vendors), { table: 'public.vendors', columns: { vendorName: 'name' } }).text).toBe('("public"."vendors"."name" = $1)');
  });

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
    expect(() => toSql(withoutTests, { document: 'doc' })).toThrow(/the tests of the condition on "totalAmount" must be a non-empty array, not an empty array/);
  });

  it('throws a TypeError for a hand-built condition it cannot translate, never writing undefined into SQL (issue 14)', () => {
    const base = filterOf('totalAmount=gte:1&docNumber=x&issueDate=2023-01-09');
    const [number, text, date] = base.conditions as [Condition, Condition, Condition];
    const targets: SqlTarget[] = [{ columns: { totalAmount: 'a', docNumber: 'v', issueDate: 'd' } }, { document: 'doc' }];
    const broken: [unknown, RegExp][] = [
      [{ ...number, type: 'money' }, /the type of the condition on "totalAmount" must be one of "number", "string", "date", "id", not the string "money"/],
      [{ ...number, type: undefined }, /the type of the condition on "totalAmount" must be .*, not undefined/],
      [{ ...number, tests: [{ op: 'ne', value: 1 }] }, /test 0 of the condition on "totalAmount" must be \{ op, value \} with an operator \(eq, gt, gte, lt, lte\) and a finite number/],
      [{ ...number, tests: [{ op: 'gte', value: '1' }] }, /finite number/],
      [{ ...number, tests: [{ op: 'gte', value: Infinity }] }, /finite number/],
      [{ ...number, tests: undefined }, /the tests of the condition on "totalAmount" must be a non-empty array, not undefined/],
      [{ ...text, tests: [{ op: 'gt', value: 'x' }] }, /test 0 of the condition on "docNumber" must be \{ op: "eq", value \} with a string, or \{ op: "like", segments \} with two strings or more/],
      [{ ...text, tests: [{ op: 'eq' }] }, /with a string/],
      [{ ...text, tests: [{ op: 'like', segments: 'x' }] }, /segments/],
      [{ ...text, tests: [null] }, /test 0 of the condition on "docNumber" must be .*, not null/],
      [{ ...date, tests: [{ op: 'eq', value: { start: 0 } }] }, /DateRange/],
      [{ ...date, tests: [{ op: 'lte', value: { start: 1e20, end: 2e20 } }] }, /DateRange/],
      [{ ...date, path: [] }, /path/],
      [{ ...date, key: 7 }, /key/],
      [{ ...date, array: 5 }, /array/],
      [42, /condition 0 must be an object with its key, the parameter's name as sent, not the number 42/],
    ];
    for (const [condition, message] of broken) {
      for (const target of targets) {
        const filter = { ...base, conditions: [condition] } as unknown as Filter;
        expect(() => toSql(filter, target), JSON.stringify(condition)).toThrow(TypeError);
        expect(() => toSql(filter, target), JSON.stringify(condition)).toThrow(message);
      }
    }
    // The sort too: an unknown type or direction would be undefined in the ORDER BY.
    const field = { key: 'totalAmount', path: ['totalAmount'], direction: 'asc', type: 'number' };
    const sorts: [unknown, RegExp][] = [
      [[{ ...field, type: 'money' }], /the type of the sort key "totalAmount" must be one of "number", "string", "date", "id", not the string "money"/],
      [[{ ...field, direction: 'up' }], /the direction of the sort key "totalAmount" must be "asc" or "desc", not the string "up"/],
      [[{ ...field, path: 'totalAmount' }], /the path of the sort key "totalAmount" must be a non-empty array of property names/],
      [[{ ...field, key: undefined }], /sort key 0 must be an object with its key, the field's path, not an object/],
      ['totalAmount', /the sort of the filter must be an array of sort fields, not the string "totalAmount"/],
    ];
    for (const [sort, message] of sorts) {
      for (const target of targets) {
        const filter = { ...base, sort } as unknown as Filter;
        expect(() => toSql(filter, target), JSON.stringify(sort)).toThrow(TypeError);
        expect(() => toSql(filter, target), JSON.stringify(sort)).toThrow(message);
      }
    }
  });

  it('never writes undefined into SQL, whatever a hand-built condition holds: a TypeError or a well-formed query', () => {
    const base = filterOf('totalAmount=gte:1&docNumber=x&issueDate=2023-01-09&customerRef.id=%25');
    const anything = fc.oneof(fc.constantFrom('number', 'date', 'string', 'id', 'eq', 'like', 'gt', 'lte', 'gte', 'lt'), fc.anything());
    const test = fc.record({ op: anything, value: anything, segments: anything }, { requiredKeys: [] });
    const condition = fc.record({ type: anything, key: anything, path: anything, tests: fc.oneof(fc.array(test), anything) }, { requiredKeys: [] });
    const targets: SqlTarget[] = [{ columns: { totalAmount: 'a', docNumber: 'v', issueDate: 'd', 'customerRef.id': 'c' } }, { document: 'doc' }];
    fc.assert(
      fc.property(fc.nat(3), condition, fc.boolean(), (at, changes, ci) => {
        const conditions = base.conditions.map((c, i) => (i === at ? { ...c, ...changes } : c));
        const filter = { ...base, conditions } as unknown as Filter;
        for (const target of targets) {
          let sql;
          try {
            sql = toSql(filter, target, { caseInsensitive: ci });
          } catch (error) {
            expect(error).toBeInstanceOf(TypeError);
            continue;
          }
          expect(sql.text).not.toMatch(/undefined|NaN|null|\[object/);
          expect(sql.values.every((v) => (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'string')).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('checks its own arguments, with a TypeError that says what was expected', () => {
    const filter = filterOf('totalAmount=1');
    const target = { columns: { totalAmount: 'a' } };
    const cases: [() => unknown, RegExp][] = [
      [() => toSql(undefined as never, target), /the filter must be a Filter \(the value of a successful check\(\) or validate\(\)\), not undefined/],
      [() => toSql({ ok: true, value: filter } as never, target), /must be a Filter .* This is a Result/],
      [() => toSql(filter, null as never), /the target must be \{ columns, table\?, arrays\? \} for a table, or \{ document, table\?, typed\? \}/],
      [() => toSql(filter, 'invoices' as never), /the target must be/],
      [() => toSql(filter, target, 'ci' as never), /the options must be an object \(caseInsensitive, caseFolding, firstParam, tieBreaker\), not the string "ci"/],
      [() => toSql(filter, target, { caseInsensitive: 'yes' as never }), /"caseInsensitive" must be true or false, not the string "yes"/],
      [() => toSql(filter, target, { caseFolding: 'tr_TR' as never }), /"caseFolding" must be one of "pg_c_utf8", "icu", "ascii", not the string "tr_TR"/],
      [() => toSql(filter, target, { firstParam: 0 }), /"firstParam" must be a positive integer, not the number 0/],
      [() => toSql(filter, target, { firstParam: 1.5 }), /firstParam/],
      [() => toSqlTemplate(filter, undefined as never), /the target must be/],
      [() => toSqlTemplate(filter, target, { firstParam: 3 } as never), /firstParam does not apply/],
      // A misspelt option would be ignored without a word: the ORDER BY without its tie-breaker.
      [() => toSql(filter, target, { tiebreaker: 'id' } as never), /^toSql: unknown option "tiebreaker"; the options are caseInsensitive, caseFolding, firstParam, tieBreaker\.$/],
      [() => toSql(filter, target, { codegen: false } as never), /unknown option "codegen"/],
      [() => toSqlTemplate(filter, target, { caseinsensitive: true } as never), /^toSqlTemplate: unknown option "caseinsensitive"; the options are caseInsensitive, caseFolding\.$/],
      [() => toSqlTemplate(filter, target, { tieBreaker: 'id' } as never), /tieBreaker does not apply: the template is the WHERE expression; take the ORDER BY clause from toSql/],
    ];
    for (const [call, message] of cases) {
      expect(call).toThrow(TypeError);
      expect(call).toThrow(message);
    }
  });

});

describe.each(SERVERS)('toSql on $label', (server) => {
  let db: Database;
  let folding: CaseFolding;

  useDatabase(server, {}, async (opened) => {
    db = opened;
    await db.exec(`
      CREATE SCHEMA "acc""ts";
      CREATE TABLE "acc""ts"."in.voices" (id int PRIMARY KEY, "vendor ""name""" text, "total; --amount" float8, doc jsonb);
      CREATE TABLE "acc""ts".lines ("invoice id" int, "de$1scription" text);
    `);
    folding = await detectCaseFolding(db);
  });

  it('numbers placeholders from firstParam, so the SQL can follow a query\'s own parameters', async () => {
    await insertHostileRows(db);
    const sql = toSql(filterOf('vendorName=%25_%25&totalAmount=gte:2', vendors), hostileTarget, { firstParam: 3 });
    expect(sql.text.match(/\$\d+/g)).toEqual(['$3', '$4', '$5']);
    const rows = await db.query<{ id: number }>(
      `SELECT id FROM "acc""ts"."in.voices" WHERE id >= $1 AND id <= $2 AND ${sql.text} ORDER BY id`,
      [1, 9, ...sql.values],
    );
    expect(rows.rows.map((r) => r.id)).toEqual([5]); // only "under_score" holds a literal "_"
  });

  it('binds hostile values and finds exactly them, in columns, child tables and documents', async () => {
    await insertHostileRows(db);
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
      const sql = toSql(filter, t, { caseInsensitive: ci, caseFolding: folding });
      await expect(db.query(`SELECT count(*) FROM invoices WHERE ${sql.text}`, sql.values)).resolves.toBeDefined();
    }
  });
});
