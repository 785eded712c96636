/**
 * `qsfilter/hono`: `filterQuery(schema)`, a validator of the query, and `filterRoute(schema,
 * handler)`, the same check in the route's one handler. Both check the query of
 * `c.req.url` as sent (never Hono's parsed query, which decodes a bare `%` leniently), so
 * that `c.req.valid('query')` is the checked `Filter`; a bad query is answered 400
 * `application/problem+json`.
 */
import type { Context, Env, Handler, MiddlewareHandler, Next } from 'hono';
import type { HandlerResponse } from 'hono/types';
import type { Filter, Schema } from '../index';
import { middlewareChecker, PROBLEM_RESPONSE_TYPE, type FilterQueryOptions, type FilterRejection, type RequestOutcome } from './adapter';

export type { FilterQueryOptions, FilterRejection } from './adapter';

/** Options of `filterQuery` and `filterRoute`: those of every adapter, and the hook for a custom error answer. */
export interface HonoFilterOptions<E extends Env = Env> extends FilterQueryOptions {
  /**
   * Called when a query does not check: the response it returns is the answer; when it
   * returns nothing, the default 400 problem is.
   */
  readonly onError?: (rejection: FilterRejection, c: Context<E>) => Response | void | Promise<Response | void>;
}

/**
 * What the validator declares: the query a client sends (for Hono's RPC client: strings,
 * a list for a repeated key) and the `Filter` a handler gets from `c.req.valid('query')`.
 */
export interface FilterInput {
  in: { query: Record<string, string | string[]> };
  out: { query: Filter };
}

/**
 * A validator of the request's query against `schema`: `app.get('/invoices',
 * filterQuery(invoices), (c) => … c.req.valid('query') …)`. The schema and options are
 * checked here, once: a mistake throws a `TypeError` when the app is set up.
 */
export function filterQuery<E extends Env = Env, P extends string = string>(
  schema: Schema,
  options?: HonoFilterOptions<E>,
): MiddlewareHandler<E, P, FilterInput> {
  // What `hono/validator` does, less the parse of the whole query into a record that it
  // makes for every request and this validator would leave unused (issue 26: it cost a
  // fifth of a request's CPU time): the checked Filter is what `c.req.valid('query')` reads.
  // Not an async function: a checked query hands on the promise of `next()` itself,
  // rather than a promise of its own awaiting that one.
  return routeCheck('qsfilter/hono filterQuery', schema, options, callNext);
}

/**
 * The route's handler, behind the check of its query against `schema`: `app.get('/invoices',
 * filterRoute(invoices, (c) => … c.req.valid('query') …))`. The same check and answers as
 * `filterQuery`, with a route of one handler: Hono calls that one directly, where a
 * middleware and a handler go through its composition of handlers, a chain of promises,
 * and the answer is written a turn of the event loop later (issue 26: about 10% of a
 * small route's CPU time per request). The schema, handler and options are checked here,
 * once: a mistake throws a `TypeError` when the app is set up.
 */
export function filterRoute<E extends Env = Env, P extends string = string, R extends HandlerResponse<unknown> = Response>(
  schema: Schema,
  handler: Handler<E, P, FilterInput, R>,
  options?: HonoFilterOptions<E>,
): Handler<E, P, FilterInput, R | Promise<Response>> {
  const who = 'qsfilter/hono filterRoute';
  const checked = routeCheck(who, schema, options, handler, FILTER_ROUTE_USAGE);
  if (typeof handler !== 'function') throw new TypeError(`${who}: the handler must be a function: (c) => a response, not ${handler === null ? 'null' : typeof handler}.`);
  return checked;
}

const FILTER_ROUTE_USAGE = { name: 'filterRoute', call: 'filterRoute(schema, handler)', route: 'app.get(path, filterRoute(schema, handler))' };

function callNext(_c: Context, next: Next): Promise<void> {
  return next();
}

/**
 * The one check of both forms: `then(c, next)` once the query checked (the next handler,
 * or the route's own), else the rejection answered.
 */
function routeCheck<E extends Env, P extends string, R>(
  who: string,
  schema: Schema,
  options: HonoFilterOptions<E> | undefined,
  then: (c: Context<E, P, FilterInput>, next: Next) => R,
  usage?: Parameters<typeof middlewareChecker>[3],
): (c: Context<E, P, FilterInput>, next: Next) => R | Promise<Response> {
  const { checkUrl, onError } = middlewareChecker<HonoFilterOptions<E>['onError']>(who, schema, options, usage);
  return (c, next) => {
    const outcome = checkUrl(c.req.url);
    if (outcome.ok) {
      c.req.addValidatedData('query', outcome.value);
      return then(c, next);
    }
    if (onError === undefined) return Promise.resolve(problemResponse(c, outcome));
    return Promise.resolve(onError(outcome, c as unknown as Context<E>)).then((answer) => answer ?? problemResponse(c, outcome));
  };
}

function problemResponse(c: Context, rejection: Extract<RequestOutcome, { ok: false }>): Response {
  return c.body(JSON.stringify(rejection.problem), 400, { 'content-type': PROBLEM_RESPONSE_TYPE });
}
