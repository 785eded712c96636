import type { FilterAst, Operator, PassThroughParams } from './ast';

/** An operand as the printer needs it: the AST's operands have this shape. */
type PrintableOperand =
  | { readonly type: 'Literal'; readonly value: string }
  | { readonly type: 'Pattern'; readonly segments: readonly string[] };

/** A clause as the printer needs it: the AST's clauses have this shape, and so do a Filter's once converted. */
export interface PrintableClause {
  readonly operator: Operator;
  readonly operand: PrintableOperand;
}

/** A `key=value` pair to print, with the value in clauses. */
export interface PrintableParam {
  readonly key: string;
  readonly clauses: readonly PrintableClause[];
}

/**
 * Prints a syntax tree as the canonical query string: pass-through parameters first,
 * then the filters in order; escapes and quotes only where needed; percent-encoded
 * for a URL, leaving `:` and `;` readable. Parsing the result gives the same tree.
 */
export function formatAst(ast: FilterAst): string {
  return formatQuery(ast.params, ast.filters);
}

/** Prints pass-through parameters and filter parameters as one query string. */
export function formatQuery(params: PassThroughParams, filters: readonly PrintableParam[]): string {
  const parts: string[] = [];
  for (const key of Object.keys(params)) {
    const value = params[key]!;
    for (const v of typeof value === 'string' ? [value] : value) parts.push(`${encodeComponent(key)}=${encodeComponent(v)}`);
  }
  for (const param of filters) parts.push(`${encodeComponent(param.key)}=${encodeComponent(formatValue(param.clauses))}`);
  return parts.join('&');
}

/** Prints clauses as a decoded value: `gte:100;lte:200`. */
function formatValue(clauses: readonly PrintableClause[]): string {
  let value = '';
  for (let i = 0; i < clauses.length; i++) {
    if (i > 0) value += ';';
    value += formatClause(clauses[i]!);
  }
  return value;
}

/** What the lexer reads as an operator at the start of a clause (`Operator` in tokens.ts): gt: gte: lt: lte:. */
const OPERATOR_PREFIX = /^[gl]te?:/;

/**
 * Prints one clause as decoded value text: the operator prefix, then the operand quoted
 * and escaped only where it must be. The one operand writer: `format` prints every
 * clause with it, and the client's `literal` is its equality clause.
 */
export function formatClause({ operator, operand }: PrintableClause): string {
  const prefix = operator === 'eq' ? '' : `${operator}:`;
  const segments = operand.type === 'Literal' ? [operand.value] : operand.segments;
  const first = segments[0]!;
  // Quotes are needed for the empty string, and for text that would read as an operator.
  const quoted = (segments.length === 1 && first === '') || (operator === 'eq' && OPERATOR_PREFIX.test(first));
  let text = '';
  for (let i = 0; i < segments.length; i++) {
    if (i > 0) text += '%';
    text += escapeSegment(segments[i]!, quoted);
  }
  if (quoted) return `${prefix}"${text}"`;
  // A bare operand may hold a quote anywhere but at its start, where it would open one.
  return prefix + (text.startsWith('"') ? `\\${text}` : text);
}

function escapeSegment(segment: string, quoted: boolean): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < segment.length; i++) {
    const c = segment.charCodeAt(i);
    if (c === 92 /* \ */ || c === 37 /* % */ || (quoted ? c === 34 /* " */ : c === 59) /* ; */) {
      out += `${segment.slice(from, i)}\\`;
      from = i;
    }
  }
  // Every escape adds a backslash to `out`, so an empty `out` means nothing needed one
  // (`from` cannot tell: it is still 0 after an escape at the first character).
  return out === '' ? segment : out + segment.slice(from);
}

/**
 * Characters left as they are in a query component. Everything else is
 * percent-encoded as UTF-8, `+`, `&`, `=`, `%`, `#`, quotes and backslashes included.
 * So are `/` and `?`, although a query may hold them: `parse` reads a string that
 * starts with `?`, `/` or `scheme://` as a URL or a `?`-prefixed query, so a first key
 * such as `/x` or `a://b` would not be read back as written.
 */
const SAFE = /* @__PURE__ */ asciiTable("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$'()*,;:@");

/**
 * 1 at the code of each character of `chars`. Built by a call marked pure, not by a
 * loop at the top of the module, so that a bundle that does not print queries drops it.
 */
function asciiTable(chars: string): Uint8Array {
  const table = new Uint8Array(128);
  for (const c of chars) table[c.charCodeAt(0)] = 1;
  return table;
}

/** Percent-encodes a key or value for a query string. */
export function encodeComponent(text: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128 && SAFE[c] === 1) continue;
    out += text.slice(from, i);
    if (c < 128) {
      out += `%${c < 16 ? '0' : ''}${c.toString(16).toUpperCase()}`;
    } else {
      const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length;
      const low = pair ? text.charCodeAt(i + 1) : 0;
      if (pair && low >= 0xdc00 && low <= 0xdfff) {
        out += encodeURIComponent(text.slice(i, i + 2));
        i++;
      } else {
        // A lone surrogate cannot be encoded: it becomes U+FFFD, as in every URL encoder.
        out += c >= 0xd800 && c <= 0xdfff ? '%EF%BF%BD' : encodeURIComponent(text[i]!);
      }
    }
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}
