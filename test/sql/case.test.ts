import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldCase } from '../../src/values/case';
import { STARTUP_TIMEOUT, TEST_TIMEOUT } from './support/database';

/**
 * The SQL back end folds case with `lower(x COLLATE pg_c_utf8)`, the evaluator with
 * `foldCase`: checked here for every code point of the first two planes (the later ones
 * have no case). Comparison happens inside Postgres, so no client decoding is involved.
 */

let db: PGlite;

beforeAll(async () => {
  db = await PGlite.create();
}, STARTUP_TIMEOUT);

afterAll(async () => {
  await db.close();
}, STARTUP_TIMEOUT);

interface Difference {
  cp: number;
  /** Whether Postgres leaves the character as it is (it does not know its lower case). */
  pg_identity: boolean;
  /** Whether the JS runtime leaves it as it is. */
  js_identity: boolean;
}

async function differences(collation: string): Promise<Difference[]> {
  const cps: number[] = [];
  const folded: string[] = [];
  for (let cp = 1; cp < 0x20000; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    cps.push(cp);
    folded.push(foldCase(String.fromCodePoint(cp)));
  }
  const result = await db.query<Difference>(
    `SELECT cp, lower(chr(cp) COLLATE ${collation}) = chr(cp) AS pg_identity, folded = chr(cp) AS js_identity
       FROM unnest($1::int[], $2::text[]) AS x(cp, folded)
      WHERE lower(chr(cp) COLLATE ${collation}) <> folded`,
    [cps, folded],
  );
  return result.rows;
}

describe('lower() under pg_c_utf8 is foldCase', () => {
  it('maps every character of the first two planes alike, but for characters only one side knows', async () => {
    const found = await differences('pg_c_utf8');
    // Unicode versions differ between a JS runtime and a Postgres release (Node 20 with
    // ICU 78 knows Unicode 17, Postgres 18 Unicode 16): a character added in between is
    // lowered by one side and left alone by the other. No character is lowered differently.
    expect(found.filter((d) => !d.pg_identity && !d.js_identity)).toEqual([]);
    expect(found.length).toBeLessThan(64);
  }, TEST_TIMEOUT);

  it('folds whole words per code point: final sigma and dotted capital I', async () => {
    const words = ['ΣΑΣ', 'ΟΔΟΣ ΑΘΗΝΑΣ', 'İSTANBUL', 'Straße', 'ǅemal', 'ПРИВЕТ'];
    const result = await db.query<{ lowered: string }>(`SELECT lower(w COLLATE pg_c_utf8) AS lowered FROM unnest($1::text[]) WITH ORDINALITY AS x(w, i) ORDER BY i`, [words]);
    expect(result.rows.map((r) => r.lowered)).toEqual(words.map(foldCase));
  }, TEST_TIMEOUT);

  it('is not what the default libc collation of this database does', async () => {
    // The reason for the explicit collation: C.UTF-8 (libc) leaves letters such as Ⓐ alone.
    const found = await differences('"default"');
    expect(found.some((d) => d.cp === 0x24b6)).toBe(true);
  }, TEST_TIMEOUT);
});
