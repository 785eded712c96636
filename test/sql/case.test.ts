import { describe, expect, it } from 'vitest';
import { detectCaseFolding, toSql, check, defineSchema, type CaseFolding } from '../../src/index';
import { folder, foldedText, supportedCaseFoldings } from '../../src/sql/text';
import { foldCase } from '../../src/values/case';
import { REAL_SERVERS, SERVERS, useDatabase, type Database } from '../support/databases';

/**
 * Case folding in SQL, each folding on each server that has it, against `foldCase`
 * (what `compile` does), for every code point of the first two planes (the later ones
 * have no case). The folding happens inside Postgres, so no client decoding is involved.
 * These are the lists docs/postgres.md states: which characters may fold differently from
 * `compile`, with each folding.
 */

/** Every code point of the first two planes but the surrogates, and NUL (Postgres text cannot hold it). */
const CODE_POINTS = Array.from({ length: 0x20000 }, (_, cp) => cp).filter((cp) => cp > 0 && (cp < 0xd800 || cp > 0xdfff));

interface Difference {
  cp: number;
  /** What the SQL folding gives. */
  sql: string;
  /** Whether the server knows the character as a letter (its Unicode version has it). */
  sql_alpha: boolean;
}

/** The collation whose character classes tell what a folding's Unicode tables know. */
const TABLES: Record<CaseFolding, string> = { pg_c_utf8: 'pg_catalog."pg_c_utf8"', icu: 'pg_catalog."und-x-icu"', ascii: 'pg_catalog."C"' };

/** The code points whose SQL folding differs from `fold` (done in JS). */
async function differences(db: Database, folding: CaseFolding, fold: (s: string) => string): Promise<Difference[]> {
  const folded = CODE_POINTS.map((cp) => fold(String.fromCodePoint(cp)));
  const sql = foldedText('chr(cp)', folding);
  const { rows } = await db.query<Difference>(
    `SELECT cp, ${sql} AS sql, (chr(cp) COLLATE ${TABLES[folding]}) ~ '[[:alpha:]]' AS sql_alpha
       FROM unnest($1::int[], $2::text[]) AS x(cp, folded)
      WHERE ${sql} <> folded`,
    [CODE_POINTS, folded],
  );
  return rows;
}

/** Whether this runtime's Unicode has no character at the code point. */
const unassigned = (cp: number) => /^\p{Cn}$/u.test(String.fromCodePoint(cp));
const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

describe.each(SERVERS)('case folding on $label', (server) => {
  let db: Database;
  let foldings: CaseFolding[];

  useDatabase(server, {}, async (opened) => {
    db = opened;
    foldings = await supportedCaseFoldings(db);
  });

  it('detects the best folding the server has: pg_c_utf8 from Postgres 17, else ICU, else ascii', async () => {
    const { rows } = await db.query<{ version: number; icu: boolean }>(
      `SELECT current_setting('server_version_num')::int AS version, EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu') AS icu`,
    );
    const { version, icu } = rows[0]!;
    const expected = version >= 170000 ? 'pg_c_utf8' : icu ? 'icu' : 'ascii';
    expect(await detectCaseFolding(db)).toBe(expected);
    expect(foldings[0]).toBe(expected);
    expect(foldings.at(-1)).toBe('ascii');
    console.log(`${server.label}: case foldings ${foldings.join(', ')}`);
  });

  it('pg_c_utf8 and icu, each where the server has it: fold as compile does, but for letters the server\'s or the runtime\'s Unicode does not have yet', async () => {
    const exact = foldings.filter((f) => f !== 'ascii');
    expect(exact.length).toBeGreaterThan(0);
    for (const folding of exact) {
      const found = await differences(db, folding, foldCase);
      for (const d of found) {
        const c = String.fromCodePoint(d.cp);
        const js = foldCase(c);
        // Either the server does not know the letter and leaves it, or the runtime does not know it and leaves it.
        const serverLacks = d.sql === c && !d.sql_alpha && /^\p{L}$/u.test(c);
        const runtimeLacks = js === c && unassigned(d.cp);
        expect(serverLacks || runtimeLacks, `${folding} ${hex(d.cp)}: SQL ${JSON.stringify(d.sql)}, compile ${JSON.stringify(js)}`).toBe(true);
      }
      // Each is explained above; the count only guards against a folding gone wholly wrong. The most
      // a server lacks here is 184, with the ICU 60 (Unicode 10) of npm's builds of Postgres 13–17.
      expect(found.length).toBeLessThan(250);
      console.log(`${server.label}, ${folding}: ${found.length} letters fold differently from compile (${found.slice(0, 6).map((d) => hex(d.cp)).join(' ')} …)`);
    }
  });

  it('pg_c_utf8 and icu fold whole words per code point: final sigma and dotted capital I', async () => {
    const words = ['ΣΑΣ', 'ΟΔΟΣ ΑΘΗΝΑΣ', 'İSTANBUL', 'Straße', 'ǅemal', 'ПРИВЕТ', 'ΣΑΣ!', 'AΣ.B'];
    for (const folding of foldings.filter((f) => f !== 'ascii')) {
      const { rows } = await db.query<{ folded: string }>(
        `SELECT ${foldedText('w', folding)} AS folded FROM unnest($1::text[]) WITH ORDINALITY AS x(w, i) ORDER BY i`,
        [words],
      );
      expect(rows.map((r) => r.folded), folding).toEqual(words.map(foldCase));
    }
  });

  it('ascii: folds A–Z only, exactly as the values bound against it are folded; every other letter compares exactly', async () => {
    // The two sides of toSql agree on every character…
    expect(await differences(db, 'ascii', folder('ascii'))).toEqual([]);
    // …and differ from compile on exactly the letters beyond ASCII that have a lower case.
    const found = (await differences(db, 'ascii', foldCase)).map((d) => d.cp);
    const expected = CODE_POINTS.filter((cp) => cp > 0x7f && foldCase(String.fromCodePoint(cp)) !== String.fromCodePoint(cp));
    expect(found).toEqual(expected);
    console.log(`${server.label}, ascii: ${found.length} letters fold differently from compile`);
  });

  it('finds with each folding what that folding means, on a table', async () => {
    const schema = defineSchema({ fields: { name: 'string' } });
    const names = ['ACME', 'acme', 'Éclair', 'ÉCLAIR', 'éclair', 'ΣΑΣ', 'σασ', 'σας'];
    await db.exec('CREATE TABLE IF NOT EXISTS names (id int, name text)');
    await db.exec('TRUNCATE names');
    await db.query('INSERT INTO names SELECT i::int, n FROM unnest($1::text[]) WITH ORDINALITY AS x(n, i)', [names]);
    const find = async (query: string, caseFolding: CaseFolding) => {
      const checked = check(query, schema);
      if (!checked.ok) throw new Error(query);
      const sql = toSql(checked.value, { columns: { name: 'name' } }, { caseInsensitive: true, caseFolding });
      const { rows } = await db.query<{ name: string }>(`SELECT name FROM names WHERE ${sql.text} ORDER BY id`, sql.values);
      return rows.map((r) => r.name);
    };
    for (const folding of foldings) {
      expect(await find('name=acme', folding)).toEqual(['ACME', 'acme']);
      expect(await find('name=%25%C3%89CLAIR', folding)).toEqual(folding === 'ascii' ? ['Éclair', 'ÉCLAIR'] : ['Éclair', 'ÉCLAIR', 'éclair']);
      expect(await find('name=ΣΑΣ', folding)).toEqual(folding === 'ascii' ? ['ΣΑΣ'] : ['ΣΑΣ', 'σασ']);
    }
  });
});

describe.each(REAL_SERVERS)('case folding on a database that is not UTF-8 ($label)', (server) => {
  it('detects ascii, the one folding such a database has', async () => {
    const db = await server.open({ encoding: 'SQL_ASCII' });
    try {
      expect(await supportedCaseFoldings(db)).toEqual(['ascii']);
      const { rows } = await db.query<{ folded: string }>(`SELECT ${foldedText("'ABC xyz'", 'ascii')} AS folded`);
      expect(rows[0]!.folded).toBe('abc xyz');
    } finally {
      await db.close();
    }
  });
});
