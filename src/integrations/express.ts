/**
 * `qsfilter/express`: `filterQuery(schema)`, a middleware for Express 5 and 4. It checks
 * the query of `req.originalUrl` as sent (never `req.query`, which Express has already
 * decoded leniently and, on Express 4, nested with `qs`), sets `req.filter`, and answers
 * a bad query 400 `application/problem+json`.
 */
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Filter, Schema } from '../index';
import { middlewareChecker, PROBLEM_RESPONSE_TYPE, type FilterQueryOptions, type FilterRejection } from './adapter';

export type { FilterQueryOptions, FilterRejection } from './adapter';

declare module 'express-serve-static-core' {
  interface Request {
    /**
     * The checked query, set by `filterQuery(schema)` (`qsfilter/express`), on the routes
     * that use it. A request is a Node stream, which already has a method of this name
     * (`Readable.prototype.filter`): the checked query shadows it, and the type says both,
     * so that Express's types, which extend Node's, stay valid without `skipLibCheck`.
     * Read it as a `Filter`; on a route without `filterQuery` it is still that method.
     */
    filter: Filter & IncomingMessage['filter'];
  }
}

/** Options of `filterQuery`: those of every adapter, and the hook for a custom error answer. */
export interface ExpressFilterOptions extends FilterQueryOptions {
  /**
   * Called instead of the default answer when a query does not check: it answers the
   * request itself, or passes the rejection on with `next(…)` to an error handler.
   */
  readonly onError?: (rejection: FilterRejection, req: Request, res: Response, next: NextFunction) => void;
}

const WHO = 'qsfilter/express filterQuery';

/**
 * A middleware that checks the request's query against `schema`: `app.get('/invoices',
 * filterQuery(invoices), (req, res) => … req.filter …)`. The schema and options are
 * checked here, once: a mistake throws a `TypeError` when the app is set up.
 */
export function filterQuery(schema: Schema, options?: ExpressFilterOptions): RequestHandler {
  const { checkUrl, onError } = middlewareChecker<ExpressFilterOptions['onError']>(WHO, schema, options);
  return function qsfilterQuery(req, res, next) {
    const outcome = checkUrl(req.originalUrl);
    if (outcome.ok) {
      req.filter = outcome.value as Request['filter'];
      next();
    } else if (onError !== undefined) {
      onError(outcome, req, res, next);
    } else {
      res.status(400).type(PROBLEM_RESPONSE_TYPE).json(outcome.problem);
    }
  };
}
