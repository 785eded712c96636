import { expectSchema } from '../spec/guard';
import { ownOptions, wrongArgument } from '../arguments/arguments';
import { DIAGNOSTIC_CODES } from '../diagnostics/codes';
import { PROBLEM_CONTENT_TYPE } from '../diagnostics/problem';
import { OPERATORS, type Operator } from '../syntax/ast';
import { CURSOR_PARAM, MAX_CURSOR_LENGTH, type Field, type FieldType, type ParamType, type RequestParam, type Schema } from '../spec/spec';

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it), as plain data. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** An OpenAPI 3.1 Parameter Object of a query parameter. */
export interface OpenApiParameter {
  readonly name: string;
  readonly in: 'query';
  readonly description: string;
  readonly required: boolean;
  readonly style?: 'form';
  readonly explode?: boolean;
  readonly schema: JsonSchema;
  /** The value before serialization: a tool encodes it (`%` as `%25`) when it sends it. */
  readonly example?: unknown;
  /** Machine-readable: what qsfilter accepts in a filter parameter. */
  readonly 'x-qsfilter'?: {
    readonly type: FieldType;
    /** The operators of the AST: `eq` is a clause without one (`totalAmount=100`). */
    readonly operators: readonly Operator[];
    readonly wildcard: boolean;
    /** The child array whose elements the field belongs to. */
    readonly array?: string;
  };
}

/** Options of `openApiParameters`. */
export interface OpenApiOptions {
  /**
   * Whether the server compares text case-insensitively (its `compile` or `toSql` option):
   * the descriptions of text filters say so. False by default.
   */
  readonly caseInsensitive?: boolean;
}

/**
 * The query parameters of a resource as OpenAPI 3.1 Parameter Objects (reference §10): its
 * request parameters (typed, required where the schema says so); one parameter per
 * filterable path (`style: form`, `explode: true`, a string or, for a repeated key, a
 * list of strings), whose description says its type, its operators and an example;
 * the sort parameter (the sortable fields, `-` for descending, as a comma-separated
 * list: `style: form`, `explode: false`); and `limit` and `offset` with the schema's
 * default and maximum. Removed fields are left out: a request that names one is
 * refused. Plain data, ready to go under an operation's `parameters`.
 */
export function openApiParameters(schema: Schema, options?: OpenApiOptions): OpenApiParameter[] {
  expectSchema('openApiParameters', schema);
  options = ownOptions('openApiParameters', options, ['caseInsensitive']);
  const caseInsensitive = options?.caseInsensitive ?? false;
  if (typeof caseInsensitive !== 'boolean') wrongArgument('openApiParameters', '"caseInsensitive"', 'true or false', caseInsensitive);
  const parameters: OpenApiParameter[] = [...schema.requestParams.values()].map(requestParameter);
  const fields = [...schema.fields.values()].filter((f) => f.removed === undefined);
  for (const field of fields) parameters.push(filterParameter(field, caseInsensitive));
  const sortable = fields.filter((f) => f.sortable);
  if (sortable.length > 0) parameters.push(sortParameter(schema.sortParam, sortable));
  if (schema.paging !== undefined) {
    const { defaultLimit, maxLimit } = schema.paging;
    parameters.push(
      {
        name: 'limit',
        in: 'query',
        description: `How many matching items to return: at most ${maxLimit}, ${defaultLimit} when not sent.`,
        required: false,
        schema: { type: 'integer', minimum: 1, maximum: maxLimit, default: defaultLimit },
      },
      {
        name: 'offset',
        in: 'query',
        description: 'How many matching items to skip: 0 for the first page, then add limit for each next one.',
        required: false,
        schema: { type: 'integer', minimum: 0, default: 0 },
      },
    );
    if (schema.paging.cursor !== undefined) {
      parameters.push({
        name: CURSOR_PARAM,
        in: 'query',
        description: `The page after a cursor: the nextCursor of the previous page of the same query (filter and sort unchanged), an opaque base64url text; not with offset. The items are in the query's order, then by ${schema.paging.cursor.key}.`,
        required: false,
        schema: { type: 'string', pattern: '^[A-Za-z0-9_-]+$', maxLength: MAX_CURSOR_LENGTH },
      });
    }
  }
  // The shared templates (FORM_LIST, PARAM_SCHEMAS, OPERATORS) are copied out: a tool that
  // edits a document in place must not change the next document, nor the operators.
  return structuredClone(parameters);
}

/** A request parameter: one plain value of its type (none of the filter language), or, untyped, text passed through. */
function requestParameter(param: RequestParam): OpenApiParameter {
  if (param.type === undefined) {
    return {
      name: param.name,
      in: 'query',
      description: 'A request parameter, passed through as sent (not a filter); it may be repeated.',
      required: param.required,
      ...FORM_LIST,
    };
  }
  return {
    name: param.name,
    in: 'query',
    description: `A request parameter (not a filter): ${PARAM_VALUES[param.type]}, plain: no operators, no wildcards.`,
    required: param.required,
    schema: PARAM_SCHEMAS[param.type],
  };
}

const PARAM_VALUES: Record<ParamType, string> = {
  number: 'one number',
  string: 'one text, matched exactly',
  date: 'one date (YYYY-MM-DD) or date-time with Z or an offset (its "+" sent as %2B)',
};

const PARAM_SCHEMAS: Record<ParamType, JsonSchema> = {
  number: { type: 'number' },
  string: { type: 'string' },
  date: { type: 'string', anyOf: [{ format: 'date' }, { format: 'date-time' }] },
};

/** A repeatable parameter: each occurrence one more value (for a filter, one more condition, ANDed). */
const FORM_LIST = {
  style: 'form',
  explode: true,
  schema: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
} as const;

function filterParameter(field: Field, caseInsensitive: boolean): OpenApiParameter {
  const type = field.type;
  const compares = type === 'number' || type === 'date';
  const example = EXAMPLES[type];
  const sentAs = `${field.path}=${example.replaceAll('%', '%25')}`;
  const description = [
    field.array === undefined
      ? ''
      : `A field of each element of \`${field.array}\`: the clauses of one parameter hold for the same element, and each repetition of the parameter may match another one. `,
    MEANINGS[type](field.path, caseInsensitive),
    ` Clauses joined by \`;\` must all hold, and so must each repetition of the parameter. Example: \`${sentAs}\`.`,
  ].join('');
  return {
    name: field.path,
    in: 'query',
    description,
    required: false,
    ...FORM_LIST,
    example,
    'x-qsfilter': {
      type,
      operators: compares ? OPERATORS : ['eq'],
      wildcard: !compares,
      ...(field.array === undefined ? {} : { array: field.array }),
    },
  };
}


/** An example value per type, before URL encoding. */
const EXAMPLES: Record<FieldType, string> = {
  number: 'gte:100;lte:200',
  string: '%acme%',
  date: 'gte:2023-01-01;lt:2023-02-01',
  id: '42',
};

const WILDCARD = '`%` (sent as `%25`) matches any run of characters: `%acme%` contains "acme", `acme%` starts with it, `%acme` ends with it.';
const LITERALS = 'Quote a value that holds `;` or starts like an operator (`"gte:5"`); write a literal `%`, `;`, `"` or `\\` as `\\%`, `\\;`, `\\"`, `\\\\`.';

const MEANINGS: Record<FieldType, (path: string, caseInsensitive: boolean) => string> = {
  number: (path) => `A number. \`${path}=100\` is equal; \`gt:\`, \`gte:\`, \`lt:\`, \`lte:\` compare (\`${path}=gte:100\`).`,
  date: (path) =>
    `A date. \`YYYY-MM-DD\` is the whole UTC day; a date-time (\`2023-01-09T10:00:00Z\`) needs \`Z\` or an offset, its \`+\` sent as \`%2B\`. \`${path}=2023-01-09\` is within that day; \`gt:\`, \`gte:\`, \`lt:\`, \`lte:\` compare.`,
  string: (path, ci) => `Text. \`${path}=Acme\` is exactly equal (${ci ? 'case-insensitive' : 'case-sensitive'}); ${WILDCARD} ${LITERALS} No comparisons.`,
  id: (path, ci) => {
    const ref = path.slice(0, -'.id'.length).split('.').at(-1)!;
    return `The id of \`${ref}\`, compared as text (${ci ? 'case-insensitive' : 'case-sensitive'}): \`${path}=42\` matches the id 42 and "42". ${WILDCARD} No comparisons.`;
  },
};

/** The sort parameter: a comma-separated list of sortable fields, each with an optional leading `-`. */
function sortParameter(name: string, sortable: readonly Field[]): OpenApiParameter {
  const paths = sortable.map((f) => f.path);
  // The latest first, then a tie-breaker: as a client most often sorts.
  const first = sortable.find((f) => f.type === 'date') ?? sortable[0]!;
  const second = sortable.find((f) => f.type === 'number' && f !== first) ?? sortable.find((f) => f !== first);
  const example = second === undefined ? [`-${first.path}`] : [`-${first.path}`, second.path];
  return {
    name,
    in: 'query',
    description:
      `The order of the items: fields joined by \`,\`, each ascending, or descending with a leading \`-\` (\`${name}=${example.join(',')}\`); ` +
      'the first decides, the next ones break ties, each field once. A missing or mistyped value sorts last either way. ' +
      `Sortable: ${paths.join(', ')}.`,
    required: false,
    style: 'form',
    explode: false,
    schema: { type: 'array', uniqueItems: true, minItems: 1, items: { type: 'string', enum: paths.flatMap((p) => [p, `-${p}`]) } },
    example,
  };
}

/** An OpenAPI 3.1 Response Object. */
export interface OpenApiResponse {
  readonly description: string;
  readonly content: { readonly [mediaType: string]: { readonly schema: JsonSchema } };
}

/**
 * The 400 answer to a query that does not check, as an OpenAPI 3.1 Response Object: the
 * `application/problem+json` body of `toProblemDetails` (RFC 9457), its `errors` listing
 * each diagnostic with its stable code.
 */
export function openApiProblemResponse(): OpenApiResponse {
  // A copy, as openApiParameters gives: the next response must not show an edit of this one.
  return {
    description: 'The query was refused: every problem is listed in errors, with its code, parameter, span and hint.',
    content: { [PROBLEM_CONTENT_TYPE]: { schema: structuredClone(PROBLEM_SCHEMA) } },
  };
}

const SPAN_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'UTF-16 offsets [start, end) in the decoded key or value (see "in").',
  required: ['start', 'end'],
  properties: { start: { type: 'integer', minimum: 0 }, end: { type: 'integer', minimum: 0 } },
};

const PROBLEM_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'errors'],
  properties: {
    type: { type: 'string', description: 'A URI naming the problem type; about:blank by default.' },
    title: { type: 'string' },
    status: { const: 400 },
    detail: { type: 'string', description: 'One sentence for people; errors has the details.' },
    instance: { type: 'string', description: 'The request path.' },
    errors: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          // A copy, made by a call marked pure: a spread would keep this schema in every bundle.
          code: { enum: /* @__PURE__ */ DIAGNOSTIC_CODES.slice() },
          param: { type: 'string', description: 'The key of the parameter, as sent.' },
          message: { type: 'string' },
          hint: { type: 'string', description: 'How to fix it.' },
          in: { enum: ['key', 'value'] },
          span: SPAN_SCHEMA,
        },
      },
    },
  },
};
