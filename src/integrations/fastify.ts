/**
 * `qsfilter/fastify`: a Fastify 5 plugin. `app.register(qsfilter)`, then a route opts in
 * with `config: { filter: schema }`; its handler reads the checked `request.filter`, and
 * a bad query is answered 400 `application/problem+json` before the body is read.
 */
import type { FastifyPluginCallback, FastifyReply, FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import type { Filter, Schema } from '../index';
import { requestChecks, type RequestChecks } from '../index';
import { HOOKS, PROBLEM_RESPONSE_TYPE, type FilterQueryOptions, type FilterRejection, type RequestChecker } from './adapter';

export type { FilterQueryOptions, FilterRejection } from './adapter';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The schema this route's query is checked against (`qsfilter/fastify`). */
    filter?: Schema;
  }
  interface FastifyRequest {
    /**
     * The checked query of a route declared with `config: { filter: schema }`. Reading it
     * on another route is a programmer error, and throws a `TypeError` that says so.
     */
    readonly filter: Filter;
  }
}

/** Options of the plugin: those of every adapter, and the hook for a custom error answer. */
export interface FastifyFilterOptions extends FilterQueryOptions {
  /**
   * Called instead of the default answer when a query does not check. It may send its own
   * reply; if it sends none, the default 400 problem is sent after it.
   */
  readonly onError?: (rejection: FilterRejection, request: FastifyRequest, reply: FastifyReply) => void | Promise<void>;
}

const WHO = 'qsfilter/fastify';
/** Where the hook keeps the filter; `request.filter` reads it. */
const FILTER = Symbol('qsfilter.filter');

type WithFilter = FastifyRequest & { [FILTER]: Filter | null };

const plugin: FastifyPluginCallback<FastifyFilterOptions> = (app, options, done) => {
  let checkerFor: RequestChecks;
  try {
    checkerFor = requestChecks({ name: WHO, hooks: HOOKS }, options);
  } catch (error) {
    // A callback plugin reports through done: app.register() and app.ready() then reject with it.
    done(error as Error);
    return;
  }
  // A symbol set on every request, so that each request object keeps one shape.
  app.decorateRequest(FILTER, null);
  app.decorateRequest('filter', {
    getter(this: FastifyRequest): Filter {
      const filter = (this as WithFilter)[FILTER];
      if (filter === null) {
        throw new TypeError(`${WHO}: request.filter is only set on routes declared with config: { filter: schema }, once their query has been checked (this is ${this.method} ${this.routeOptions.url ?? 'no route'}).`);
      }
      return filter;
    },
  });
  // One checker per schema, built (and the schema checked) once: when a route is
  // declared, if the plugin has loaded by then, else on the route's first request.
  const checkers = new WeakMap<object, RequestChecker>();
  const checkerOf = (schema: unknown, where: string): RequestChecker => {
    let checker = typeof schema === 'object' && schema !== null ? checkers.get(schema) : undefined;
    if (checker === undefined) {
      checker = checkerFor(schema, where);
      checkers.set(schema as object, checker);
    }
    return checker;
  };
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = (route.config as { filter?: unknown } | undefined)?.filter;
    if (schema !== undefined) checkerOf(schema, `config.filter of ${route.method.toString()} ${route.url}`);
  });
  app.addHook('onRequest', filterHook(checkerOf, checkerFor.hooks.onError as FastifyFilterOptions['onError']));
  done();
};

/**
 * The `onRequest` hook: on a route with `config.filter`, it checks the URL as sent
 * (`request.url`, never the framework's parsed `request.query`, which lost strict
 * decoding) before the body is read. An application-wide hook, not one added to each
 * route, so that it also serves the routes declared before the plugin finished loading
 * (`app.register(qsfilter)` without `await`, then `app.get(…)`).
 */
function filterHook(checkerOf: (schema: unknown, where: string) => RequestChecker, onError: FastifyFilterOptions['onError']): onRequestHookHandler {
  return function qsfilterHook(request, reply, done) {
    const route = request.routeOptions;
    const schema = (route.config as { filter?: unknown } | undefined)?.filter;
    if (schema === undefined) return done();
    const outcome = checkerOf(schema, `config.filter of ${request.method} ${route.url ?? ''}`)(request.url);
    if (outcome.ok) {
      (request as WithFilter)[FILTER] = outcome.value;
      return done();
    }
    const answer = () => {
      if (!reply.sent) void reply.code(400).type(PROBLEM_RESPONSE_TYPE).send(outcome.problem);
    };
    if (onError === undefined) return answer();
    // Responding from a hook: reply.send, and done is not called.
    Promise.resolve()
      .then(() => onError(outcome, request, reply))
      .then(answer, (error: unknown) => done(error as Error));
  };
}

/**
 * The plugin. Register it before the routes that use it; it is not encapsulated (as
 * `fastify-plugin` would mark it, done here by hand so that qsfilter keeps no runtime
 * dependency), so routes of every context registered after it can opt in. Its hook runs
 * among the application's `onRequest` hooks in the order they were added, before any
 * route's own: an authentication hook that must answer first is added before it.
 */
export const qsfilter: FastifyPluginCallback<FastifyFilterOptions> = Object.assign(plugin, {
  [Symbol.for('skip-override')]: true,
  [Symbol.for('fastify.display-name')]: 'qsfilter',
  [Symbol.for('plugin-meta')]: { name: 'qsfilter', fastify: '5.x' },
});
