export { DIAGNOSTIC_CODES, type DiagnosticCode } from './diagnostics/codes';
export type { Diagnostic, Result, Span } from './diagnostics/diagnostic';
export type { QueryInput, QueryRecord } from './input/decode';
export { DEFAULT_LIMITS, type Limits } from './input/limits';
export * from './syntax/ast';
export { parse, type ParseOptions } from './syntax/parse';
export { formatAst as format, encodeComponent } from './syntax/format';
