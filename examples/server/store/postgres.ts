import { sqlConstraints, toSql, type CaseFolding } from 'qsfilter';
import { collections, type Resource } from '../resources';
import { queryCost, type StoreQueue } from './queue';
import { UNIQUE_KEYS, type FindQuery, type FindResult, type Item, type Selector, type Store } from './store';

/**
 * What the store needs of a Postgres client: a PGlite instance and a `pg` Pool both
 * have this method, with this meaning (values bound to `$1…$n`).
 */
export interface SqlClient {
  query<Row>(text: string, values?: unknown[]): Promise<{ rows: Row[] }>;
}

/** Options of `PostgresStore`: what it must know of the database (whether to fold case is the filter's to say). */
export interface PostgresStoreOptions {
  /** How the database folds case for it: what `detectCaseFolding` found (default `pg_c_utf8`, Postgres 17 and later). */
  readonly caseFolding?: CaseFolding;
  /** The queue all of its work waits in (see `StoreQueue`), made for the database's statement timeout and how many queries it runs at once. */
  readonly queue: StoreQueue;
}

/**
 * The schema the example keeps its table in. Its own name, so that the example never
 * meets a table of the database it is pointed at (an `items` of the user's own).
 */
export const SCHEMA = 'qsfilter_example';
const TABLE = `${SCHEMA}.items`;

/** The columns of the table, as `information_schema` names their types. */
const COLUMNS = [
  ['seq', 'bigint'],
  ['resource', 'text'],
  ['doc', 'jsonb'],
  ['body', 'json'],
] as const;

/**
 * A `Store` in Postgres: one table holds every resource's items, each as a `jsonb`
 * document (so `toSql`'s document target applies), held to the typed target's canonical
 * forms by its CHECK constraints (`sqlConstraints`: JSON types, dates without offsets), next to the
 * same JSON as sent (`json` keeps the order of keys, which `jsonb` does not). Filtering,
 * sorting, counting and paging all happen in the database; ties in storage order (`seq`).
 * A unique index per `UNIQUE_KEYS` entry refuses a second item with the same key.
 * Text compares with case folded or not as the filter says (`filter.caseInsensitive`,
 * which `toSql` follows), with the database's own folding (`caseFolding`).
 */
export class PostgresStore implements Store {
  readonly #db: SqlClient;
  readonly #caseFolding: CaseFolding | undefined;
  readonly #queue: StoreQueue;

  constructor(db: SqlClient, options: PostgresStoreOptions) {
    this.#db = db;
    this.#caseFolding = options.caseFolding;
    this.#queue = options.queue;
  }

  /**
   * Creates the schema, the table and its indexes if they are missing. A table of that
   * name that is not the example's is an error that says so, not a crash later.
   */
  async migrate(): Promise<void> {
    await this.#db.query(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`);
    await this.#db.query(
      `CREATE TABLE IF NOT EXISTS ${TABLE} (seq bigserial PRIMARY KEY, resource text NOT NULL, doc jsonb NOT NULL, body json NOT NULL)`,
    );
    const { rows } = await this.#db.query<{ name: string; type: string }>(
      `SELECT column_name AS name, data_type AS type FROM information_schema.columns
        WHERE table_schema = $1 AND table_name = 'items' ORDER BY ordinal_position`,
      [SCHEMA],
    );
    const found = rows.map((r) => `${r.name} ${r.type}`).join(', ');
    if (found !== COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ')) {
      throw new Error(`${TABLE} exists but is not the example's table (its columns: ${found}). Drop the schema ${SCHEMA}, or use another database.`);
    }
    await this.#db.query(`CREATE INDEX IF NOT EXISTS items_resource_seq ON ${TABLE} (resource, seq)`);
    for (const [resource, key] of Object.entries(UNIQUE_KEYS)) {
      // Names of ours, checked to be plain words: they are written into the SQL.
      if (!/^\w+$/.test(resource) || !/^\w+$/.test(key)) throw new Error(`not a plain name: ${resource}.${key}`);
      await this.#db.query(`CREATE UNIQUE INDEX IF NOT EXISTS items_${resource}_${key} ON ${TABLE} ((doc ->> '${key}')) WHERE resource = '${resource}'`);
    }
    // One table for every resource: a field shared by two has one type, so one constraint.
    const checks = new Set(Object.values(collections).flatMap((schema) => sqlConstraints(schema, { document: 'doc', table: TABLE, typed: true })));
    for (const statement of checks) await this.#db.query(statement);
  }

  /** How many items the table holds, all resources together. */
  async size(): Promise<number> {
    const { rows } = await this.#db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${TABLE}`);
    return rows[0]!.n;
  }

  /** Loads items in one statement per resource, in the order given. */
  async load(data: Readonly<Partial<Record<Resource, readonly Item[]>>>): Promise<void> {
    for (const [resource, items] of Object.entries(data)) {
      if (items.length === 0) continue;
      await this.#db.query(
        `INSERT INTO ${TABLE} (resource, doc, body)
         SELECT $1, value::jsonb, value FROM json_array_elements($2::json) WITH ORDINALITY AS t(value, n) ORDER BY n`,
        [resource, JSON.stringify(items)],
      );
    }
  }

  find(resource: Resource, query: FindQuery): Promise<FindResult> {
    return this.#queue.run(queryCost(query.filter, query.page), () => this.#find(resource, query));
  }

  async #find(resource: Resource, { filter, select, page }: FindQuery): Promise<FindResult> {
    const values: unknown[] = [];
    let where = selection(resource, select, values);
    // Sorted as the filter asks, ties (and a filter that does not sort) in storage order.
    let orderBy = 'ORDER BY i.seq';
    if (filter !== undefined) {
      const sql = toSql(
        filter,
        { document: 'doc', table: 'i' },
        {
          firstParam: values.length + 1,
          tieBreaker: 'seq',
          ...(this.#caseFolding && { caseFolding: this.#caseFolding }),
        },
      );
      where += ` AND ${sql.text}`;
      values.push(...sql.values);
      orderBy = sql.orderBy;
    }
    const n = values.length;
    const { rows } = await this.#db.query<{ body: Item; total: number }>(
      `SELECT i.body, count(*) OVER ()::int AS total FROM ${TABLE} i WHERE ${where} ${orderBy} LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...values, page.limit, page.offset],
    );
    // A cursor page's WHERE holds the keyset predicate: its window counts the matches from the cursor on, not all.
    if (rows.length > 0 && filter?.page?.after === undefined) return { data: rows.map((r) => r.body), count: rows[0]!.total };
    if (rows.length > 0) {
      const { after: _, ...whole } = filter!.page!;
      const all = await this.#find(resource, { filter: { ...filter!, page: whole }, ...(select && { select }), page: { limit: 0, offset: 0 } });
      return { data: rows.map((r) => r.body), count: all.count };
    }
    // No row to carry the window count (limit=0, or an offset past the end): count apart.
    const counted = await this.#db.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${TABLE} i WHERE ${where}`, values);
    return { data: [], count: counted.rows[0]!.total };
  }

  insert(resource: Resource, item: Item): Promise<boolean> {
    return this.#queue.run(0, () => this.#insert(resource, item));
  }

  async #insert(resource: Resource, item: Item): Promise<boolean> {
    const json = JSON.stringify(item);
    // The unique index decides, in one statement: a check before the insert could not.
    const { rows } = await this.#db.query(
      `INSERT INTO ${TABLE} (resource, doc, body) VALUES ($1, $2::jsonb, $2::json) ON CONFLICT DO NOTHING RETURNING 1`,
      [resource, json],
    );
    return rows.length === 1;
  }

  remove(resource: Resource, select: Selector): Promise<number> {
    return this.#queue.run(0, () => this.#remove(resource, select));
  }

  async #remove(resource: Resource, select: Selector): Promise<number> {
    const values: unknown[] = [];
    const where = selection(resource, select, values);
    const { rows } = await this.#db.query<{ n: number }>(
      `WITH gone AS (DELETE FROM ${TABLE} i WHERE ${where} RETURNING 1) SELECT count(*)::int AS n FROM gone`,
      values,
    );
    return rows[0]!.n;
  }
}

/**
 * The resource and the selectors as SQL on the table aliased `i`, their values appended
 * to `values`. A selector is exact equality with a JSON string, as the memory store's
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
