/**
 * The example financial-data API on Fastify 5.
 *
 * Why Fastify: the filter language needs the query string exactly as sent, and Fastify
 * lets a server swap its query parser out (here for one that parses nothing) and run
 * routes without schemas, while it remains the framework people choose for speed.
 * Express would parse every query with `qs` first (nesting `a[b]=1` into objects);
 * Node's bare `http` would work but leaves routing, bodies and errors to hand-written code.
 */
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { qsfilter } from 'qsfilter/fastify';
import { problem, sendProblem, splitUrl } from './http';
import { nodeErrorAnswers } from './node-errors';
import { businessRoutes } from './routes/businesses';
import { collectionRoutes } from './routes/collections';
import { depositRoutes } from './routes/deposits';
import { openApiRoutes } from './routes/openapi';
import { playgroundRoute } from './routes/playground';
import { StoreUnavailable, type Store } from './store/store';

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The longest path segment the router reads (an encoded business name is long: 200 emoji take 2,400 characters). */
const MAX_PARAM_LENGTH = 4096;

/** Options of `buildApp`. */
export interface AppOptions {
  readonly store: Store;
  /** Fastify's request log (`LOG=1`); off by default. A failure (every 500, with its cause) is logged either way. */
  readonly logger?: boolean;
  /**
   * Whether text compares case-insensitively; true by default, as `main.ts`. Given once, to
   * the `qsfilter/fastify` plugin: every filter it hands a route carries it, the stores
   * follow the filter, and /openapi.json says so.
   */
  readonly caseInsensitive?: boolean;
  /** The playground page to serve at `/` (see examples/playground/build.ts); none by default. */
  readonly playground?: string;
  /** Where log lines go, one JSON object each (Fastify's pino); standard output by default. */
  readonly logStream?: { write(line: string): unknown };
  /**
   * How long a request may take to arrive in full, headers and body (10 s by default):
   * past it, a 408 problem, and the connection closes.
   */
  readonly requestTimeoutMs?: number;
  /**
   * How long an answer may take once its request has arrived (the store's
   * `answerTimeoutMs`): past it, a 503 problem. None by default.
   */
  readonly answerTimeoutMs?: number;
}

/** `requestTimeoutMs` when not given. */
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * Builds the API over a store: `GET` for every collection, `POST /Deposit`, and
 * `POST`/`DELETE` for businesses, `GET /openapi.json` (and the playground at `/` when
 * given). Every error answer is an RFC 9457 problem.
 */
export function buildApp({ store, logger = false, caseInsensitive = true, playground, logStream, requestTimeoutMs = REQUEST_TIMEOUT_MS, answerTimeoutMs }: AppOptions): FastifyInstance {
  // Node's own answers (a request its parser refuses, one that does not arrive in time) as problems.
  const nodeErrors = nodeErrorAnswers(requestTimeoutMs);
  const app = Fastify({
    clientErrorHandler: nodeErrors.clientErrorHandler,
    requestTimeout: requestTimeoutMs,
    http: {
      // Node would answer an HTTP/1.1 request without Host with an empty 400: the onRequest hook answers it.
      requireHostHeader: false,
      // How often Node looks for requests past requestTimeout (30 s by default, which would let one take 40).
      connectionsCheckingInterval: Math.min(1000, requestTimeoutMs),
    },
    ...(answerTimeoutMs === undefined ? {} : { handlerTimeout: answerTimeoutMs }),
    // Errors are always logged: a 500 says "the error is logged", and must be true.
    logger: { level: logger ? 'info' : 'error', ...(logStream === undefined ? {} : { stream: logStream }) },
    routerOptions: {
      // Routes read the raw query from request.url; Fastify's parser would decode
      // `%acme%` leniently and fold repeated keys, and must not reject anything first.
      // (A `;` does not end the path either: Fastify 5's useSemicolonDelimiter is off.)
      querystringParser: () => ({}),
      maxParamLength: MAX_PARAM_LENGTH,
    },
    // Fastify's own answer to a request that comes while the server closes is a plain
    // JSON 503: the onRequest hook below answers it with a problem instead.
    return503OnClosing: false,
    // The router refuses a path segment that is not percent-encoded UTF-8, or longer than maxParamLength.
    frameworkErrors: (error, request, reply) => {
      const { path } = splitUrl(request.url);
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendProblem(reply, problem(414, `A segment of the path is longer than this server reads (${MAX_PARAM_LENGTH} characters).`, path));
      if (error.code !== 'FST_ERR_BAD_URL') return sendProblem(reply, problem(error.statusCode ?? 400, error.message, path));
      return sendProblem(
        reply,
        problem(400, `The path ${JSON.stringify(path)} is not valid percent-encoded UTF-8.`, path, {
          errors: [
            {
              code: 'MALFORMED_ENCODING',
              message: 'A "%" in the path is not followed by two hex digits, or the bytes are not UTF-8.',
              hint: 'Encode each path segment with encodeURIComponent: a "%" in a name is sent as "%25".',
            },
          ],
        }),
      );
    },
  });

  // Fastify's JSON parser decodes the body leniently, and invalid UTF-8 would be stored
  // as U+FFFD: the body is decoded strictly first, then parsed by Fastify's own parser
  // (which keeps its refusal of "__proto__" and "constructor" keys).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = STRICT_UTF8.decode(body as Buffer);
    } catch {
      done(Object.assign(new Error('The body is not valid UTF-8.'), { statusCode: 400 }), undefined);
      return;
    }
    parseJson(request, text, done);
  });

  // Closing (SIGTERM): requests in flight are answered, and one that arrives on a kept-alive
  // connection meanwhile gets a 503 problem, and the connection closes.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    nodeErrors.closing();
  });
  app.addHook('onRequest', async (request, reply) => {
    if (closing) {
      reply.header('connection', 'close').header('retry-after', '1');
      return sendProblem(reply, problem(503, 'The server is stopping: send the request again.', splitUrl(request.url).path));
    }
    // HTTP/1.1 requires it (RFC 9112 §3.2); Node's own check would answer with an empty body.
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      reply.header('connection', 'close');
      return sendProblem(reply, problem(400, 'An HTTP/1.1 request names the server in a Host header, and this one has none.', splitUrl(request.url).path));
    }
  });
  nodeErrors.attach(app.server);

  // The methods of each route, by path pattern: a path that exists under another method
  // is a 405 that says which it takes, not a 404 that says nothing is there.
  const routes: { readonly segments: readonly string[]; readonly methods: readonly string[] }[] = [];
  app.addHook('onRoute', (route) => {
    routes.push({ segments: route.url.split('/'), methods: ([] as string[]).concat(route.method) });
  });

  app.setNotFoundHandler((request, reply) => {
    const { path } = splitUrl(request.url);
    const allowed = methodsOf(routes, path);
    if (allowed.length === 0) return sendProblem(reply, problem(404, `There is no ${request.method} ${path}.`, path));
    reply.header('allow', allowed.join(', '));
    return sendProblem(reply, problem(405, `${path} takes ${allowed.join(', ')}, not ${request.method}.`, path));
  });

  // Body parsing and the like fail with 4xx errors: they become problems too.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { path } = splitUrl(request.url);
    // Store work shed (the server is busy) or past the statement timeout: its message says which.
    if (error instanceof StoreUnavailable) return sendProblem(reply.header('retry-after', String(error.retryAfterSeconds)), problem(503, error.message, path));
    if (error.code === 'FST_ERR_HANDLER_TIMEOUT') {
      const detail = `The server is busy: it could not answer within ${answerTimeoutMs} ms. Send the request again in 1 s.`;
      return sendProblem(reply.header('retry-after', '1'), problem(503, detail, path));
    }
    const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, `${request.method} ${path} failed: ${error.message}`);
    sendProblem(reply, problem(status, status === 500 ? 'The server failed; the error is logged.' : error.message, path));
  });

  // Collection routes ask it for their checked query (config.filter → request.filter),
  // which carries the case choice to the store. No other route compares text by a filter:
  // a business is named exactly, and POST /Deposit selects nothing.
  void app.register(qsfilter, { caseInsensitive });
  collectionRoutes(app, store);
  openApiRoutes(app, { caseInsensitive });
  depositRoutes(app, store);
  businessRoutes(app, store);
  if (playground !== undefined) playgroundRoute(app, playground);
  return app;
}

/** The methods of the routes whose pattern matches `path` (a `:name` segment matches any one segment), in order. */
function methodsOf(routes: readonly { readonly segments: readonly string[]; readonly methods: readonly string[] }[], path: string): string[] {
  const segments = path.split('/');
  const methods = new Set<string>();
  for (const route of routes) {
    if (route.segments.length !== segments.length) continue;
    if (route.segments.every((s, i) => (s.startsWith(':') ? segments[i] !== '' : s === segments[i]))) for (const m of route.methods) methods.add(m);
  }
  return [...methods];
}
