import { catalog } from 'qsfilter';

/** The paging parameters every collection passes through; the routes read them. */
export const PAGING_PARAMS = ['limit', 'offset'] as const;

/** Every collection the server answers `GET /<name>` for, with its schema: the catalog's. */
export const collections = catalog;

/** The name of a collection, which is also its path. */
export type Resource = keyof typeof collections;

/**
 * The request parameters of a collection that are not paging: they select items by
 * exact equality with the item's property of the same name (`GET /balanceSheets?
 * businessName=Acme%20%26%20Sons&reportFrequency=month` is that business's monthly
 * report). They are not filters: no operators, no wildcards, no decoding beyond the
 * query string's own.
 */
export function selectorParams(resource: Resource): string[] {
  return [...collections[resource].params].filter((p) => !(PAGING_PARAMS as readonly string[]).includes(p));
}
