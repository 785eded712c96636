import type { FastifyInstance } from 'fastify';
import { openApiParameters, openApiProblemResponse } from 'qsfilter';
import { collections, type Resource } from '../resources';

/** Options of the document: what the server does that a client must know. */
export interface DocumentOptions {
  /** Whether the store compares text case-insensitively: the text filters' descriptions say so. */
  readonly caseInsensitive: boolean;
}

/**
 * The OpenAPI 3.1 document of the collection routes, generated from the very schemas
 * they check queries with: every request parameter, filter, sort and paging parameter
 * is described from the schema, so the document cannot drift from what the server
 * accepts. (`POST /Deposit` and the business routes take bodies, and are not described.)
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
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'qsfilter example financial-data API',
      version: '1.0.0',
      description: 'The collection routes of the example server, with the filter language of qsfilter (see each parameter).',
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
      },
    },
    meta: { type: 'object', description: 'The request parameters that selected the items (the connection, the report).', additionalProperties: { type: 'string' } },
  },
};

/** `GET /openapi.json`: the document, generated once. */
export function openApiRoutes(app: FastifyInstance, options: DocumentOptions): void {
  const document = openApiDocument(options);
  app.get('/openapi.json', () => document);
}
