import { describe, expect, it } from 'vitest';
import { check, compile, defineSchema, toSql, type CaseFolding, type Filter, type SqlTarget } from '../../src/index';
import { SERVERS, useDatabase, type Database } from '../support/databases';
import { exactFoldings } from './support/folding';
import { formatNumber } from '../../src/values/number';
import { object, writeJson, type Json } from './support/json';
import { DATES, DATE_STRINGS, IDS, ID_VALUES, NUMBERS, NUMBER_STRINGS, RAW_NUMBERS, TEXTS } from './support/pools';
import { quoted } from './support/arbitraries';
import { selectIds } from './support/database';

/**
 * Every awkward value against every literal and operator: one field per table row, one
 * filter per column of the result, SQL and the evaluator compared filter by filter. The
 * property tests explore combinations; these tables make sure each conversion (numbers
 * near rounding boundaries and beyond the doubles, impossible dates, ids as numbers,
 * LIKE metacharacters, case folding) is met head on.
 */

const schema = defineSchema({
  fields: { n: 'number', d: 'date', s: 'string', ref: { type: 'ref' }, lines: { type: 'array', of: { n: 'number', d: 'date' } } },
});

let db: Database;
/** The foldings the server has that mean what compile means. */
let foldings: CaseFolding[];

const OPERATORS = ['', 'gt:', 'gte:', 'lt:', 'lte:'];

/** The doubles next to a number: a literal one step away from a pool value compares differently at the boundary. */
function neighbours(q: number): number[] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, q);
  const bits = view.getBigInt64(0);
  return [-1n, 1n].map((step) => {
    view.setBigInt64(0, bits + step);
    return view.getFloat64(0);
  });
}

const NUMBER_LITERALS = [
  ...new Set([...NUMBERS, ...[1, 100, 0.1, 5e-324, 9007199254740991, Number.MAX_VALUE].flatMap(neighbours)].filter(Number.isFinite)),
].map(formatNumber);

function filters(key: string, literals: readonly string[], operators: readonly string[]): Filter[] {
  return operators.flatMap((op) =>
    literals.map((literal) => {
      const result = check({ [key]: op + literal }, schema);
      if (!result.ok) throw new Error(`${key}=${op}${literal}: ${result.errors[0]!.message}`);
      return result.value;
    }),
  );
}

/** Loads the documents and compares every filter's selection with the evaluator's, in batches. */
async function compareDocuments(documents: readonly Json[], all: readonly Filter[], caseFolding?: CaseFolding): Promise<void> {
  await db.exec('TRUNCATE docs');
  await db.query(`INSERT INTO docs SELECT (e->>0)::int, e->1 FROM jsonb_array_elements($1::jsonb) AS e`, [
    writeJson(documents.map((doc, i) => [i + 1, doc])),
  ]);
  const items = documents.map((doc) => JSON.parse(writeJson(doc)) as unknown);
  await compare(items, 'docs', { document: 'doc' }, all, caseFolding);
}

/** Compares every filter's selection with the evaluator's; case-insensitively when a folding is given. */
async function compare(items: readonly unknown[], from: string, target: SqlTarget, all: readonly Filter[], caseFolding: CaseFolding | undefined) {
  const caseInsensitive = caseFolding !== undefined;
  for (let at = 0; at < all.length; at += 100) {
    const batch = all.slice(at, at + 100);
    const selected = await selectIds(db, from, batch.map((filter) => (firstParam) => toSql(filter, target, { firstParam, caseInsensitive, ...(caseFolding && { caseFolding }) })));
    const mismatches = batch.flatMap((filter, i) => {
      const predicate = compile(filter, { caseInsensitive });
      const accepted = items.flatMap((item, j) => (predicate(item) ? [j + 1] : []));
      if (accepted.join() === selected[i]!.join()) return [];
      const differing = accepted.filter((id) => !selected[i]!.includes(id)).concat(selected[i]!.filter((id) => !accepted.includes(id)));
      return [`${JSON.stringify(filter.conditions[0]!.tests)} (${caseFolding ?? 'exact'}) on ${differing.map((id) => JSON.stringify(items[id - 1])).join(', ')}`];
    });
    expect(mismatches).toEqual([]);
  }
}

describe.each(SERVERS)('on $label', (server) => {
  // Up to 100 filters run in one statement: see OpenOptions.jit.
  useDatabase(server, { jit: false }, async (opened) => {
    db = opened;
    await db.exec(`
      CREATE TABLE docs (id int PRIMARY KEY, doc jsonb);
      CREATE TABLE typed (id int PRIMARY KEY, n float8, m numeric, d timestamptz);
    `);
    foldings = await exactFoldings(db);
  });

  describe('document values against every literal', () => {
    it('numbers: JSON numbers beyond the doubles, on rounding boundaries, numeric strings and near misses', async () => {
      const values: Json[] = [...NUMBERS, ...RAW_NUMBERS.map((raw) => ({ raw })), ...NUMBER_STRINGS, null, true, [1], object([['n', 1]])];
      const documents = values.flatMap((v) => [object([['n', v]]), object([['lines', [object([['n', v]])]]])]);
      await compareDocuments(documents, [...filters('n', NUMBER_LITERALS, OPERATORS), ...filters('lines.n', ['1', '100', '0'], OPERATORS)]);
    });

    it('dates: offsets, fractions, impossible days, the edges of the years 0000–9999', async () => {
      const values: Json[] = [...DATE_STRINGS, 20230109, null, object([['d', '2023-01-09']])];
      const documents = values.flatMap((v) => [object([['d', v]]), object([['lines', [object([['d', v]])]]])]);
      await compareDocuments(documents, [...filters('d', DATES, OPERATORS), ...filters('lines.d', ['2023-01-09'], OPERATORS)]);
    });

    it('ref ids: strings, safe integers, and numbers that are not', async () => {
      const documents = [...ID_VALUES, null, true, [42]].map((id) => object([['ref', object([['id', id]])]]));
      const literals = [...IDS.map(quoted), '4%', '%2', '9007%', '%', '-%'];
      await compareDocuments(documents, filters('ref.id', literals, ['']));
    });

    it('strings: LIKE metacharacters in the text, and case folding', async () => {
      const texts = [...TEXTS, 'a%bc', 'a_bc', 'A\\B', 'ACME CORP', 'Σ', 'ς'];
      const documents = [...texts, 42, null].map((s) => object([['s', s]]));
      const literals = [...texts.map(quoted), 'a%b', '%\\%%', '%_%', '_', '%\\\\%', 'a%', '%B', '%σ%', '%Σ', 'İ%', '%'];
      const all = filters('s', literals, ['']);
      await compareDocuments(documents, all);
      expect(foldings.length).toBeGreaterThan(0);
      for (const folding of foldings) await compareDocuments(documents, all, folding);
    });
  });

  describe('typed columns against every literal', () => {
    it('float8 with NaN, ±Infinity and -0; numeric; timestamptz with ±infinity', async () => {
      const numbers = [...NUMBERS, ...NUMBERS.map((n) => -n), NaN, Infinity, -Infinity, -0];
      const instants: (string | null)[] = [...DATES.map((d) => new Date(Date.parse(d.length === 10 ? `${d}T00:00:00Z` : d)))]
        .filter((d) => d.getUTCFullYear() >= 1)
        .flatMap((d) => [-1, 0, 1].map((delta) => new Date(d.getTime() + delta).toISOString()));
      const rows = Array.from({ length: Math.max(numbers.length, instants.length + 2) }, (_, i) => ({
        id: i + 1,
        n: numbers[i] ?? null,
        d: instants[i] ?? (i === instants.length ? 'infinity' : i === instants.length + 1 ? '-infinity' : null),
      }));
      await db.exec('TRUNCATE typed');
      // numeric gets the shortest decimal of each double, as an application writing JS numbers would store it;
      // Postgres 13's numeric has NaN but not ±Infinity (14 added them), so there it holds null instead.
      const json = (n: number | null) => (n === null ? null : Number.isFinite(n) ? n : String(n));
      const numeric = (n: number | null) => (n === Infinity || n === -Infinity) && server.version < 140000 ? null : n;
      await db.query(`INSERT INTO typed SELECT id, n, m, d FROM jsonb_to_recordset($1::jsonb) AS r(id int, n float8, m numeric, d timestamptz)`, [
        JSON.stringify(rows.map((r) => ({ ...r, n: json(r.n), m: json(numeric(r.n)) }))),
      ]);
      // The evaluator sees what a driver returns: Dates, and the texts of ±infinity, which are no dates.
      const items = rows.map((r) => ({ n: r.n, m: numeric(r.n), d: r.d === null || r.d.endsWith('infinity') ? r.d : new Date(r.d) }));
      const target = { table: 'typed', columns: { n: 'n', d: 'd' } };
      await compare(items, 'typed', target, [...filters('n', NUMBER_LITERALS, OPERATORS), ...filters('d', DATES, OPERATORS)], undefined);
      await compare(items, 'typed', { table: 'typed', columns: { n: 'm' } }, filters('n', NUMBER_LITERALS, OPERATORS), undefined);
    });
  });
});
