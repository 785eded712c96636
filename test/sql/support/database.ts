import type { DocumentTarget, RelationalTarget, SqlQuery } from '../../../src/index';
import { writeJson, type Json } from './json';
import type { TypedItem } from './arbitraries';
import type { Database } from '../../support/databases';

/**
 * The relational layout of the test schema, with identifiers that need quoting: a
 * schema and a table name with a quote and a dot, columns with spaces, quotes, `;`,
 * `--` and `$1`. Numbers are `float8` (amount, qty) and `numeric` (score); the
 * line items' ref id is an `int8` column, compared as text.
 */
export const relationalTarget: RelationalTarget = {
  table: ['we"ird', 'items.v1'],
  columns: { amount: 'Amount "total"', score: 'score', name: 'na;me--', toString: 'toString', at: 'at$1', 'ref.id': 'ref id' },
  arrays: {
    lines: {
      table: ['we"ird', 'lines'],
      alias: 'line',
      parentKey: 'id',
      foreignKey: 'item id',
      columns: { label: 'label', qty: 'qty', on: 'on', 'item.id': 'item_id' },
    },
  },
};

/** The document layout: one `jsonb` column. */
export const documentTarget: DocumentTarget = { document: 'doc', table: 'docs' };

const ITEM_COLUMNS = `id int PRIMARY KEY, "Amount ""total""" float8, score numeric, "na;me--" text, "toString" text, "at$1" timestamptz, "ref id" text`;
const LINE_COLUMNS = `"item id" int, label text, qty float8, "on" timestamptz, item_id int8`;

/** Creates the tables of both layouts (empty). */
export async function createTables(db: Database): Promise<void> {
  await db.exec(`
    CREATE SCHEMA "we""ird";
    CREATE TABLE "we""ird"."items.v1" (${ITEM_COLUMNS});
    CREATE TABLE "we""ird".lines (${LINE_COLUMNS});
    CREATE TABLE docs (id int PRIMARY KEY, doc jsonb);
  `);
}

/** A float8 for `jsonb_to_recordset`: JSON has no NaN or infinities, their input texts do. */
function float(n: number | null | undefined): Json {
  return n === undefined || n === null ? null : Number.isFinite(n) ? n : String(n);
}

/** Replaces the relational rows with these items, in one statement per table. */
export async function loadTyped(db: Database, items: readonly TypedItem[]): Promise<void> {
  const rows = items.map((item) => ({
    id: item.id,
    amount: float(item.amount),
    score: float(item.score),
    name: item.name ?? null,
    toString: item.toString ?? null,
    at: item.at?.toISOString() ?? null,
    ref: item.ref?.id ?? null,
  }));
  const lines = items.flatMap((item) =>
    (item.lines ?? []).map((line) => ({
      parent: item.id,
      label: line.label ?? null,
      qty: float(line.qty),
      on: line.on?.toISOString() ?? null,
      item: line.item?.id ?? null,
    })),
  );
  await db.exec(`TRUNCATE "we""ird"."items.v1", "we""ird".lines`);
  await db.query(
    `INSERT INTO "we""ird"."items.v1" SELECT * FROM jsonb_to_recordset($1::jsonb)
       AS r(id int, amount float8, score numeric, name text, "toString" text, at timestamptz, ref text)`,
    [JSON.stringify(rows)],
  );
  await db.query(
    `INSERT INTO "we""ird".lines SELECT * FROM jsonb_to_recordset($1::jsonb)
       AS r(parent int, label text, qty float8, "on" timestamptz, item int8)`,
    [JSON.stringify(lines)],
  );
}

/** Replaces the documents with these, ids 1…n. */
export async function loadDocuments(db: Database, documents: readonly Json[]): Promise<void> {
  await db.exec('TRUNCATE docs');
  await db.query(`INSERT INTO docs SELECT (e->>0)::int, e->1 FROM jsonb_array_elements($1::jsonb) AS e`, [
    writeJson(documents.map((doc, i) => [i + 1, doc])),
  ]);
}

/**
 * Runs many filters in one statement over a table: one boolean column per filter, each
 * filter's placeholders numbered after the previous one's (the `firstParam` option).
 * Returns, per filter, the ids it selects, ascending.
 */
export async function selectIds(db: Database, from: string, queries: readonly ((firstParam: number) => SqlQuery)[]): Promise<number[][]> {
  const values: unknown[] = [];
  const columns = queries.map((build, i) => {
    const sql = build(values.length + 1);
    values.push(...sql.values);
    return `(${sql.text}) IS TRUE AS m${i}`;
  });
  const result = await db.query<Record<string, unknown>>(`SELECT id, ${columns.join(', ')} FROM ${from} ORDER BY id`, values);
  return queries.map((_, i) => result.rows.filter((row) => row[`m${i}`] === true).map((row) => row.id as number));
}

/**
 * The plan Postgres makes for a statement with these values: they are written in as
 * literals (with the casts that follow their placeholders), so that the plan is the
 * custom plan of these values, which is what a statement with one execution gets.
 */
export async function explain(db: Database, text: string, values: readonly unknown[]): Promise<string> {
  // Quoted identifiers (`"at$1"`) and literals are skipped whole: only a bare `$n` is a placeholder.
  const literal = text.replace(/"(?:[^"]|"")*"|'(?:[^']|'')*'|\$(\d+)/g, (match, n: string | undefined) =>
    n === undefined ? match : `'${String(values[Number(n) - 1]).replaceAll("'", "''")}'`,
  );
  const { rows } = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${literal}`);
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

/** What a plan that an index serves shows. */
export const INDEX_SCAN = /Index Scan|Bitmap Index Scan|Index Only Scan/;
