import type { FastifyInstance } from 'fastify';
import { openApiParameters, openApiProblemResponse, PROBLEM_CONTENT_TYPE } from 'qsfilter';
import { collections, type Resource } from '../resources';
import { MAX_NAME_LENGTH } from './businesses';
import { LINE_MEMO_DEPRECATED, MAX_LINES } from './deposits';

/** Options of the document: what the server does that a client must know. */
export interface DocumentOptions {
  /** Whether the store compares text case-insensitively: the text filters' descriptions say so. */
  readonly caseInsensitive: boolean;
}

/**
 * The OpenAPI 3.1 document of every route the server answers. The collection routes are
 * generated from the very schemas they check queries with: every request parameter,
 * filter, sort and paging parameter is described from the schema, so the document cannot
 * drift from what the server accepts. The routes that take bodies (`POST /Deposit`,
 * `POST /businesses`, `DELETE /businesses/{businessName}`) are described by hand from
 * their checks' own limits (`MAX_LINES`, `MAX_NAME_LENGTH`); a test compares the
 * document's operations with the routes the app serves.
 */
export function openApiDocument({ caseInsensitive }: DocumentOptions): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const resource of Object.keys(collections) as Resource[]) {
    paths[`/${resource}`] = {
      get: {
        operationId: `list${resource[0]!.toUpperCase()}${resource.slice(1)}`,
        summary: `One page of the ${resource} that match the filters, in the order asked for.`,
        parameters: openApiParameters(collections[resource], { caseInsensitive }),
        responses: {
          200: { description: 'One page of the matching items.', content: { 'application/json': { schema: PAGE_SCHEMA } } },
          400: openApiProblemResponse(),
          503: UNAVAILABLE,
        },
      },
    };
  }
  paths['/businesses'] = { ...(paths['/businesses'] as object), post: CREATE_BUSINESS };
  paths['/businesses/{businessName}'] = { delete: DELETE_BUSINESS };
  paths['/Deposit'] = { post: POST_DEPOSIT };
  paths['/openapi.json'] = {
    get: {
      operationId: 'getOpenApiDocument',
      summary: 'This document.',
      responses: { 200: { description: 'The OpenAPI 3.1 document of this server.', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'qsfilter example financial-data API',
      version: '1.0.0',
      description:
        'The example server of qsfilter: the collection routes with its filter language (see each parameter), POST /Deposit, and the businesses. Every error answer is an RFC 9457 problem (application/problem+json).',
    },
    paths,
  };
}

/** The answer of every collection route, as `routes/collections.ts` makes it. */
const PAGE_SCHEMA = {
  type: 'object',
  required: ['data', 'pagination', 'meta'],
  properties: {
    data: { type: 'array', items: { type: 'object' } },
    pagination: {
      type: 'object',
      required: ['offset', 'limit', 'count'],
      properties: {
        offset: { type: 'integer', minimum: 0 },
        limit: { type: 'integer', minimum: 1 },
        count: { type: 'integer', minimum: 0, description: 'How many items match, on every page.' },
        nextCursor: { type: 'string', description: 'Where the collection pages by cursor, on a full page: the after of the next page.' },
      },
    },
    meta: { type: 'object', description: 'The request parameters that selected the items (the connection, the report).', additionalProperties: { type: 'string' } },
  },
};

/** A problem other than a refused query (`http.ts`'s `problem`): a body's problems are in `errors`, each at a JSON Pointer. */
function problemResponse(description: string, bodyErrors = false): Record<string, unknown> {
  return {
    description,
    content: {
      [PROBLEM_CONTENT_TYPE]: {
        schema: {
          type: 'object',
          required: ['type', 'title', 'status', 'detail'],
          properties: {
            type: { type: 'string' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
            instance: { type: 'string', description: 'The request path.' },
            ...(bodyErrors
              ? {
                  errors: {
                    type: 'array',
                    items: {
                      type: 'object',
                      required: ['pointer', 'detail'],
                      properties: { pointer: { type: 'string', description: 'A JSON Pointer into the body (RFC 6901).' }, detail: { type: 'string' } },
                    },
                  },
                }
              : {}),
          },
        },
      },
    },
  };
}

/** A 400 that is either a refused query (`toProblemDetails`) or a refused body. */
function queryOrBodyProblem(): Record<string, unknown> {
  const query = openApiProblemResponse().content[PROBLEM_CONTENT_TYPE]!.schema;
  const body = (problemResponse('', true).content as Record<string, { schema: unknown }>)[PROBLEM_CONTENT_TYPE]!.schema;
  return {
    description: 'The query (the connection) or the body was refused: see detail and errors.',
    content: { [PROBLEM_CONTENT_TYPE]: { schema: { anyOf: [query, body] } } },
  };
}

/** Every route may answer 503: a query past `STATEMENT_TIMEOUT_MS`, or a request that arrives while the server stops. */
const UNAVAILABLE = problemResponse('The database did not answer in time (STATEMENT_TIMEOUT_MS), or the server is stopping: try again.');
const UNSUPPORTED = problemResponse('The body was not sent as application/json.');

const NAME_SCHEMA = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_NAME_LENGTH,
  not: { enum: ['.', '..'] },
  description: 'Any text but control characters, NUL, lone surrogates, "." and ".." (which a URL path cannot carry). Names are exact: case and spaces count.',
};

const BUSINESS_SCHEMA = {
  type: 'object',
  required: ['businessName', 'createdAt'],
  properties: { businessName: NAME_SCHEMA, createdAt: { type: 'string', format: 'date-time' } },
};

const CREATE_BUSINESS = {
  operationId: 'createBusiness',
  summary: 'Creates a business.',
  requestBody: {
    required: true,
    content: { 'application/json': { schema: { type: 'object', required: ['businessName'], properties: { businessName: NAME_SCHEMA } } } },
  },
  responses: {
    201: {
      description: 'Created; Location is its path, the name encoded with encodeURIComponent.',
      headers: { Location: { schema: { type: 'string' }, description: '/businesses/{businessName}' } },
      content: { 'application/json': { schema: { type: 'object', required: ['data'], properties: { data: BUSINESS_SCHEMA } } } },
    },
    400: problemResponse('The body is not { "businessName": "…" } with a name a business can have.', true),
    409: problemResponse('A business of that name exists.'),
    415: UNSUPPORTED,
    503: UNAVAILABLE,
  },
};

const DELETE_BUSINESS = {
  operationId: 'deleteBusiness',
  summary: 'Deletes the business of exactly that name.',
  parameters: [
    {
      name: 'businessName',
      in: 'path',
      required: true,
      description: 'The name, encoded with encodeURIComponent ("&" as %26, "/" as %2F, "%" as %25); a "+" is a plus.',
      schema: NAME_SCHEMA,
    },
  ],
  responses: {
    204: { description: 'Deleted.' },
    400: problemResponse('The path is not percent-encoded UTF-8, or names what no business can be named.'),
    404: problemResponse('No business has that name.'),
    503: UNAVAILABLE,
  },
};

const LINE_SCHEMA = {
  type: 'object',
  required: ['amount'],
  properties: {
    amount: { type: 'number' },
    description: { type: 'string' },
    memo: { type: 'string', deprecated: true, description: `Not stored since the ${LINE_MEMO_DEPRECATED.date} release: send the memo on the deposit.` },
  },
};

const DEPOSIT_SCHEMA = {
  type: 'object',
  required: ['id', 'businessName', 'serviceName', 'postedDate', 'totalAmount', 'lines'],
  properties: {
    id: { type: 'string' },
    businessName: { type: 'string' },
    serviceName: { type: 'string' },
    memo: { type: 'string' },
    postedDate: { type: 'string', description: 'YYYY-MM-DDT00:00:00, without an offset (UTC).' },
    totalAmount: { type: 'number', description: 'The sum of the lines, rounded to cents.' },
    lines: { type: 'array', items: { type: 'object', required: ['amount'], properties: { amount: { type: 'number' }, description: { type: 'string' } } } },
  },
};

const POST_DEPOSIT = {
  operationId: 'createDeposit',
  summary: `Pushes a deposit to a connection, as of the ${LINE_MEMO_DEPRECATED.date} release.`,
  parameters: ['businessName', 'serviceName'].map((name) => ({ name, in: 'query', required: true, schema: { type: 'string' }, description: 'The connection, as GET /deposits names it.' })),
  requestBody: {
    required: true,
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['lines'],
          properties: {
            memo: { type: 'string' },
            postedDate: { type: 'string', description: 'YYYY-MM-DD, or YYYY-MM-DDT00:00:00 as GET /deposits returns it; today (UTC) when absent.' },
            lines: { type: 'array', minItems: 1, maxItems: MAX_LINES, items: LINE_SCHEMA },
          },
        },
      },
    },
  },
  responses: {
    201: {
      description: 'Stored. A memo sent under a line was dropped: the Deprecation header and the deprecation member say so.',
      headers: { Deprecation: { schema: { type: 'string' }, description: `@${LINE_MEMO_DEPRECATED.seconds} (RFC 9745), when a line memo was dropped.` } },
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['data'],
            properties: {
              data: DEPOSIT_SCHEMA,
              deprecation: {
                type: 'object',
                required: ['field', 'since', 'droppedFromLines', 'detail'],
                properties: { field: { type: 'string' }, since: { type: 'string' }, droppedFromLines: { type: 'array', items: { type: 'integer' } }, detail: { type: 'string' } },
              },
            },
          },
        },
      },
    },
    400: queryOrBodyProblem(),
    413: problemResponse(`More than ${MAX_LINES} lines.`, true),
    415: UNSUPPORTED,
    503: UNAVAILABLE,
  },
};

/** `GET /openapi.json`: the document, generated once. */
export function openApiRoutes(app: FastifyInstance, options: DocumentOptions): void {
  const document = openApiDocument(options);
  app.get('/openapi.json', () => document);
}
