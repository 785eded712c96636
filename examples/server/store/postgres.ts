import { toSql } from 'qsfilter';
import type { Resource } from '../resources';
import type { FindQuery, FindResult, Item, Selector, Store } from './store';

/**
 * What the store needs of a Postgres client: a PGlite instance and a `pg` Pool both
 * have this method, with this meaning (values bound to `$1…$n`).
 */
export interface SqlClient {
  query<Row>(text: string, values?: unknown[]): Promise<{ rows: Row[] }>;
}

/** Options of `PostgresStore`. */
export interface PostgresStoreOptions {
  /** Compare text and ids case-insensitively (`toSql`'s option, the same meaning as `compile`'s). */
  readonly caseInsensitive?: boolean;
}

/**
 * A `Store` in Postgres: one table holds every resource's items, each as a `jsonb`
 * document (so `toSql`'s document target applies, mistyped data included) next to the
 * same JSON as sent (`json` keeps the order of keys, which `jsonb` does not). Filtering,
 * sorting, counting and paging all happen in the database; ties in storage order (`seq`).
 */
export class PostgresStore implements Store {
  readonly #db: SqlClient;
  readonly #caseInsensitive: boolean;

  constructor(db: SqlClient, options: PostgresStoreOptions = {}) {
    this.#db = db;
    this.#caseInsensitive = options.caseInsensitive === true;
  }

  /** Creates the table and its index if they are missing. */
  async migrate(): Promise<void> {
    await this.#db.query(
      'CREATE TABLE IF NOT EXISTS items (seq bigserial PRIMARY KEY, resource text NOT NULL, doc jsonb NOT NULL, body json NOT NULL)',
    );
    await this.#db.query('CREATE INDEX IF NOT EXISTS items_resource_seq ON items (resource, seq)');
  }

  /** How many items the table holds, all resources together. */
  async size(): Promise<number> {
    const { rows } = await this.#db.query<{ n: number }>('SELECT count(*)::int AS n FROM items');
    return rows[0]!.n;
  }

  /** Loads items in one statement per resource, in the order given. */
  async load(data: Readonly<Partial<Record<Resource, readonly Item[]>>>): Promise<void> {
    for (const [resource, items] of Object.entries(data)) {
      if (items.length === 0) continue;
      await this.#db.query(
        `INSERT INTO items (resource, doc, body)
         SELECT $1, value::jsonb, value FROM json_array_elements($2::json) WITH ORDINALITY AS t(value, n) ORDER BY n`,
        [resource, JSON.stringify(items)],
      );
    }
  }

  async find(resource: Resource, { filter, select, page }: FindQuery): Promise<FindResult> {
    const values: unknown[] = [];
    let where = selection(resource, select, values);
    // Sorted as the filter asks, ties (and a filter that does not sort) in storage order.
    let orderBy = 'ORDER BY i.seq';
    if (filter !== undefined) {
      const sql = toSql(filter, { document: 'doc', table: 'i' }, { caseInsensitive: this.#caseInsensitive, firstParam: values.length + 1, tieBreaker: 'seq' });
      where += ` AND ${sql.text}`;
      values.push(...sql.values);
      orderBy = sql.orderBy;
    }
    const n = values.length;
    const { rows } = await this.#db.query<{ body: Item; total: number }>(
      `SELECT i.body, count(*) OVER ()::int AS total FROM items i WHERE ${where} ${orderBy} LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...values, page.limit, page.offset],
    );
    if (rows.length > 0) return { data: rows.map((r) => r.body), count: rows[0]!.total };
    // No row to carry the window count (limit=0, or an offset past the end): count apart.
    const counted = await this.#db.query<{ total: number }>(`SELECT count(*)::int AS total FROM items i WHERE ${where}`, values);
    return { data: [], count: counted.rows[0]!.total };
  }

  async insert(resource: Resource, item: Item): Promise<void> {
    const json = JSON.stringify(item);
    await this.#db.query('INSERT INTO items (resource, doc, body) VALUES ($1, $2::jsonb, $2::json)', [resource, json]);
  }

  async remove(resource: Resource, select: Selector): Promise<number> {
    const values: unknown[] = [];
    const where = selection(resource, select, values);
    const { rows } = await this.#db.query<{ n: number }>(
      `WITH gone AS (DELETE FROM items i WHERE ${where} RETURNING 1) SELECT count(*)::int AS n FROM gone`,
      values,
    );
    return rows[0]!.n;
  }
}

/**
 * The resource and the selectors as SQL on `items i`, their values appended to
 * `values`. A selector is exact equality with a JSON string, as the memory store's
 * `===` on strings: the number 5 is not the selector "5".
 */
function selection(resource: Resource, select: Selector | undefined, values: unknown[]): string {
  values.push(resource);
  let where = `i.resource = $${values.length}`;
  for (const [key, value] of Object.entries(select ?? {})) {
    values.push(key, JSON.stringify(value));
    where += ` AND i.doc -> $${values.length - 1}::text = $${values.length}::jsonb`;
  }
  return where;
}
