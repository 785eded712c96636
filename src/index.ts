/**
 * qsfilter: parse, validate and evaluate the filter language of financial-data API
 * query strings. The pipeline, one module each: input → decode → tokens → AST →
 * checked Filter → predicate.
 */
export { DIAGNOSTIC_CODES, type DiagnosticCode } from './diagnostics/codes';
export type { Diagnostic, Result, Span } from './diagnostics/diagnostic';
export { formatDiagnostic, formatDiagnostics, ANSI_STYLE, type DiagnosticStyle, type RenderOptions } from './diagnostics/render';
export {
  toProblemDetails,
  PROBLEM_CONTENT_TYPE,
  type ProblemDetails,
  type ProblemError,
  type ProblemOptions,
} from './diagnostics/problem';
export type { QueryInput, QueryRecord } from './input/decode';
export { DEFAULT_LIMITS, type Limits } from './input/limits';
export { splitRequestUrl, type RequestTarget } from './input/url';
export * from './syntax/ast';
export { parse, type ParseOptions } from './syntax/parse';
export {
  PAGING_PARAMS,
  CURSOR_PARAM,
  MAX_CURSOR_LENGTH,
  SCALAR_TYPES,
  type ArraySpec,
  type ElementFieldSpec,
  type Field,
  type FieldPath,
  type FieldSpec,
  type FieldType,
  type FieldValueTypes,
  type InferFields,
  type InferParams,
  type InferSortable,
  type Paging,
  type PagingSpec,
  type ParamSpec,
  type ParamType,
  type RefSpec,
  type RequestParam,
  type ScalarSpec,
  type ScalarType,
  type Schema,
  type SchemaSpec,
  type SortPath,
} from './spec/spec';
// Every schema is also a Standard Schema validator: defineSchema and the catalog come with
// their ~standard face (standard/standard.ts), as from qsfilter/client.
export { defineSchema } from './schema/define';
export {
  balanceSheets,
  invoices,
  vendors,
  deposits,
  bills,
  connections,
  syncStatus,
  businesses,
  catalog,
  DEPOSIT_LINE_MEMO_REMOVED,
  type ResourceName,
} from './schema/catalog';
export { withStandard, type StandardIssue, type StandardProps, type StandardResult, type StandardSchema } from './standard/standard';
export {
  openApiParameters,
  openApiProblemResponse,
  type JsonSchema,
  type OpenApiOptions,
  type OpenApiParameter,
  type OpenApiResponse,
} from './schema/openapi';
export {
  schemaFromJsonSchema,
  type JsonSchemaOptions,
  type SchemaFromJsonSchema,
  type UnmappedProperty,
} from './schema/json-schema';
export type { After, Condition, CursorValue, DateTest, Filter, NumberTest, Page, PageCursor, SortField, TextTest } from './filter/filter';
export type { DateRange } from './values/date';
export { validate, type ValidateOptions } from './check/validate';
export { check, type CheckOptions } from './check/check';
export { format } from './filter/format';
export { compile, generatedSource, type CompileOptions, type Predicate } from './eval/compile';
export { sortItems, type SortOptions } from './eval/sort';
export { nextCursor, pageItems } from './eval/page';
export {
  query,
  literal,
  PATTERN_OPERATORS,
  WHERE_OPERATORS,
  type OperatorsOf,
  type ParamValue,
  type PatternOperator,
  type Query,
  type WhereOperator,
  type WhereValue,
} from './client/index';
export { toSql, toSqlTemplate, type SqlOptions, type SqlQuery, type SqlTarget, type SqlTemplate } from './sql/postgres';
export { CASE_FOLDINGS, detectCaseFolding, type CaseFolding, type QueryClient } from './sql/text';
export type { ChildTable, RelationalTarget } from './sql/relational';
export type { DocumentTarget } from './sql/document';
export { sqlIndexes, type IndexOptions } from './sql/indexes';
export { sqlConstraints } from './sql/constraints';
export type { QualifiedName } from './sql/identifier';
export type { SqlValue } from './sql/parameters';
export {
  requestChecks,
  type AdapterSetup,
  type FactoryUsage,
  type FilterQueryOptions,
  type FilterRejection,
  type ProblemLabels,
  type RequestChecker,
  type RequestChecks,
  type RequestOutcome,
} from './server/requests';
