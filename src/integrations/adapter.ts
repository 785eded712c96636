// An adapter uses the package as its users do, through the public entry: in dist it
// imports the main entry instead of bundling a second copy of it (tsup.config.ts).
// Beside it, the argument checks (arguments/, schema/guard, input/limits) come from
// their modules, so that a wrong option is a TypeError that names the adapter: pure
// functions without state (a schema is recognised by its shape, not by a registry),
// which each adapter's file holds a copy of, and which stay out of the public API.
import {
  check,
  PROBLEM_CONTENT_TYPE,
  splitRequestUrl,
  toProblemDetails,
  type CheckOptions,
  type Diagnostic,
  type Filter,
  type Limits,
  type ProblemDetails,
  type ProblemOptions,
} from '../index';
import { expectSchema } from '../spec/guard';
import { checkParamsOption, isObject, ownCopy, ownOptions, wrongArgument } from '../arguments/arguments';
import { resolveLimits } from '../input/limits';

/**
 * What every server adapter takes: how to check (reference §7's limits, extra pass-through
 * keys) and how the 400 answer is labelled. Checked once, when the adapter is set up:
 * a mistake is a `TypeError` then, never a failure on some later request.
 */
export interface FilterQueryOptions {
  /**
   * Whether this server compares text case-insensitively: the filter it hands over
   * carries it (`filter.caseInsensitive`), and `compile`, `sortItems` and `toSql` follow
   * it unless told otherwise (reference §10). Checking does not depend on case.
   */
  readonly caseInsensitive?: boolean;
  /** Overrides of the limits of reference §7. */
  readonly limits?: Partial<Limits>;
  /** Keys passed through untouched, besides the schema's request parameters (a CSRF token, a tracking id…). */
  readonly params?: readonly string[];
  /**
   * The `type` (a URI naming the problem) and `title` of the problem details body; the
   * `instance` is the request's path, as sent.
   */
  readonly problem?: ProblemLabels;
}

/** How the 400 answer's problem details are labelled: `toProblemDetails`'s `type` and `title`. */
export type ProblemLabels = Pick<ProblemOptions, 'type' | 'title'>;

/** A query that did not check: every diagnostic, and the problem details body that answers it by default. */
export interface FilterRejection {
  readonly errors: readonly Diagnostic[];
  /** The RFC 9457 body of the 400 answer, its `instance` the request path. */
  readonly problem: ProblemDetails;
}

/** The outcome of checking one request: its filter, or why not. */
export type RequestOutcome = { readonly ok: true; readonly value: Filter } | ({ readonly ok: false } & FilterRejection);

/** Checks the query of a request URL as sent (`/invoices?…` or `http://host/invoices?…`) against one schema. */
export type RequestChecker = (url: string) => RequestOutcome;

/**
 * Reads the options of an adapter (`who` names it in errors): the common ones, and
 * `onError`, each adapter's hook for a custom answer, which must be a function. Returns
 * a function that makes the checker of a schema, for the adapters that learn their
 * schemas later (Fastify's routes).
 */
export function adapterSettings(who: string, options: unknown): (schema: unknown, where: string) => RequestChecker {
  options = ownOptions(who, options, OPTION_KEYS);
  const given = (options ?? {}) as Record<string, unknown>;
  if (given.onError !== undefined && typeof given.onError !== 'function') wrongArgument(who, '"onError"', 'a function', given.onError);
  const params = given.params;
  if (params !== undefined && (!Array.isArray(params) || !params.every((p) => typeof p === 'string'))) wrongArgument(who, '"params"', 'an array of strings', params);
  const problem = given.problem;
  if (problem !== undefined) {
    if (!isObject(problem)) wrongArgument(who, '"problem"', 'an object: { type?, title? }', problem);
    for (const [key, value] of Object.entries(problem)) {
      if (key !== 'type' && key !== 'title') throw new TypeError(`${who}: "problem" has the unknown property ${JSON.stringify(key)} (expected type, title).`);
      if (typeof value !== 'string') wrongArgument(who, `"problem.${key}"`, 'a string', value);
    }
  }
  const { limits, caseInsensitive } = given as Pick<FilterQueryOptions, 'limits' | 'caseInsensitive'>;
  if (caseInsensitive !== undefined && typeof caseInsensitive !== 'boolean') wrongArgument(who, '"caseInsensitive"', 'true or false', caseInsensitive);
  // No options at all is none, not `{}`: check reads and checks every options object it is given, on each request.
  const checking: CheckOptions | undefined =
    limits === undefined && params === undefined && caseInsensitive === undefined
      ? undefined
      : // Without a prototype, as check would copy it on every request otherwise (ownOptions).
        ownCopy({ ...(limits === undefined ? {} : { limits }), ...(params === undefined ? {} : { params: params as string[] }), ...(caseInsensitive === undefined ? {} : { caseInsensitive }) });
  // Bad limits or pass-through keys are refused now (a TypeError that names the adapter), not on some request.
  resolveLimits(limits, who);
  checkParamsOption(who, params);
  const labels = (problem ?? {}) as ProblemLabels;
  return (schema, where) => {
    expectSchema(who, schema, where);
    return (url) => {
      const { pathname, search } = splitRequestUrl(url);
      const result = check(search, schema, checking);
      if (result.ok) return result;
      return { ok: false, errors: result.errors, problem: toProblemDetails(result.errors, { ...labels, instance: pathname }) };
    };
  };
}

const OPTION_KEYS = ['caseInsensitive', 'limits', 'params', 'problem', 'onError'];

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
 * `usage` is how the factory is called right (`filterQuery(schema)` by default).
 */
export function middlewareChecker(who: string, schema: unknown, options: unknown, usage = FILTER_QUERY_USAGE): RequestChecker {
  if (isObject(schema) && ('headers' in schema || 'req' in schema)) {
    wrongArgument(who, 'the schema', 'a schema made by defineSchema()', schema, `The route was given ${usage.name} itself: give it ${usage.call}, ${usage.route}.`);
  }
  return adapterSettings(who, options)(schema, 'the schema');
}

/** How a factory of route handlers is called right, for the error of a route given the factory itself. */
export interface FactoryUsage {
  readonly name: string;
  readonly call: string;
  readonly route: string;
}

const FILTER_QUERY_USAGE: FactoryUsage = { name: 'filterQuery', call: 'filterQuery(schema)', route: 'app.get(path, filterQuery(schema), handler)' };
