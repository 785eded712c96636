// Names (reference §3): the one grammar of a field name, which the lexer's `Name` token
// matches in queries and which schemas, the evaluator's generated code and the SQL
// targets check the names they are given against.

/**
 * A name of a dot path, the whole of a text: a letter or `_`, then letters, digits and
 * `_`. The lexer's `Name` token is this pattern without its anchors.
 */
export const FIELD_NAME = /^[A-Za-z_]\w*$/;

/** Names that would reach an object's prototype machinery: refused in every path. */
export const RESERVED_NAMES: ReadonlySet<string> = /* @__PURE__ */ new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Whether a text is one name of a path, and not a reserved one: what a field name may
 * be, read from data and written into generated code (reference §3, §13).
 */
export function isFieldName(name: unknown): name is string {
  return typeof name === 'string' && FIELD_NAME.test(name) && !RESERVED_NAMES.has(name);
}

/** The sort parameter when neither the caller nor the schema names one: the API's (reference §9). */
export const DEFAULT_SORT_PARAM = 'orderBy';

/**
 * A query key that can be a request parameter, or the sort parameter: any text but the
 * empty string, NUL (which no query carries) and `__proto__`, which no record can hold.
 */
export function isParamName(name: string): boolean {
  return name !== '' && name !== '__proto__' && !name.includes('\0');
}
