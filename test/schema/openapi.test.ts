import { validate as validateOpenApi } from '@readme/openapi-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  catalog,
  check,
  defineSchema,
  DIAGNOSTIC_CODES,
  openApiParameters,
  openApiProblemResponse,
  OPERATORS,
  toProblemDetails,
  type OpenApiParameter,
  type Schema,
} from '../../src/index';
import { randomSchema } from '../support/generators';
import { exampleQuery } from '../support/openapi';

const schema = defineSchema({
  fields: {
    totalAmount: { type: 'number', sortable: true },
    vendorName: 'string',
    postedDate: { type: 'date', sortable: true },
    customerRef: { type: 'ref' },
    lines: { type: 'array', of: { amount: 'number', memo: { type: 'string', removed: 'Filter on memo.' } } },
  },
  params: { businessName: { type: 'string', required: true }, startDate: 'date', pages: 'number' },
  paging: { defaultLimit: 20, maxLimit: 50 },
  sortParam: 'sort',
});

const byName = (parameters: OpenApiParameter[]) => new Map(parameters.map((p) => [p.name, p]));

describe('openApiParameters (reference §10)', () => {
  const parameters = openApiParameters(schema);
  const named = byName(parameters);

  it('lists the request parameters, one per filterable path (removed ones left out), the sort, then paging', () => {
    expect(parameters.map((p) => p.name)).toEqual([
      'businessName',
      'startDate',
      'pages',
      'totalAmount',
      'vendorName',
      'postedDate',
      'customerRef.id',
      'lines.amount',
      'sort',
      'limit',
      'offset',
    ]);
    expect(parameters.every((p) => p.in === 'query')).toBe(true);
  });

  it('types the request parameters, plain, required where the schema says', () => {
    expect(named.get('businessName')).toEqual({
      name: 'businessName',
      in: 'query',
      description: 'A request parameter (not a filter): one text, matched exactly, plain: no operators, no wildcards.',
      required: true,
      schema: { type: 'string' },
    });
    expect(named.get('startDate')).toMatchObject({ required: false, schema: { type: 'string', anyOf: [{ format: 'date' }, { format: 'date-time' }] } });
    expect(named.get('pages')).toMatchObject({ required: false, schema: { type: 'number' } });
    const listed = byName(openApiParameters(defineSchema({ fields: {}, params: ['trace'] })));
    expect(listed.get('trace')).toMatchObject({ style: 'form', explode: true, schema: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] } });
  });

  it('describes a filter as a form parameter, a string or a list for a repeated key, with its operators and an example', () => {
    expect(named.get('totalAmount')).toEqual({
      name: 'totalAmount',
      in: 'query',
      description:
        'A number. `totalAmount=100` is equal; `gt:`, `gte:`, `lt:`, `lte:` compare (`totalAmount=gte:100`). Clauses joined by `;` must all hold, and so must each repetition of the parameter. Example: `totalAmount=gte:100;lte:200`.',
      required: false,
      style: 'form',
      explode: true,
      schema: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
      example: 'gte:100;lte:200',
      'x-qsfilter': { type: 'number', operators: ['eq', 'gt', 'gte', 'lt', 'lte'], wildcard: false },
    });
    expect(named.get('vendorName')).toMatchObject({ example: '%acme%', 'x-qsfilter': { type: 'string', operators: ['eq'], wildcard: true } });
    expect(named.get('vendorName')!.description).toContain('`%` (sent as `%25`) matches any run of characters');
    expect(named.get('vendorName')!.description).toContain('Example: `vendorName=%25acme%25`.');
    expect(named.get('postedDate')!.description).toContain('`YYYY-MM-DD` is the whole UTC day');
    expect(named.get('postedDate')!.description).toContain('its `+` sent as `%2B`');
    expect(named.get('customerRef.id')).toMatchObject({ example: '42', 'x-qsfilter': { type: 'id', operators: ['eq'], wildcard: true } });
    expect(named.get('lines.amount')).toMatchObject({ 'x-qsfilter': { type: 'number', array: 'lines' } });
    expect(named.get('lines.amount')!.description).toMatch(/^A field of each element of `lines`: the clauses of one parameter hold for the same element/);
  });

  it('says whether text compares case-sensitively, as the server does', () => {
    expect(named.get('vendorName')!.description).toContain('(case-sensitive)');
    const folded = byName(openApiParameters(schema, { caseInsensitive: true }));
    expect(folded.get('vendorName')!.description).toContain('(case-insensitive)');
    expect(folded.get('customerRef.id')!.description).toContain('(case-insensitive)');
  });

  it('describes the sort as a comma-separated list of the sortable fields, "-" for descending', () => {
    expect(named.get('sort')).toEqual({
      name: 'sort',
      in: 'query',
      description:
        'The order of the items: fields joined by `,`, each ascending, or descending with a leading `-` (`sort=-postedDate,totalAmount`); the first decides, the next ones break ties, each field once. A missing or mistyped value sorts last either way. Sortable: totalAmount, postedDate.',
      required: false,
      style: 'form',
      explode: false,
      schema: { type: 'array', uniqueItems: true, minItems: 1, items: { type: 'string', enum: ['totalAmount', '-totalAmount', 'postedDate', '-postedDate'] } },
      example: ['-postedDate', 'totalAmount'],
    });
    // Nothing sortable, no sort parameter.
    expect(openApiParameters(catalog.connections).map((p) => p.name)).not.toContain('orderBy');
  });

  it('gives limit and offset the schema\'s default and maximum', () => {
    expect(named.get('limit')).toMatchObject({ schema: { type: 'integer', minimum: 1, maximum: 50, default: 20 } });
    expect(named.get('limit')!.description).toBe('How many matching items to return: at most 50, 20 when not sent.');
    expect(named.get('offset')).toMatchObject({ schema: { type: 'integer', minimum: 0, default: 0 } });
    expect(openApiParameters(defineSchema({ fields: { a: 'number' } })).map((p) => p.name)).toEqual(['a']);
  });

  it('refuses what is not a schema, with a TypeError', () => {
    expect(() => openApiParameters({ fields: {} } as never)).toThrow(TypeError);
  });
});

/** A value of a request parameter's type, for the required ones. */
function valueOf(parameter: OpenApiParameter): string {
  const schema = parameter.schema as { type?: string; anyOf?: unknown };
  return schema.type === 'number' ? '1' : schema.anyOf !== undefined && schema.type === 'string' ? '2023-01-01' : 'Acme';
}

/** Every example, sent as a tool would send it, is a query the schema accepts; each name once, one parameter per filterable path. */
function expectExamplesAccepted(resource: Schema): void {
  const parameters = openApiParameters(resource);
  const required = parameters.filter((p) => p.required).map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(valueOf(p))}`);
  for (const parameter of parameters.filter((p) => p.example !== undefined)) {
    const query = [...required, exampleQuery(parameter)].join('&');
    const result = check(query, resource);
    expect(result.ok ? [] : result.errors, query).toEqual([]);
  }
  expect(new Set(parameters.map((p) => p.name)).size).toBe(parameters.length);
  const filters = [...resource.fields.values()].filter((f) => f.removed === undefined).map((f) => f.path);
  expect(parameters.filter((p) => p['x-qsfilter'] !== undefined).map((p) => p.name)).toEqual(filters);
}

describe('openApiParameters over the catalog', () => {
  it.each(Object.entries(catalog))('%s: every example, sent as a tool would send it, is a query the schema accepts', (_name, resource: Schema) => {
    expect(openApiParameters(resource).some((p) => p.example !== undefined)).toBe(true);
    expectExamplesAccepted(resource);
  });

  it('does the same for random schemas: sortable fields and refs, typed and required parameters, paging, a sort parameter of their own (property)', () => {
    fc.assert(fc.property(randomSchema, expectExamplesAccepted), { numRuns: 300 });
  });

  it('leaves out a removed field: deposits have no lines.memo', () => {
    expect(openApiParameters(catalog.deposits).map((p) => p.name)).not.toContain('lines.memo');
  });

  it('makes a document of every catalog resource that a maintained OpenAPI 3.1 validator accepts', async () => {
    const document = catalogDocument();
    const result = await validateOpenApi(structuredClone(document) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    // The validator is no rubber stamp: a parameter without "in" is refused.
    const broken = structuredClone(document);
    delete broken.paths['/invoices']!.get.parameters[0]!.in;
    expect((await validateOpenApi(broken as never)).valid).toBe(false);
  });
});

/** An OpenAPI document, as the tests build and break it. */
interface Document {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, { get: { operationId: string; parameters: Record<string, unknown>[]; responses: Record<string, unknown> } }>;
}

function catalogDocument(): Document {
  const paths: Document['paths'] = {};
  for (const [name, resource] of Object.entries(catalog)) {
    paths[`/${name}`] = {
      get: {
        operationId: `list${name[0]!.toUpperCase()}${name.slice(1)}`,
        parameters: openApiParameters(resource).map((p) => ({ ...p })),
        responses: {
          200: { description: 'One page of the matching items.', content: { 'application/json': { schema: { type: 'object' } } } },
          400: openApiProblemResponse(),
        },
      },
    };
  }
  return { openapi: '3.1.0', info: { title: 'The catalog', version: '1.0.0' }, paths };
}

describe('openApiProblemResponse', () => {
  it('describes the body toProblemDetails makes, every code included', () => {
    const response = openApiProblemResponse();
    const schema = response.content['application/problem+json']!.schema as {
      required: string[];
      properties: Record<string, { items?: { required: string[]; properties: Record<string, { enum?: unknown[] }> } }>;
    };
    const result = check('totalAmout=1&vendorName=%acme%', catalog.vendors);
    if (result.ok) throw new Error('expected problems');
    const body = toProblemDetails(result.errors, { instance: '/vendors' });
    for (const key of schema.required) expect(body).toHaveProperty(key);
    for (const key of Object.keys(body)) expect(schema.properties, key).toHaveProperty(key);
    const item = schema.properties.errors!.items!;
    expect(item.properties.code!.enum).toEqual([...DIAGNOSTIC_CODES]);
    for (const error of body.errors) {
      for (const key of item.required) expect(error).toHaveProperty(key);
      for (const key of Object.keys(error)) expect(item.properties, key).toHaveProperty(key);
    }
  });
});

describe('what the OpenAPI helpers return is the caller\'s own', () => {
  /** Edits every object and array in place, as a tool that annotates or rewrites a document does. */
  function scribble(value: unknown): void {
    if (Array.isArray(value)) {
      for (const item of value) scribble(item);
      value.splice(0, value.length, 'scribbled');
    } else if (typeof value === 'object' && value !== null) {
      for (const key of Object.keys(value)) scribble((value as Record<string, unknown>)[key]);
      (value as Record<string, unknown>).scribbled = true;
    }
  }

  it('a document edited in place changes neither the next one nor the exported operators', () => {
    for (const schema of Object.values(catalog)) {
      const fresh = structuredClone(openApiParameters(schema));
      scribble(openApiParameters(schema));
      expect(openApiParameters(schema)).toEqual(fresh);
    }
    expect(OPERATORS).toEqual(['eq', 'gt', 'gte', 'lt', 'lte']);
    const response = structuredClone(openApiProblemResponse());
    scribble(openApiProblemResponse());
    expect(openApiProblemResponse()).toEqual(response);
  });
});
