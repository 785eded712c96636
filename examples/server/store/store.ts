import type { Filter } from 'qsfilter';
import type { Resource } from '../resources';

/** A stored item: a plain JSON object. */
export type Item = Readonly<Record<string, unknown>>;

/** Which page of the matches to return. */
export interface Page {
  readonly limit: number;
  readonly offset: number;
}

/** Exact equality on top-level properties: request selectors, or the key of an item to remove. */
export type Selector = Readonly<Record<string, string>>;

/** What to find: items that match the checked filter (if any) and the selector, one page of them. */
export interface FindQuery {
  readonly filter?: Filter;
  readonly select?: Selector;
  readonly page: Page;
}

/** One page of matches, in storage order, and how many items match in all. */
export interface FindResult {
  readonly data: readonly Item[];
  readonly count: number;
}

/**
 * The property whose value is unique among the items of a resource: a second business
 * of the same name is refused by the store itself (a unique index in Postgres), so that
 * two requests creating it at once cannot both succeed.
 */
export const UNIQUE_KEYS: { readonly [R in Resource]?: string } = { businesses: 'businessName' };

/**
 * Where the example keeps its data. The routes only ever see this interface: the
 * in-memory store runs filters with `compile`; a database store would run the same
 * `Filter` as SQL (through `toSql`) and keep the same meaning (reference §5), case
 * sensitivity included: the server chooses it once, on its adapter, and every filter
 * carries it (`filter.caseInsensitive`), which `compile`, `sortItems` and `toSql` follow.
 */
export interface Store {
  find(resource: Resource, query: FindQuery): Promise<FindResult>;
  /** Stores an item; resolves to false, storing nothing, when its resource's unique key (`UNIQUE_KEYS`) is taken. */
  insert(resource: Resource, item: Item): Promise<boolean>;
  /** Removes the items that the selector matches; resolves to how many there were. */
  remove(resource: Resource, select: Selector): Promise<number>;
}

/**
 * Store work that could not be done now: shed because the server is busy (its queue was
 * full, or the work waited its longest), or cut off by the statement timeout. The message
 * says which, in words a client can act on; the app answers it with a 503 problem whose
 * detail it is, and `Retry-After: retryAfterSeconds`.
 */
export class StoreUnavailable extends Error {
  override readonly name = 'StoreUnavailable';
  /** When to send the request again, in seconds. */
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds: number, options?: ErrorOptions) {
    super(message, options);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
