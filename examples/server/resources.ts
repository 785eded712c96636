import { catalog, defineSchema } from 'qsfilter';

/** The paging parameters every collection passes through; the routes read them. */
export const PAGING_PARAMS = ['limit', 'offset'] as const;

/**
 * `GET /businesses`. The API document shows businesses only being created and deleted,
 * so the catalog has no schema for them: this one is defined here, the way a service
 * defines the schema of its own resource.
 */
export const businesses = defineSchema({
  fields: { businessName: 'string', createdAt: 'date' },
  params: PAGING_PARAMS,
});

/** Every collection the server answers `GET /<name>` for, with its schema. */
export const collections = { ...catalog, businesses } as const;

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
