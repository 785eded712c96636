import type { FastifyInstance } from 'fastify';
import { check, defineSchema, nextCursor, query, type Filter, type Schema } from 'qsfilter';
// The plugin's types: config.filter on a route, and request.filter in its handler.
import type {} from 'qsfilter/fastify';
import { collections, RESOLVED_PARAMS, selectorParams, type Resource } from '../resources';
import type { Selector, Store } from '../store/store';
import { MAX_NAME_LENGTH } from './businesses';

/**
 * `GET /<collection>` for every collection. Each route asks `qsfilter/fastify` (registered
 * by the app) for its collection's schema: the raw query is checked (filters, `orderBy`,
 * `limit` and `offset`, the request parameters and the connection they require) before
 * the handler runs, and a bad query is a 400 problem. The handler answers one page of
 * the matches in the order asked for, shaped as the API's: `{ data, pagination: {
 * offset, limit, count }, meta }`, where `count` is the number of all matches and `meta`
 * the parameters that selected them. Where the schema pages by cursor, `after` may
 * stand for `offset`, and a full page's `pagination.nextCursor` is the next page's `after`.
 */
export function collectionRoutes(app: FastifyInstance, store: Store): void {
  for (const resource of Object.keys(collections) as Resource[]) {
    const schema = collections[resource];
    const selectors = selectorParams(resource);
    app.get(`/${resource}`, { config: { filter: schema } }, async (request) => {
      const select: Record<string, string> = {};
      // Typed request parameters are single values, checked: each selects by equality.
      for (const name of selectors) if (typeof request.filter.params[name] === 'string') select[name] = request.filter.params[name];
      const meta: Record<string, string> = { ...select };
      for (const name of RESOLVED_PARAMS) if (typeof request.filter.params[name] === 'string') meta[name] = request.filter.params[name];
      const page = request.filter.page!;
      const filter = await resolve(store, withPeriod(request.filter, schema), select);
      const { data, count } = filter === undefined ? { data: [], count: 0 } : await store.find(resource, { filter, select: select as Selector, page });
      // With cursor paging, a full page carries the cursor of the next one: the client sends it back as after.
      const last = schema.paging?.cursor !== undefined && data.length === page.limit ? data.at(-1) : undefined;
      const next = last === undefined ? {} : { nextCursor: nextCursor(request.filter, last) };
      return { data, pagination: { offset: page.offset, limit: page.limit, count, ...next }, meta };
    });
  }
}

/** The fields the server's own parameters select on, alone: a collection's schema would ask for its required parameters too. */
const DERIVED = defineSchema({ fields: { postedDate: 'date', businessName: 'string' } });

/**
 * The period of `startDate` and `endDate` (both days included) as one more condition on
 * the date the collection's items were posted, where they have one.
 */
function withPeriod(filter: Filter, schema: Schema): Filter {
  const { startDate, endDate } = filter.params;
  if (!schema.fields.has('postedDate') || (startDate === undefined && endDate === undefined)) return filter;
  const clauses = [...(typeof startDate === 'string' ? [`gte:${startDate}`] : []), ...(typeof endDate === 'string' ? [`lte:${endDate}`] : [])];
  return withQuery(filter, `postedDate=${encodeURIComponent(clauses.join(';'))}`);
}

/**
 * The filter with the conditions of `derived`, a query on `DERIVED` built by the server
 * from checked parameters: checked by the same code as every query, not built by hand.
 */
function withQuery(filter: Filter, derived: string): Filter {
  const checked = check(derived, DERIVED);
  if (!checked.ok) throw new Error(`a query built from checked parameters did not check: ${JSON.stringify(checked.errors)}`);
  return { ...filter, conditions: [...filter.conditions, ...checked.value.conditions] };
}

/** Page of a look-up that needs only the count, or the first match. */
const NO_ITEMS = { limit: 0, offset: 0 } as const;
const FIRST = { limit: 1, offset: 0 } as const;

/**
 * What `RESOLVED_PARAMS` select, looked up in the store: added to `select`, or as
 * conditions on the filter; `undefined` when nothing can match.
 * - `connectionUuid`: the `businessName` and `serviceName` of that connection; a UUID of
 *   no connection, or of another connection than the ones sent name, matches nothing.
 * - `businessNameOrUuid`: the business of that `businessUuid`, if one has it; else the
 *   businesses whose name contains the text (a `%` in it is a percent sign), compared
 *   with case folded or not as every filter of this server is.
 */
async function resolve(store: Store, filter: Filter, select: Record<string, string>): Promise<Filter | undefined> {
  const { connectionUuid, businessNameOrUuid } = filter.params;
  if (typeof connectionUuid === 'string') {
    const connection = (await store.find('connections', { select: { connectionUuid }, page: FIRST })).data[0];
    if (connection === undefined) return undefined;
    for (const key of ['businessName', 'serviceName']) {
      const value = Object.hasOwn(connection, key) ? connection[key] : undefined;
      if (typeof value !== 'string' || (Object.hasOwn(select, key) && select[key] !== value)) return undefined;
      select[key] = value;
    }
  }
  if (typeof businessNameOrUuid === 'string') {
    if ((await store.find('businesses', { select: { businessUuid: businessNameOrUuid }, page: NO_ITEMS })).count > 0) {
      select.businessUuid = businessNameOrUuid;
    } else {
      // No name is longer: and the pattern of a longer text could pass the query limits.
      if (businessNameOrUuid.length > MAX_NAME_LENGTH) return undefined;
      return withQuery(filter, query(DERIVED).where('businessName', 'contains', businessNameOrUuid).toString());
    }
  }
  return filter;
}
