/**
 * `qsfilter/client`: what a browser or another client needs to build queries that a
 * qsfilter server accepts, without the parser (reference §11). Pre-checking a query a person
 * typed needs `check`, from the main entry, which brings the parser along.
 */
export { query, PATTERN_OPERATORS, WHERE_OPERATORS, type OperatorsOf, type ParamValue, type PatternOperator, type Query, type WhereOperator, type WhereValue } from './query';
export { literal } from './literal';
export {
  defineSchema,
  type FieldPath,
  type FieldValueTypes,
  type InferFields,
  type InferParams,
  type InferSortable,
  type Schema,
  type SchemaSpec,
  type SortPath,
} from '../schema/define';
export * from '../schema/catalog';
export type { Filter } from '../filter/filter';
