import type { FastifyInstance } from 'fastify';
import { check, defineSchema, type Filter, type Schema } from 'qsfilter';
// The plugin's types: config.filter on a route, and request.filter in its handler.
import type {} from 'qsfilter/fastify';
import { collections, selectorParams, type Resource } from '../resources';
import type { Selector, Store } from '../store/store';

/**
 * `GET /<collection>` for every collection. Each route asks `qsfilter/fastify` (registered
 * by the app) for its collection's schema: the raw query is checked (filters, `orderBy`,
 * `limit` and `offset`, the request parameters and the connection they require) before
 * the handler runs, and a bad query is a 400 problem. The handler answers one page of
 * the matches in the order asked for, shaped as the API's: `{ data, pagination: {
 * offset, limit, count }, meta }`, where `count` is the number of all matches and `meta`
 * the parameters that selected them.
 */
export function collectionRoutes(app: FastifyInstance, store: Store): void {
  for (const resource of Object.keys(collections) as Resource[]) {
    const schema = collections[resource];
    const selectors = selectorParams(resource);
    app.get(`/${resource}`, { config: { filter: schema } }, async (request) => {
      const filter = withPeriod(request.filter, schema);
      const select: Record<string, string> = {};
      // Typed request parameters are single values, checked: each selects by equality.
      for (const name of selectors) if (typeof filter.params[name] === 'string') select[name] = filter.params[name];
      const page = filter.page!;
      const { data, count } = await store.find(resource, { filter, select: select as Selector, page });
      return { data, pagination: { offset: page.offset, limit: page.limit, count }, meta: select };
    });
  }
}

/** The field a period selects on, alone: the collection's own schema would ask for its required parameters too. */
const PERIOD = defineSchema({ fields: { postedDate: 'date' } });

/**
 * The period of `startDate` and `endDate` (both days included) as one more condition on
 * the date the collection's items were posted, where they have one. The dates were
 * checked with the query, so the condition is checked by the same code, not built by hand.
 */
function withPeriod(filter: Filter, schema: Schema): Filter {
  const { startDate, endDate } = filter.params;
  if (!schema.fields.has('postedDate') || (startDate === undefined && endDate === undefined)) return filter;
  const clauses = [...(typeof startDate === 'string' ? [`gte:${startDate}`] : []), ...(typeof endDate === 'string' ? [`lte:${endDate}`] : [])];
  const period = check(`postedDate=${encodeURIComponent(clauses.join(';'))}`, PERIOD);
  if (!period.ok) throw new Error(`the period of a checked query did not check: ${JSON.stringify(period.errors)}`);
  return { ...filter, conditions: [...filter.conditions, ...period.value.conditions] };
}
