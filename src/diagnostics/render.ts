import { isObject, ownOptions, wrongArgument } from '../arguments/arguments';
import { expectDiagnostic } from './guard';
import { type Diagnostic, type Span } from './diagnostic';
import { cut } from '../text/quote';

/** How `formatDiagnostic` styles its parts. Each defaults to plain text; colour is the caller's choice. */
export interface DiagnosticStyle {
  readonly code?: (text: string) => string;
  readonly caret?: (text: string) => string;
  readonly hint?: (text: string) => string;
}

/** Options of `formatDiagnostic`. */
export interface RenderOptions {
  readonly style?: DiagnosticStyle;
}

/** ANSI colours for a terminal: pass as `style` when the output is a TTY and `NO_COLOR` is unset. */
export const ANSI_STYLE: DiagnosticStyle = {
  code: (t) => `\x1b[1;31m${t}\x1b[0m`,
  caret: (t) => `\x1b[31m${t}\x1b[0m`,
  hint: (t) => `\x1b[36m${t}\x1b[0m`,
};

const plain = (t: string): string => t;

/**
 * Renders a diagnostic for people: the code and message, the parameter as
 * `key=value` with a caret line under the span, and the hint.
 *
 * ```
 * error[EMPTY_CLAUSE]: Parameter "totalAmount" has an empty clause.
 *   totalAmount=gte:1;;lte:5
 *                     ^
 *   hint: Remove the extra ";", …
 * ```
 *
 * A long key or value is shown around the span only (reference §12): the key cut at 64
 * characters, at most 32 characters either side of the span and 64 of the span
 * itself, with a `…` where text is left out. So a diagnostic renders in time and
 * space bounded by its message and hint, whatever the length of the query.
 */
export function formatDiagnostic(d: Diagnostic, options?: RenderOptions): string {
  return render(d, readOptions('formatDiagnostic', options), 'formatDiagnostic', 'the diagnostic');
}

function render(d: Diagnostic, style: DiagnosticStyle, fn: string, what: string): string {
  expectDiagnostic(fn, what, d);
  // Messages and hints quote user text too: every line goes through visible().
  const lines = [`${(style.code ?? plain)(`error[${d.code}]`)}: ${visible(d.message)}`];
  if (d.param !== undefined && d.text !== undefined) {
    const prefix = d.in === 'key' ? '' : `${visible(cut(d.param))}=`;
    const shown = window(d.text, d.span);
    lines.push(`  ${prefix}${shown.line}`);
    if (shown.caret !== undefined) {
      const { before, width, more } = shown.caret;
      lines.push(`  ${' '.repeat(columns(prefix) + before)}${(style.caret ?? plain)('^'.repeat(width))}${more ? '…' : ''}`);
    }
  }
  if (d.hint !== undefined) lines.push(`  ${(style.hint ?? plain)('hint:')} ${visible(d.hint)}`);
  return lines.join('\n');
}

/** Characters of a key or value shown whole; a longer one is shown around the span. */
const SHOWN_WHOLE = 128;
/** Characters shown on each side of a span, and of the span itself, in a long text. */
const CONTEXT = 32;
const SPAN_SHOWN = 64;

/**
 * The part of `text` to show, made visible, and where the carets go: columns before
 * them, how many, and whether the span goes on past them.
 */
function window(text: string, span: Span | undefined): { line: string; caret?: { before: number; width: number; more: boolean } } {
  if (span === undefined) return { line: visible(cut(text, SHOWN_WHOLE)) };
  let from = 0;
  let spanEnd = span.end;
  let to = text.length;
  if (text.length > SHOWN_WHOLE) {
    from = boundary(text, Math.max(0, span.start - CONTEXT));
    spanEnd = boundary(text, Math.min(span.end, span.start + SPAN_SHOWN));
    to = boundary(text, Math.min(text.length, spanEnd + CONTEXT));
  }
  const head = from > 0 ? '…' : '';
  const line = `${head}${visible(text.slice(from, to))}${to < text.length ? '…' : ''}`;
  const before = columns(head) + columns(visible(text.slice(from, span.start)));
  const width = Math.max(1, columns(visible(text.slice(span.start, spanEnd))));
  return { line, caret: { before, width, more: spanEnd < span.end } };
}

/** `i`, or one less where `i` would split a surrogate pair. */
function boundary(text: string, i: number): number {
  const c = text.charCodeAt(i);
  return i > 0 && c >= 0xdc00 && c <= 0xdfff && isHigh(text.charCodeAt(i - 1)) ? i - 1 : i;
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/** Renders every diagnostic, separated by blank lines. */
export function formatDiagnostics(diagnostics: readonly Diagnostic[], options?: RenderOptions): string {
  if (!Array.isArray(diagnostics)) wrongArgument('formatDiagnostics', 'the diagnostics', 'an array (result.errors)', diagnostics);
  const style = readOptions('formatDiagnostics', options);
  return diagnostics.map((d, i) => render(d, style, 'formatDiagnostics', `diagnostics[${i}]`)).join('\n\n');
}

function readOptions(fn: string, options: RenderOptions | undefined): DiagnosticStyle {
  options = ownOptions(fn, options, ['style']);
  const style = options?.style;
  if (style === undefined) return {};
  if (!isObject(style)) wrongArgument(fn, '"style"', 'an object of functions (code, caret, hint), such as ANSI_STYLE', style);
  for (const part of ['code', 'caret', 'hint'] as const) {
    if (style[part] !== undefined && typeof style[part] !== 'function') wrongArgument(fn, `"style.${part}"`, 'a function from text to styled text', style[part]);
  }
  return style;
}

/**
 * Shows what would break the caret line, drive the terminal, or hide from the reader:
 * C0 controls as their Unicode control pictures (␊, ␛), and C1 controls, invisible
 * format characters (bidi overrides, zero-width spaces) and lone surrogates as `<U+202E>`.
 */
function visible(text: string): string {
  return text.replace(INVISIBLE, (c) => {
    const code = c.codePointAt(0)!;
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return '\u2421';
    return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
  });
}

const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}]/gu;
const COMBINING = /[\p{Mn}\p{Me}]/u;

/** Terminal columns of a visible text: one per code point, two for wide (East Asian, emoji) ones, none for combining marks. */
function columns(text: string): number {
  let n = 0;
  for (const ch of text) {
    if (COMBINING.test(ch)) continue;
    n += isWide(ch.codePointAt(0)!) ? 2 : 1;
  }
  return n;
}

function isWide(c: number): boolean {
  return (
    (c >= 0x1100 && c <= 0x115f) ||
    (c >= 0x2e80 && c <= 0xa4cf) ||
    (c >= 0xac00 && c <= 0xd7a3) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xfe30 && c <= 0xfe4f) ||
    (c >= 0xff00 && c <= 0xff60) ||
    (c >= 0xffe0 && c <= 0xffe6) ||
    (c >= 0x1f300 && c <= 0x1faff) ||
    (c >= 0x20000 && c <= 0x3fffd)
  );
}
