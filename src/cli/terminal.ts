import type { Diagnostic } from '../diagnostics/diagnostic';
import { ANSI_STYLE, formatDiagnostics, type DiagnosticStyle } from '../diagnostics/render';

/** What the colour decision needs to know about an output stream. */
export interface Stream {
  readonly isTTY?: boolean;
}

/**
 * Whether to colour what goes to a stream: never when `NO_COLOR` is set to anything
 * but the empty string (no-color.org, which wins over everything), else as
 * `FORCE_COLOR` says when it is set (`0` and `false` turn colour off), else only on a
 * terminal that is not `TERM=dumb`.
 */
export function wantsColour(stream: Stream, env: Readonly<Record<string, string | undefined>>): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/** The style for diagnostics written to a stream. */
export function diagnosticStyle(stream: Stream, env: Readonly<Record<string, string | undefined>>): DiagnosticStyle {
  return wantsColour(stream, env) ? ANSI_STYLE : {};
}

/** Writes diagnostics for people to stderr, with their caret lines, coloured when stderr wants it. */
export function printDiagnostics(diagnostics: readonly Diagnostic[]): void {
  process.stderr.write(`${formatDiagnostics(diagnostics, { style: diagnosticStyle(process.stderr, process.env) })}\n`);
}
