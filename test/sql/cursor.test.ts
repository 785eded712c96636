import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check, compile, defineSchema, nextCursor, sortItems, sqlConstraints, sqlIndexes, toSql, type CaseFolding, type Filter, type Schema, type SqlTarget } from '../../src/index';
import { SERVERS, useDatabase, type Database } from '../support/databases';
import { explain } from './support/database';
import { exactFoldings } from './support/folding';
import { object, writeJson, type Json } from './support/json';
import { DATE_STRINGS, ID_VALUES, NUMBER_STRINGS, RAW_NUMBERS, TEXTS } from './support/pools';

/**
 * A walk through every page by cursor (reference §9: pages of `after` until an empty one)
 * on every server the SQL suites use and on every target (relational, document, typed
 * document): `toSql`'s keyset predicate and full order, `LIMIT` of the page, then the
 * next request's `after` from `nextCursor` of the page's last row, read back from the
 * database as an application reads it (a row mapped to the schema's names; a document as
 * the driver parses it).
 *
 * - On data each target reads exactly (under `sqlConstraints`), the walk returns each
 *   matching row once, in `sortItems`' order: both directions, several keys, a number and
 *   a text cursor key, `caseInsensitive` or not, NULLs, ties, texts equal but for case
 *   (distinct rows), one instant or one double in several spellings (tied, as
 *   `sortItems` ties them).
 * - On any data (other JSON types, non-canonical strings, numbers past the doubles; NaN,
 *   ±Infinity and microseconds in the columns), every walk ends and returns no row
 *   twice; on the documents, every row the filter selects.
 */

const FIELDS = {
  n: { type: 'number', sortable: true },
  d: { type: 'date', sortable: true },
  s: { type: 'string', sortable: true },
  r: { type: 'ref', sortable: true },
} as const;

/** The two cursor keys: the row's number, and a text unique only case-sensitively (`a` and `A` are two rows). */
const SCHEMAS = {
  id: defineSchema({ fields: { id: { type: 'number', sortable: true }, code: 'string', ...FIELDS }, paging: { defaultLimit: 10, maxLimit: 50, cursor: { key: 'id' } } }),
  code: defineSchema({ fields: { id: 'number', code: { type: 'string', sortable: true }, ...FIELDS }, paging: { defaultLimit: 10, maxLimit: 50, cursor: { key: 'code' } } }),
};

const TABLE = 'walk_items';
const TARGETS: readonly (readonly [string, SqlTarget])[] = [
  ['relational', { table: TABLE, columns: { id: 'id', code: 'code', n: 'n', d: 'd', s: 's', 'r.id': 'r' } }],
  ['document', { document: 'doc', table: TABLE }],
  ['typed document', { document: 'doc', table: TABLE, typed: true }],
];

/** One row: its columns (`n` a float8's input text, `d` a timestamptz's) and its document. */
interface Row {
  readonly id: number;
  readonly code: string;
  readonly n: string | null;
  readonly d: string | null;
  readonly s: string | null;
  readonly r: string | null;
  readonly doc: Json;
}

/** Texts unique case-sensitively, many equal but for case, folded or not (`ß`, `ẞ`; `Σ`, `σ`, `ς`; `İ`). */
const CODES = ['a', 'A', 'b', 'B', 'aa', 'Aa', 'aA', 'é', 'É', 'ß', 'ẞ', 'Σ', 'σ', 'ς', 'İ', 'i', 'I', 'z', 'Z', '😀', '\uffff', ''];
const TEXT_VALUES = ['x', 'X', 'y', 'Y', 'é', 'É', '', 'Σ', 'σ'];

/**
 * One double in several JSON spellings, which every target reads as the same number: the
 * relational column holds the double; a document one of its spellings.
 */
const NUMBER_SPELLINGS: readonly (readonly [number, ...string[]])[] = [
  [0.1, '0.1', '0.10000000000000000001', '1e-1'],
  [2, '2', '2.0', '2e0', '2.000000000000000000001'],
  [-1.5, '-1.5', '-1.50'],
  [9007199254740992, '9007199254740992', '9007199254740993'],
  [1e21, '1e21', '1000000000000000000000'],
  [0, '0', '-0', '0.0', '1e-400'],
  [5e-324, '5e-324', '4.9406564584124654e-324'],
];

/** Instants, each in the canonical spellings of the typed target (`YYYY-MM-DD` only at a day's start; digits past the millisecond truncated). */
const INSTANTS = ['2023-01-01T00:00:00.000Z', '2023-01-01T10:00:00.000Z', '2023-01-01T10:00:00.500Z', '2022-12-31T23:59:59.999Z', '0001-01-01T00:00:00.000Z'];

function dateSpellings(iso: string): string[] {
  const [day, time] = [iso.slice(0, 10), iso.slice(11, 23)];
  const spellings = [`${day}T${time.slice(0, 8)}${time.endsWith('.000') ? '' : time.slice(8).replace(/0+$/, '')}`, `${day}T${time}`, `${day}T${time}71`];
  return time === '00:00:00.000' ? [day, ...spellings] : spellings;
}

/** Ids: texts, and integers written as JSON numbers (the relational column holds their digits). */
const REF_IDS: readonly Json[] = ['1', '10', '2', 'x', 'X', 7, 10];

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 5 });

/** Up to 16 rows, ids 1…n, each code once: `row(code, id)` makes each. */
const rowsOf = (row: (code: string, id: number) => fc.Arbitrary<Row>): fc.Arbitrary<Row[]> =>
  fc.uniqueArray(fc.constantFrom(...CODES), { minLength: 1, maxLength: 16 }).chain((codes) => fc.tuple(...codes.map((code, i) => row(code, i + 1))));

/** Rows the three targets read exactly: duplicates, NULLs and missing values in every key. */
const exactRows = rowsOf((code, id) =>
  fc
    .record({
      n: maybe(fc.constantFrom(...NUMBER_SPELLINGS).chain(([value, ...spellings]) => fc.constantFrom(...spellings).map((raw) => ({ value, raw })))),
      d: maybe(fc.constantFrom(...INSTANTS).chain((iso) => fc.constantFrom(...dateSpellings(iso)).map((text) => ({ iso, text })))),
      s: maybe(fc.constantFrom(...TEXT_VALUES)),
      r: maybe(fc.constantFrom(...REF_IDS)),
      nulls: fc.boolean(),
    })
    .map(({ n, d, s, r, nulls }): Row => {
      const entries: [string, Json][] = [['id', id], ['code', code]];
      // A missing key, or JSON null, for each value left out.
      const put = (key: string, value: Json | undefined) => (value !== undefined ? entries.push([key, value]) : nulls && entries.push([key, null]));
      put('n', n && { raw: n.raw });
      put('d', d?.text);
      put('s', s);
      put('r', r === undefined ? undefined : object([['id', r]]));
      return { id, code, n: n === undefined ? null : String(n.value), d: d?.iso ?? null, s: s ?? null, r: r === undefined ? null : String(r), doc: object(entries) };
    }),
);

/** Any JSON value at all, for the documents of the any-data walks. */
const anything: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(null, true, false, [], object([])),
  fc.constantFrom(...RAW_NUMBERS).map((raw): Json => ({ raw })),
  fc.constantFrom(...NUMBER_STRINGS, ...DATE_STRINGS, ...TEXTS),
  fc.constantFrom(...ID_VALUES),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Columns outside any JavaScript value (NaN, the infinities, microseconds), and documents of any JSON. */
const anyRows = rowsOf((code, id) =>
  fc
    .record({
      n: maybe(fc.constantFrom('NaN', 'Infinity', '-Infinity', '0.1', '2', '-1.5')),
      d: maybe(fc.constantFrom('infinity', '-infinity', '2023-01-01T10:00:00.000123Z', '2023-01-01T10:00:00.000987Z', '2023-01-01T10:00:00Z')),
      s: maybe(fc.constantFrom(...TEXT_VALUES)),
      r: maybe(fc.constantFrom('1', 'x')),
      values: fc.tuple(anything, anything, anything, anything),
      missing: fc.tuple(fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean()),
    })
    .map(({ n, d, s, r, values, missing }): Row => {
      const entries: [string, Json][] = [['id', id], ['code', code]];
      ['n', 'd', 's'].forEach((key, k) => missing[k] || entries.push([key, values[k]!]));
      if (!missing[3]) entries.push(['r', object([['id', values[3]!]])]);
      return { id, code, n: n ?? null, d: d ?? null, s: s ?? null, r: r ?? null, doc: object(entries) };
    }),
);

/** A sort of up to three keys, each either way, maybe the cursor key among them. */
const sorts = (key: 'id' | 'code') =>
  fc
    .uniqueArray(fc.constantFrom('n', 'd', 's', 'r.id', key), { maxLength: 3 })
    .chain((keys) => fc.tuple(...keys.map((k) => fc.constantFrom(k, `-${k}`))))
    .map((keys) => keys.join(','));

/** A walk's query: the cursor key, a sort, a page size, a filter or none, case folded or not. */
const walks = fc.constantFrom<'id' | 'code'>('id', 'code').chain((key) =>
  fc.record({
    key: fc.constant(key),
    orderBy: sorts(key),
    limit: fc.integer({ min: 1, max: 5 }),
    filter: fc.constantFrom({}, { n: 'gte:0' }, { s: 'x' }, { d: 'gte:2023-01-01' }),
    caseInsensitive: fc.boolean(),
  }),
);
type Walk = typeof walks extends fc.Arbitrary<infer W> ? W : never;

function checked(schema: Schema, query: Record<string, string>, caseInsensitive: boolean): Filter {
  const result = check(query, schema, { caseInsensitive });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}

async function load(db: Database, rows: readonly Row[]): Promise<void> {
  await db.exec(`TRUNCATE ${TABLE}`);
  await db.query(
    `INSERT INTO ${TABLE} SELECT (e->>'id')::int, e->>'code', (e->>'n')::float8, (e->>'d')::timestamptz, e->>'s', e->>'r', e->'doc' FROM jsonb_array_elements($1::jsonb) AS e`,
    [writeJson(rows.map((row) => object([['id', row.id], ['code', row.code], ['n', row.n], ['d', row.d], ['s', row.s], ['r', row.r], ['doc', row.doc]])))],
  );
}

/**
 * A row as the application hands it to `nextCursor`: the relational columns by the
 * schema's names, or the document. The date as its ISO text (`to_json`): PGlite's driver
 * reads the years before 100 as 19xx and 20xx (a `Date` of the year 0001 is 2001).
 */
function itemOf(target: SqlTarget, row: Record<string, unknown>): unknown {
  if ('document' in target) return row.doc;
  return { id: row.id, code: row.code, n: row.n, d: row.dt, s: row.s, r: row.r === null ? null : { id: row.r } };
}

/** The ids of a walk through every page, at most `rows + 1` pages (a walk that never ends is cut there). */
async function walk(db: Database, target: SqlTarget, { key, orderBy, limit, filter, caseInsensitive }: Walk, folding: CaseFolding, rows: number): Promise<number[]> {
  const schema = SCHEMAS[key];
  const query = { ...filter, ...(orderBy === '' ? {} : { orderBy }), limit: String(limit) };
  let page = checked(schema, query, caseInsensitive);
  const seen: number[] = [];
  for (let pages = 0; pages <= rows; pages++) {
    const { text, values, orderBy: order } = toSql(page, target, { caseFolding: folding });
    const { rows: found } = await db.query<Record<string, unknown>>(`SELECT id, code, n, to_json(d) #>> '{}' AS dt, s, r, doc FROM ${TABLE} WHERE ${text} ${order} LIMIT ${limit}`, values);
    seen.push(...found.map((row) => row.id as number));
    if (found.length < limit) return seen;
    page = checked(schema, { ...query, after: nextCursor(page, itemOf(target, found.at(-1)!)) }, caseInsensitive);
  }
  return [...seen, -1];
}

describe('sqlIndexes with cursor paging', () => {
  it('indexes each sort key (its NULL flag, then the key) followed by the cursor key, both directions, and the cursor key alone', () => {
    const statements = sqlIndexes(SCHEMAS.id, TARGETS[0]![1]);
    expect(statements).toContain('CREATE INDEX IF NOT EXISTS "walk_items_id_sort_qsf" ON "walk_items" (("id"::float8 IS NULL) ASC, ("id"::float8) ASC NULLS LAST)');
    expect(statements).toContain('CREATE INDEX IF NOT EXISTS "walk_items_s_cursor_qsf" ON "walk_items" ((("s") COLLATE "C" IS NULL) ASC, (("s") COLLATE "C") ASC NULLS LAST, ("id"::float8))');
    expect(statements).toContain('CREATE INDEX IF NOT EXISTS "walk_items_s_cursor_desc_qsf" ON "walk_items" ((("s") COLLATE "C" IS NOT NULL) DESC, (("s") COLLATE "C") DESC NULLS LAST, ("id"::float8))');
    expect(sqlIndexes(SCHEMAS.id, TARGETS[2]![1]).filter((statement) => statement.includes('_cursor'))).toHaveLength(8);
  });

  it('indexes a text cursor key under caseInsensitive by its folded form, then itself', () => {
    const statements = sqlIndexes(SCHEMAS.code, TARGETS[0]![1], { caseInsensitive: true, caseFolding: 'icu' });
    const folded = `((lower(translate("code", E'\\u0130\\u03A3', E'i\\u03C3') COLLATE pg_catalog."und-x-icu") COLLATE pg_catalog."C")) COLLATE "C"`;
    expect(statements).toContain(`CREATE INDEX IF NOT EXISTS "walk_items_code_sort_ci_icu_qsf" ON "walk_items" ((${folded} IS NULL) ASC, (${folded}) ASC NULLS LAST, (("code") COLLATE "C") ASC NULLS LAST)`);
    expect(statements).toContain(`CREATE INDEX IF NOT EXISTS "walk_items_n_cursor_qsf" ON "walk_items" (("n"::float8 IS NULL) ASC, ("n"::float8) ASC NULLS LAST, (${folded}), (("code") COLLATE "C"))`);
  });
});

describe('the keyset predicate on a relational table', () => {
  const page = (orderBy: string) => {
    const query = { ...(orderBy === '' ? {} : { orderBy }), limit: '20' };
    const first = checked(SCHEMAS.id, query, false);
    return checked(SCHEMAS.id, { ...query, after: nextCursor(first, { id: 7, n: 12.5, d: new Date('2023-01-20T10:00:00Z'), s: 'x' }) }, false);
  };

  it('is the plain row comparison of the columns, led by the NULL flag of the first', () => {
    expect(toSql(page('n'), TARGETS[0]![1])).toMatchObject({
      text: '((("walk_items"."n"::float8 IS NULL), "walk_items"."n"::float8, "walk_items"."id"::float8) > (false, $1::float8, $2::float8))',
      values: [12.5, 7],
    });
    expect(toSql(page(''), TARGETS[0]![1]).text).toBe('((("walk_items"."id"::float8 IS NULL), "walk_items"."id"::float8) > (false, $1::float8))');
  });

  it('starts at the cursor by a range of the first key, then orders its ties, in mixed directions', () => {
    expect(toSql(page('-d'), TARGETS[0]![1]).text).toBe(
      `(((date_trunc('milliseconds', "walk_items"."d" AT TIME ZONE 'UTC') IS NOT NULL), date_trunc('milliseconds', "walk_items"."d" AT TIME ZONE 'UTC')) <= (true, $1::timestamp) AND ` +
        `((date_trunc('milliseconds', "walk_items"."d" AT TIME ZONE 'UTC')) IS DISTINCT FROM ($1::timestamp) OR ("walk_items"."id"::float8) > ($2::float8)))`,
    );
    expect(toSql(page('-d'), TARGETS[0]![1]).values).toEqual(['2023-01-20T10:00:00.000Z', 7]);
  });

  it('passes only the NULLs after a missing value, ordered by the next keys', () => {
    const first = checked(SCHEMAS.id, { orderBy: 's', limit: '20' }, false);
    const after = checked(SCHEMAS.id, { orderBy: 's', limit: '20', after: nextCursor(first, { id: 7 }) }, false);
    expect(toSql(after, TARGETS[0]![1]).text).toBe('((("walk_items"."s") COLLATE "C" IS NULL) = true AND ("walk_items"."id"::float8) > ($1::float8))');
  });
});

describe.each(SERVERS)('a walk through every page by cursor on $label', (server) => {
  let db: Database;
  let foldings: CaseFolding[];
  useDatabase(server, { jit: false }, async (opened) => {
    db = opened;
    foldings = await exactFoldings(db);
    await db.exec(`CREATE TABLE ${TABLE} (id int PRIMARY KEY, code text, n float8, d timestamptz, s text, r text, doc jsonb)`);
    // The walks run with sqlIndexes' indexes in place (those of the number key, which the plans below need), and its statements run twice.
    for (const [, target] of [TARGETS[0]!, TARGETS[2]!]) for (const statement of [...sqlIndexes(SCHEMAS.id, target), ...sqlIndexes(SCHEMAS.id, target)]) await db.exec(statement);
  });
  const folding = () => fc.nat().map((n) => foldings[n % foldings.length]!);

  // Issue 24: a page after a cursor was a scan of every row before it (an index walked
  // from its start, the rows before the cursor filtered out one by one).
  it('starts a deep page at the cursor in an index, both directions, relational and typed document', async () => {
    await db.exec(`TRUNCATE ${TABLE}`);
    await db.exec(`INSERT INTO ${TABLE}
      SELECT i, 'c' || i, n, d, s, r, jsonb_build_object('id', i, 'code', 'c' || i, 'n', n, 'd', to_char(d AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'), 's', s, 'r', jsonb_build_object('id', r))
        FROM generate_series(1, 20000) AS i,
          LATERAL (SELECT (i % 997) / 10.0 AS n, timestamptz '2023-01-01T00:00:00Z' + (i % 991) * interval '1 hour' AS d, 's' || (i % 983) AS s, (i % 7)::text AS r) AS v`);
    await db.exec(`ANALYZE ${TABLE}`);
    const item = { id: 12345, code: 'c12345', n: 12.3, d: '2023-01-20T10:00:00', s: 's456', r: { id: '3' } };
    for (const [name, target] of [TARGETS[0]!, TARGETS[2]!]) {
      // '': no orderBy, the sort is the cursor key alone (an integer column in the relational layout).
      for (const orderBy of ['', 'n', '-n', 'd', '-d', 's', '-s']) {
        const query = { ...(orderBy === '' ? {} : { orderBy }), limit: '20' };
        const { text, values, orderBy: order } = toSql(checked(SCHEMAS.id, { ...query, after: nextCursor(checked(SCHEMAS.id, query, false), item) }, false), target);
        const plan = await explain(db, `SELECT id FROM ${TABLE} WHERE ${text} ${order} LIMIT 20`, values);
        expect(plan, `${name} ${orderBy}\n${plan}`).toMatch(/Index Cond: \(ROW\(/);
        expect(plan, `${name} ${orderBy}\n${plan}`).not.toMatch(/\bSort\b/);
      }
    }
  });

  it.each(TARGETS)('yields each matching row once, in sortItems order, on data it reads exactly: %s', async (_name, target) => {
    // The data are what sqlConstraints lets in.
    for (const schema of Object.values(SCHEMAS)) for (const statement of sqlConstraints(schema, target)) await db.exec(statement);
    await fc.assert(
      fc.asyncProperty(exactRows, walks, folding(), async (rows, w, f) => {
        await load(db, rows);
        const items = rows.map((row) => JSON.parse(writeJson(row.doc)) as { id: number });
        const filter = checked(SCHEMAS[w.key], { ...w.filter, ...(w.orderBy === '' ? {} : { orderBy: w.orderBy }) }, w.caseInsensitive);
        const expected = sortItems(items.filter(compile(filter)), filter).map((item) => item.id);
        const seen = await walk(db, target, w, f, rows.length);
        expect(seen, `${JSON.stringify(w)} (${f})\n${rows.map((row) => writeJson(row.doc)).join('\n')}`).toEqual(expected);
      }),
      { numRuns: RUNS },
    );
  });

  it.each(TARGETS)('ends, and returns no row twice, on any data: %s', async (_name, target) => {
    // No constraint: any data at all.
    const { rows: checks } = await db.query<{ name: string }>(`SELECT conname AS name FROM pg_constraint WHERE conrelid = '${TABLE}'::regclass AND contype = 'c'`);
    for (const { name } of checks) await db.exec(`ALTER TABLE ${TABLE} DROP CONSTRAINT "${name}"`);
    await fc.assert(
      fc.asyncProperty(anyRows, walks, folding(), async (rows, w, f) => {
        await load(db, rows);
        const seen = await walk(db, target, w, f, rows.length);
        const why = `${JSON.stringify(w)} (${f}): ${seen}\n${rows.map((row) => `${writeJson(row.doc)} ${row.n} ${row.d}`).join('\n')}`;
        expect(seen.at(-1), why).not.toBe(-1);
        expect(new Set(seen).size, why).toBe(seen.length);
        // The documents: exactly the rows the filter selects, each once (a cursor holds the row's own values).
        if ('document' in target) {
          const { text, values } = toSql(checked(SCHEMAS[w.key], w.filter, w.caseInsensitive), target, { caseFolding: f });
          const { rows: all } = await db.query<{ id: number }>(`SELECT id FROM ${TABLE} WHERE ${text}`, values);
          expect([...seen].sort((a, b) => a - b), why).toEqual(all.map((row) => row.id).sort((a, b) => a - b));
        }
      }),
      { numRuns: RUNS },
    );
  });
});

/** Walks per target, property and server: six servers, three targets, two properties (see the report of issue 32 for their cost). */
const RUNS = 15;
