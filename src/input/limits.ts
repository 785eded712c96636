import { isObject, wrongArgument } from '../arguments/arguments';

/**
 * The limits of reference §7, each protecting the work after it and checked before that
 * work, and the limit on output of reference §12 (`maxDiagnostics`).
 */
export interface Limits {
  /** Characters of the raw query (as sent, still encoded), or of all keys and values of a record. */
  readonly maxQueryLength: number;
  /** Parameters in the query, pass-through parameters included. */
  readonly maxParams: number;
  /** Clauses (`;`-separated) in one value, and keys (`,`-separated) of the sort parameter. */
  readonly maxClauses: number;
  /** Characters of one operand, as written in the decoded value. */
  readonly maxOperandLength: number;
  /** `%` wildcards in one operand. */
  readonly maxWildcards: number;
  /** Names in one dot path (`lines.description` is 2). */
  readonly maxPathDepth: number;
  /**
   * Diagnostics in one result, at least 1: past it, the last one listed is a
   * `LIMIT_EXCEEDED` that says how many more problems there were (reference §12).
   */
  readonly maxDiagnostics: number;
}

/** The defaults of reference §7 and §12. */
export const DEFAULT_LIMITS: Limits = /* @__PURE__ */ Object.freeze({
  maxQueryLength: 8192,
  maxParams: 64,
  maxClauses: 16,
  maxOperandLength: 1024,
  maxWildcards: 16,
  maxPathDepth: 4,
  maxDiagnostics: 100,
});

/**
 * Fills the limits a caller left out with the defaults. A limit that is unknown, or not
 * a non-negative integer (or `Infinity`), is a programmer error of `fn` and throws.
 */
export function resolveLimits(overrides: Partial<Limits> | undefined, fn: string): Limits {
  if (overrides === undefined) return DEFAULT_LIMITS;
  const names = Object.keys(DEFAULT_LIMITS);
  if (!isObject(overrides)) wrongArgument(fn, '"limits"', `an object of limits (${names.join(', ')})`, overrides);
  const limits: Record<string, number> = { ...DEFAULT_LIMITS };
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    if (!Object.hasOwn(DEFAULT_LIMITS, name)) throw new TypeError(`${fn}: unknown limit ${JSON.stringify(name)}; the limits are ${names.join(', ')}.`);
    // A failed result with no diagnostic at all would say nothing: maxDiagnostics is at least 1.
    const least = name === 'maxDiagnostics' ? 1 : 0;
    if (typeof value !== 'number' || !(value >= least) || (Number.isFinite(value) && !Number.isInteger(value))) {
      wrongArgument(fn, `the limit "${name}"`, `${least === 1 ? 'a positive' : 'a non-negative'} integer or Infinity`, value);
    }
    limits[name] = value;
  }
  return limits as unknown as Limits;
}
