/** The limits of SPEC §7. Each protects the work after it, and is checked before that work. */
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
}

/** The defaults of SPEC §7. */
export const DEFAULT_LIMITS: Limits = Object.freeze({
  maxQueryLength: 8192,
  maxParams: 64,
  maxClauses: 16,
  maxOperandLength: 1024,
  maxWildcards: 16,
  maxPathDepth: 4,
});

/**
 * Fills the limits a caller left out with the defaults. A limit that is not a
 * non-negative integer (or `Infinity`) is a programmer error and throws.
 */
export function resolveLimits(overrides: Partial<Limits> | undefined): Limits {
  if (overrides === undefined) return DEFAULT_LIMITS;
  const limits: Record<string, number> = { ...DEFAULT_LIMITS };
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    if (!Object.hasOwn(DEFAULT_LIMITS, name)) throw new TypeError(`Unknown limit "${name}".`);
    if (typeof value !== 'number' || !(value >= 0) || (Number.isFinite(value) && !Number.isInteger(value))) {
      throw new TypeError(`Limit "${name}" must be a non-negative integer or Infinity.`);
    }
    limits[name] = value;
  }
  return limits as unknown as Limits;
}
