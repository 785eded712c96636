import { describe } from '../arguments/arguments';
import { formatClause } from '../syntax/format';

/**
 * The operand text that matches exactly `text` (reference §11): `%`, `\` and `;` escaped,
 * quoted where it must be (the empty string, text that would read as an operator such
 * as `gte:5`). It is a whole operand, decoded: put it after `=` (or after an operator)
 * and percent-encode the value for a URL, as `encodeURIComponent` or `query(…).toString()`
 * do. A `%` written around it would be read as text, not as a wildcard, when it is quoted:
 * build patterns with `query(…).where(path, 'contains', text)`.
 *
 * ```ts
 * literal('O\'Brien; Partners') // 'O\'Brien\\; Partners'
 * literal('100% Organic')       // '100\\% Organic'
 * literal('gte:5')              // '"gte:5"'
 * ```
 *
 * Text that no query can carry (NUL, a lone surrogate) is a programmer error: it throws
 * a `TypeError`, as does a value that is not a string.
 */
export function literal(text: string): string {
  return formatClause({ operator: 'eq', operand: { type: 'Literal', value: sendable(text, 'literal') } });
}

/**
 * `text` when a query can carry it, else a `TypeError` that says why. `check` refuses
 * NUL and lone surrogates (MALFORMED_ENCODING: no back end stores them, and a URL
 * encoder would silently turn a lone surrogate into U+FFFD), so a builder that wrote
 * them would build a query that means something else or nothing.
 */
export function sendable(text: unknown, where: string): string {
  if (typeof text !== 'string') throw new TypeError(`${where}: expected a string, not ${describe(text)}.`);
  if (text.includes('\0')) throw new TypeError(`${where}: ${JSON.stringify(text)} holds a NUL character (U+0000), which no query can carry.`);
  if (!text.isWellFormed()) throw new TypeError(`${where}: ${JSON.stringify(text)} holds a lone surrogate, which no query can carry.`);
  return text;
}

/**
 * An argument as a call shown in a message writes it: text quoted, a number as it is,
 * anything else by its kind (never as JSON, which throws for a BigInt or a cycle).
 */
export function shown(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : typeof value === 'object' || typeof value === 'bigint' ? describe(value) : String(value);
}
