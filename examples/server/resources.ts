import { catalog, CURSOR_PARAM, defineSchema, PAGING_PARAMS, type ParamSpec, type Schema, type SchemaSpec } from 'qsfilter';

/** The name of a collection, which is also its path. */
export type Resource = keyof typeof catalog;

/**
 * The schema the server checks a collection's queries with: the catalog's, paging by
 * cursor too where its items have a unique sortable `id` (invoices, vendors, deposits,
 * bills: the catalog's schemas describe the API, which pages by offset only), with the
 * connection parameters required where the collection has them, as the API requires
 * them. The catalog cannot require them (the API also takes a `connectionUuid` instead,
 * and reference §1's examples send neither); this server requires the API document's
 * form, `businessName` and `serviceName`, and takes the catalog's `connectionUuid`
 * beside them as the catalog declares it (optional): it narrows the read to that
 * connection (see `RESOLVED_PARAMS`).
 */
function serverSchema(schema: Schema): Schema {
  const params = schema.spec.params;
  // Cursor paging (`after`) beside `offset`, by `id` where the items have a unique, sortable one.
  const paging = schema.spec.paging !== undefined && schema.fields.get('id')?.sortable === true ? { ...schema.spec.paging, cursor: { key: 'id' } } : schema.spec.paging;
  if (params === undefined || Array.isArray(params) || !Object.hasOwn(params, 'businessName')) {
    return paging === schema.spec.paging || paging === undefined ? schema : defineSchema({ ...(schema.spec as SchemaSpec), paging });
  }
  const required: Record<string, ParamSpec> = {};
  for (const [name, spec] of Object.entries(params as Readonly<Record<string, ParamSpec>>)) {
    required[name] = CONNECTION.includes(name) ? { type: 'string', required: true } : spec;
  }
  return defineSchema({ ...(schema.spec as SchemaSpec), params: required, ...(paging === undefined ? {} : { paging }) });
}

/** The parameters that name the connection whose data a request reads. */
const CONNECTION = ['businessName', 'serviceName'];

/** Every collection the server answers `GET /<name>` for, with the schema it checks queries with. */
export const collections = Object.fromEntries(
  (Object.keys(catalog) as Resource[]).map((name) => [name, serverSchema(catalog[name])]),
) as Record<Resource, Schema>;

/** The period parameters: transactions posted from `startDate` to `endDate`, both days included. */
export const PERIOD_PARAMS = ['startDate', 'endDate'] as const;

/**
 * The request parameters that name items by something other than a property of the
 * same name, which the collection route looks up: `connectionUuid`, a connection of
 * `GET /connections` (the accounting items carry its `businessName` and `serviceName`,
 * not its identifier), and `businessNameOrUuid`, part or all of a business's name, or
 * its `businessUuid`.
 */
export const RESOLVED_PARAMS = ['connectionUuid', 'businessNameOrUuid'] as const;

/**
 * The request parameters of a collection that select items by exact equality with the
 * item's property of the same name (`GET /balanceSheets?businessName=Acme%20%26%20Sons&
 * reportFrequency=month` is that business's monthly report): all of them but paging,
 * sorting, the period and the resolved ones. They are not filters: no operators, no
 * wildcards, no decoding beyond the query string's own.
 */
export function selectorParams(resource: Resource): string[] {
  const schema = collections[resource];
  const other = new Set<string>([...PAGING_PARAMS, CURSOR_PARAM, ...PERIOD_PARAMS, ...RESOLVED_PARAMS, schema.sortParam]);
  return [...schema.params].filter((p) => !other.has(p));
}
