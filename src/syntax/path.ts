import { type Span } from '../diagnostics/diagnostic';
import { diagnostic, type Diagnostic, type Location } from '../diagnostics/diagnostic';
import { quote } from '../text/quote';
import type { Path } from './ast';

// Dot paths (reference §3), in filter keys and in sort keys alike: `name *( "." name )`.

/** Names that would reach an object's prototype machinery: refused in every path. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** The sort parameter when neither the caller nor the schema names one: the API's (reference §9). */
export const DEFAULT_SORT_PARAM = 'orderBy';

/**
 * A query key that can be a request parameter, or the sort parameter: any text but the
 * empty string, NUL (which no query carries) and `__proto__`, which no record can hold.
 */
export function isParamName(name: string): boolean {
  return name !== '' && name !== '__proto__' && !name.includes('\0');
}

/**
 * Whether a text is one name of a path, and not a reserved one: what a field name may
 * be, read from data and written into generated code (reference §3, §13).
 */
export function isFieldName(name: unknown): name is string {
  return typeof name === 'string' && !name.includes('.') && pathProblem(name) === undefined && !RESERVED_NAMES.has(name);
}

/**
 * Why a text is not a dot path, and where: the first run of characters no name may
 * hold (as far as the next place a name or a dot could start), otherwise the first
 * empty name; `undefined` for a path. Spans are in `text`.
 */
export function pathProblem(text: string): { span: Span; reason: string } | undefined {
  for (let i = 0; i < text.length; ) {
    if (text.charCodeAt(i) === 46 /* . */) i++;
    else if (isNameStart(text.charCodeAt(i))) while (i < text.length && isNameChar(text.charCodeAt(i))) i++;
    else {
      let end = i + 1;
      while (end < text.length && text.charCodeAt(end) !== 46 && !isNameStart(text.charCodeAt(end))) end++;
      return { span: { start: i, end }, reason: `${quote(text.slice(i, end))} is not allowed in a name` };
    }
  }
  const empty = text === '' || text.startsWith('.') ? 0 : text.includes('..') ? text.indexOf('..') + 1 : text.endsWith('.') ? text.length : -1;
  if (empty < 0) return undefined;
  return { span: { start: empty, end: Math.min(empty + 1, text.length) }, reason: 'it has an empty name' };
}

function isNameStart(c: number): boolean {
  const lower = c | 0x20;
  return (lower >= 97 && lower <= 122) || c === 95;
}

function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 48 && c <= 57);
}

/** The hint of every diagnostic about a text that is not a path. */
export const PATH_HINT =
  'A path is names joined by dots (customerRef.id); a name starts with a letter or "_" and holds letters, digits and "_".';

/**
 * One `INVALID_PATH` per reserved name in a path (`__proto__.x`), for a filter key and a
 * sort key alike: `where` says which, `use` what the hint suggests instead. `undefined`
 * when there is none: every parameter that parses comes through here, and allocates nothing.
 */
export function reservedNames(path: Path, where: Location, use: 'Filter on' | 'Sort by'): Diagnostic[] | undefined {
  let problems: Diagnostic[] | undefined;
  for (const name of path.names) {
    if (!RESERVED_NAMES.has(name.value)) continue;
    (problems ??= []).push(
      diagnostic(
        'INVALID_PATH',
        `Parameter ${quote(where.param)} uses the name ${quote(name.value)}, which is never a field.`,
        where,
        name.span,
        `${use} the fields of the resource; "__proto__", "constructor" and "prototype" are refused everywhere.`,
      ),
    );
  }
  return problems;
}
