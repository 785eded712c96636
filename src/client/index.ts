/**
 * `qsfilter/client`: what a browser or another client needs to build queries that a
 * qsfilter server accepts, without the parser (reference §11). A schema's
 * `~standard.validate` pre-checks a query a person typed, loading the parser on its first
 * call; `check`, from the main entry, brings the parser along from the start.
 */
export { query, PATTERN_OPERATORS, WHERE_OPERATORS, type OperatorsOf, type ParamValue, type PatternOperator, type Query, type WhereOperator, type WhereValue } from './query';
export { literal } from './literal';
export {
  type FieldPath,
  type FieldValueTypes,
  type InferFields,
  type InferParams,
  type InferSortable,
  type Schema,
  type SchemaSpec,
  type SortPath,
} from '../spec/spec';
// The main entry's defineSchema and catalog: schemas that are Standard Schema validators
// too, whose validate loads the parser on first use only (standard/standard.ts).
export { defineSchema } from '../schema/define';
export { balanceSheets, invoices, vendors, deposits, bills, connections, syncStatus, businesses, catalog, DEPOSIT_LINE_MEMO_REMOVED, type ResourceName } from '../schema/catalog';
export type { Filter } from '../filter/filter';
