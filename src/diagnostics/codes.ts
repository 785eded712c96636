/**
 * Every diagnostic code, in the order of reference §6, then those of sorting, paging and
 * request parameters (reference §9). Codes are stable: clients may switch on them.
 */
export const DIAGNOSTIC_CODES = [
  'MALFORMED_ENCODING',
  'INVALID_PARAMETER',
  'EMPTY_VALUE',
  'EMPTY_CLAUSE',
  'EMPTY_OPERAND',
  'UNTERMINATED_QUOTE',
  'UNEXPECTED_TEXT',
  'INVALID_ESCAPE',
  'INVALID_PATH',
  'UNKNOWN_FIELD',
  'SUBPROPERTY_NOT_FILTERABLE',
  'OPERATOR_NOT_SUPPORTED',
  'WILDCARD_NOT_SUPPORTED',
  'INVALID_NUMBER',
  'INVALID_DATE',
  'FIELD_REMOVED',
  'LIMIT_EXCEEDED',
  'NOT_SORTABLE',
  'INVALID_SORT',
  'INVALID_PAGING',
  'INVALID_CURSOR',
  'MISSING_PARAMETER',
] as const;

/** A stable diagnostic code. */
export type DiagnosticCode = (typeof DIAGNOSTIC_CODES)[number];
