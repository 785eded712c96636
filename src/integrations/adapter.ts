// An adapter uses the package as its users do, through the public entry alone: in dist
// it imports the main entry instead of bundling a second copy of it (tsup.config.ts).
// What every adapter does with a request, and its checks of options and schema, are the
// main entry's `requestChecks`, which an adapter of a framework qsfilter has none for
// uses the same way.
import { PROBLEM_CONTENT_TYPE, requestChecks, type FactoryUsage, type FilterQueryOptions, type RequestChecker } from '../index';

export type { FilterQueryOptions, FilterRejection, ProblemLabels, RequestChecker, RequestOutcome } from '../index';

/** The hook of every adapter: a custom answer to a query that did not check. */
export const HOOKS = ['onError'];

/**
 * The `content-type` of every adapter's 400 answer, one value for the three frameworks.
 * Fastify and Express append `; charset=utf-8` to any JSON media type they send, and
 * Hono sends the header as given: saying it here makes them agree. RFC 9457 defines no
 * parameter for the type and tells recipients to ignore one they do not know; the
 * charset is true (the body is UTF-8) and keeps clients that guess otherwise right.
 */
export const PROBLEM_RESPONSE_TYPE = `${PROBLEM_CONTENT_TYPE}; charset=utf-8`;

/**
 * The checker of a middleware factory (`filterQuery(schema, options)`), its schema checked
 * first: `app.get(path, filterQuery, handler)`, which calls the factory with a request
 * (Express's `req`, Hono's `c`), is a mistake of its own, said as such on the request.
 * `usage` is how the factory is called right (`filterQuery(schema)` by default). With it,
 * the options' `onError`, read once.
 */
export function middlewareChecker<OnError>(name: string, schema: unknown, options: FilterQueryOptions | undefined, usage = FILTER_QUERY_USAGE): { checkUrl: RequestChecker; onError: OnError | undefined } {
  // The schema before the options: a factory given as the route itself gets a request for
  // its schema and a response (or `next`) for its options, and the mistake is the first.
  requestChecks({ name, usage })(schema);
  const checks = requestChecks({ name, hooks: HOOKS, usage }, options);
  return { checkUrl: checks(schema), onError: checks.hooks.onError as OnError | undefined };
}

const FILTER_QUERY_USAGE: FactoryUsage = { name: 'filterQuery', call: 'filterQuery(schema)', route: 'app.get(path, filterQuery(schema), handler)' };
