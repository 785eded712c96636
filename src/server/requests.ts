import { check, type CheckOptions } from '../check/check';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { toProblemDetails, type ProblemDetails, type ProblemOptions } from '../diagnostics/problem';
import type { Filter } from '../filter/filter';
import { resolveLimits, type Limits } from '../input/limits';
import { requestTarget } from '../input/url';
import { expectSchema, isSchema } from '../spec/guard';
import { checkParamsOption, everyElement, isObject, ownCopy, ownOptions, wrongArgument } from '../arguments/arguments';

// The request check every server adapter is made of (reference §10), public so that the
// adapters use the package through its main entry alone, as a framework's user who
// writes an adapter of their own does.

/**
 * What every server adapter takes, and `requestChecks`: how to check (reference §7's
 * limits, extra pass-through keys, case) and how the 400 answer is labelled. Checked
 * once, when the adapter is set up: a mistake is a `TypeError` then, never a failure on
 * some later request.
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

/** What a server adapter says of itself, and takes besides `FilterQueryOptions`. */
export interface AdapterSetup {
  /** How each `TypeError` about its arguments begins: `qsfilter/express filterQuery`, `koa-filter`. */
  readonly name: string;
  /** Its own options, beside `FilterQueryOptions`': hooks, each a function when given (`onError`). The adapter reads them. */
  readonly hooks?: readonly string[];
  /**
   * How its factory is called right (`filterQuery`, `filterQuery(schema)`, `app.get(path,
   * filterQuery(schema), handler)`): what the `TypeError` says when a route was given the
   * factory itself, which then gets a request where the schema should be.
   */
  readonly usage?: FactoryUsage;
}

/**
 * What `requestChecks` gives: the checker of each schema (`where` names the schema in its
 * error: `'config.filter of GET /x'`), and the adapter's hooks as read from its options,
 * once.
 */
export interface RequestChecks {
  (schema: unknown, where?: string): RequestChecker;
  /** Each hook of `setup.hooks` that the options give: a function. Read once, as own properties, when the options were checked. */
  readonly hooks: Readonly<Record<string, ((...args: never[]) => unknown) | undefined>>;
}

/** How a factory of route handlers is called right, for the error of a route given the factory itself. */
export interface FactoryUsage {
  readonly name: string;
  readonly call: string;
  readonly route: string;
}

/**
 * The request check of a server adapter, for a framework qsfilter has none for (reference
 * §10): reads `options` once, then makes the checker of each schema, which takes a request
 * URL as sent (`/invoices?…`, its query never decoded by the framework) and gives the
 * `Filter`, or the diagnostics and the problem details of the 400 answer, its `instance`
 * the request's path. A wrong option or schema is a `TypeError` that begins with
 * `setup.name`, when it is given. Options beyond `FilterQueryOptions` (which an
 * adapter's options type extends) are its hooks, named in `setup.hooks`.
 *
 * ```ts
 * const checkerOf = requestChecks({ name: 'koa-filter' }, { problem: { type: 'https://example.com/problems/query' } });
 * const checkInvoices = checkerOf(invoices);
 * const outcome = checkInvoices(ctx.originalUrl); // { ok: true, value: Filter } or { ok: false, errors, problem }
 * ```
 */
export function requestChecks(setup: AdapterSetup, options?: FilterQueryOptions): RequestChecks {
  const { name: who, hooks = [], usage } = setupOf(setup);
  // Own properties alone, each read once (a copy without a prototype; none at all is an
  // empty one): what Object.prototype holds is no option, and what the caller changes
  // later changes nothing here.
  const given = (ownOptions(who, options, [...OPTION_KEYS, ...hooks]) ?? ownCopy({})) as Record<string, unknown>;
  const hookValues: Record<string, ((...args: never[]) => unknown) | undefined> = ownCopy({});
  for (const hook of hooks) {
    const value = given[hook];
    if (value !== undefined && typeof value !== 'function') wrongArgument(who, `"${hook}"`, 'a function', value);
    hookValues[hook] = value as ((...args: never[]) => unknown) | undefined;
  }
  const givenParams = given.params;
  if (givenParams !== undefined && (!Array.isArray(givenParams) || !everyElement(givenParams, (p) => typeof p === 'string'))) wrongArgument(who, '"params"', 'an array of strings', givenParams);
  const params = givenParams === undefined ? undefined : Object.freeze([...(givenParams as string[])]);
  const labels = problemLabels(who, given.problem);
  const { limits, caseInsensitive } = given as Pick<FilterQueryOptions, 'limits' | 'caseInsensitive'>;
  if (caseInsensitive !== undefined && typeof caseInsensitive !== 'boolean') wrongArgument(who, '"caseInsensitive"', 'true or false', caseInsensitive);
  // Bad limits or pass-through keys are refused now (a TypeError that names the adapter), not on some request.
  const resolved = limits === undefined ? undefined : Object.freeze(ownCopy(resolveLimits(limits, who)));
  checkParamsOption(who, params);
  // No options at all is none, not `{}`: check reads and checks every options object it is given, on each request.
  const checking: CheckOptions | undefined =
    resolved === undefined && params === undefined && caseInsensitive === undefined
      ? undefined
      : // Without a prototype, as check would copy it on every request otherwise (ownOptions).
        Object.freeze(ownCopy({ ...(resolved === undefined ? {} : { limits: resolved }), ...(params === undefined ? {} : { params }), ...(caseInsensitive === undefined ? {} : { caseInsensitive }) }));
  const checkerOf = (schema: unknown, where = 'the schema'): RequestChecker => {
    // A factory given as the route gets a request where its schema goes: Express's `req`,
    // Hono's `c`, whose `headers` and `req` are getters of their prototypes (hence `in`,
    // asked only of what is not a schema: a `headers` on Object.prototype changes nothing).
    if (usage !== undefined && !isSchema(schema) && isObject(schema) && ('headers' in schema || 'req' in schema)) {
      wrongArgument(who, where, 'a schema made by defineSchema()', schema, `The route was given ${usage.name} itself: give it ${usage.call}, ${usage.route}.`);
    }
    expectSchema(who, schema, where);
    return (url) => {
      const { pathname, search } = requestTarget(who, url);
      const result = check(search, schema, checking);
      if (result.ok) return result;
      return { ok: false, errors: result.errors, problem: toProblemDetails(result.errors, { ...labels, instance: pathname }) };
    };
  };
  return Object.assign(checkerOf, { hooks: Object.freeze(hookValues) });
}

/** The `problem` option: its `type` and `title`, copied (each a string), or none. */
function problemLabels(who: string, problem: unknown): ProblemLabels {
  if (problem === undefined) return {};
  if (!isObject(problem)) wrongArgument(who, '"problem"', 'an object: { type?, title? }', problem);
  const labels: { type?: string; title?: string } = {};
  for (const [key, value] of Object.entries(problem)) {
    if (key !== 'type' && key !== 'title') throw new TypeError(`${who}: "problem" has the unknown property ${JSON.stringify(key)} (expected type, title).`);
    if (typeof value !== 'string') wrongArgument(who, `"problem.${key}"`, 'a string', value);
    labels[key] = value;
  }
  return Object.freeze(labels);
}

const OPTION_KEYS = ['caseInsensitive', 'limits', 'params', 'problem'];

/** The setup of `requestChecks`, its own properties alone: a name, hook names, a usage of three strings. */
function setupOf(setup: unknown): AdapterSetup {
  const fn = 'requestChecks';
  if (!isObject(setup) || !Object.hasOwn(setup, 'name') || typeof setup.name !== 'string' || setup.name === '') {
    wrongArgument(fn, 'the setup', 'an object: { name, hooks?, usage? }, name a string that is not empty', setup);
  }
  const own = ownCopy(setup);
  const { hooks, usage } = own;
  if (hooks !== undefined && (!Array.isArray(hooks) || !everyElement(hooks, (h) => typeof h === 'string'))) wrongArgument(fn, '"hooks"', 'an array of option names', hooks);
  const taken = (hooks as string[] | undefined)?.find((hook) => OPTION_KEYS.includes(hook));
  if (taken !== undefined) throw new TypeError(`${fn}: the hook "${taken}" is an option of every adapter (${OPTION_KEYS.join(', ')}): name it otherwise.`);
  if (usage !== undefined && !(isObject(usage) && ['name', 'call', 'route'].every((key) => Object.hasOwn(usage, key) && typeof usage[key] === 'string'))) {
    wrongArgument(fn, '"usage"', 'an object of three strings: { name, call, route }', usage);
  }
  return own as unknown as AdapterSetup;
}
