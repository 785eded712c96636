/**
 * JSON as the tests write it: like `JSON.stringify`, plus number tokens written as is
 * (`1e400`, `-0`, `42.0`), which no JS number prints as, and objects as entry lists,
 * so that `__proto__` is an ordinary key.
 */
export type Json = null | boolean | string | number | RawNumber | Json[] | JsonObject;

/** A JSON number token written verbatim. */
export interface RawNumber {
  readonly raw: string;
}

/** An object as its entries, in order. */
export interface JsonObject {
  readonly entries: readonly (readonly [string, Json])[];
}

/** Shorthand for an object. */
export function object(entries: readonly (readonly [string, Json])[]): JsonObject {
  return { entries };
}

/** The JSON text of a value. */
export function writeJson(value: Json): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(writeJson).join(',')}]`;
  if ('raw' in value) return value.raw;
  return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${writeJson(v)}`).join(',')}}`;
}
