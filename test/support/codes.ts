import type { DiagnosticCode } from '../../src/index';

/** The codes that `parse` alone can report (reference §6, §9): the others need a schema. */
export const SYNTAX_CODES = [
  'MALFORMED_ENCODING',
  'INVALID_PARAMETER',
  'EMPTY_VALUE',
  'EMPTY_CLAUSE',
  'EMPTY_OPERAND',
  'UNTERMINATED_QUOTE',
  'UNEXPECTED_TEXT',
  'INVALID_ESCAPE',
  'INVALID_PATH',
  'LIMIT_EXCEEDED',
  'INVALID_SORT',
] as const satisfies readonly DiagnosticCode[];
