import { compile, sortItems } from 'qsfilter';
import type { Resource } from '../resources';
import { UNIQUE_KEYS, type FindQuery, type FindResult, type Item, type Selector, type Store } from './store';

/** Options of `MemoryStore`. */
export interface MemoryStoreOptions {
  /** Compare text and ids case-insensitively (`compile`'s option). */
  readonly caseInsensitive?: boolean;
}

/** A `Store` over arrays in memory: every find is one pass with the compiled filter, then `sortItems`. */
export class MemoryStore implements Store {
  readonly #items: Map<Resource, Item[]>;
  readonly #caseInsensitive: boolean;

  constructor(data: Readonly<Partial<Record<Resource, readonly Item[]>>>, options: MemoryStoreOptions = {}) {
    this.#items = new Map(Object.entries(data).map(([resource, items]) => [resource as Resource, [...items]]));
    this.#caseInsensitive = options.caseInsensitive === true;
  }

  find(resource: Resource, { filter, select, page }: FindQuery): Promise<FindResult> {
    const caseInsensitive = this.#caseInsensitive;
    const matches = filter === undefined ? () => true : compile(filter, { caseInsensitive });
    const selected = selects(select);
    const found = this.#list(resource).filter((item) => selected(item) && matches(item));
    // sortItems is stable: equal keys keep the storage order, as the Postgres store's tie-breaker does.
    const ordered = filter === undefined ? found : sortItems(found, filter, { caseInsensitive });
    return Promise.resolve({ data: ordered.slice(page.offset, page.offset + page.limit), count: found.length });
  }

  insert(resource: Resource, item: Item): Promise<boolean> {
    const list = this.#list(resource);
    const key = UNIQUE_KEYS[resource];
    // Checked and pushed in one synchronous step: no other request runs in between.
    if (key !== undefined && list.some((other) => Object.hasOwn(other, key) && other[key] === item[key])) return Promise.resolve(false);
    list.push(item);
    return Promise.resolve(true);
  }

  remove(resource: Resource, select: Selector): Promise<number> {
    const list = this.#list(resource);
    const selected = selects(select);
    const kept = list.filter((item) => !selected(item));
    this.#items.set(resource, kept);
    return Promise.resolve(list.length - kept.length);
  }

  #list(resource: Resource): Item[] {
    let list = this.#items.get(resource);
    if (list === undefined) this.#items.set(resource, (list = []));
    return list;
  }
}

/** A selector as a predicate: exact, case-sensitive equality of own properties. */
function selects(select: Selector | undefined): (item: Item) => boolean {
  const entries = Object.entries(select ?? {});
  return (item) => entries.every(([key, value]) => Object.hasOwn(item, key) && item[key] === value);
}
