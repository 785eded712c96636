import { compile, pageItems, sortItems } from 'qsfilter';
import type { Resource } from '../resources';
import { UNIQUE_KEYS, type FindQuery, type FindResult, type Item, type Selector, type Store } from './store';

/**
 * A `Store` over arrays in memory: every find is one pass with the compiled filter, then
 * `sortItems`. Both fold case as the filter says (`filter.caseInsensitive`, set by the
 * server's adapter): the store has no case setting of its own.
 */
export class MemoryStore implements Store {
  readonly #items: Map<Resource, Item[]>;

  constructor(data: Readonly<Partial<Record<Resource, readonly Item[]>>>) {
    this.#items = new Map(Object.entries(data).map(([resource, items]) => [resource as Resource, [...items]]));
  }

  find(resource: Resource, { filter, select, page }: FindQuery): Promise<FindResult> {
    const matches = filter === undefined ? () => true : compile(filter);
    const selected = selects(select);
    const found = this.#list(resource).filter((item) => selected(item) && matches(item));
    // sortItems is stable: equal keys keep the storage order, as the Postgres store's tie-breaker does.
    // A cursor page: the items after the cursor, as pageItems cuts them (the SQL store's keyset predicate).
    if (filter?.page?.after !== undefined) return Promise.resolve({ data: pageItems(found, { ...filter, page: { ...filter.page, limit: page.limit } }), count: found.length });
    const ordered = filter === undefined ? found : sortItems(found, filter);
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
