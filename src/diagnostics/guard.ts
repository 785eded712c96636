import { isObject, wrongArgument } from '../arguments/arguments';
import type { Diagnostic } from './diagnostic';

/** Checks that `fn` was given a diagnostic (`what` names it), as far as rendering needs. */
export function expectDiagnostic(fn: string, what: string, d: unknown): asserts d is Diagnostic {
  if (!isObject(d) || typeof d.code !== 'string' || typeof d.message !== 'string') {
    wrongArgument(fn, what, 'a diagnostic, with a code and a message', d, Array.isArray(d) ? 'Pass each diagnostic, or the list to formatDiagnostics.' : undefined);
  }
  for (const field of ['param', 'text', 'hint'] as const) {
    if (d[field] !== undefined && typeof d[field] !== 'string') wrongArgument(fn, `${what}.${field}`, 'a string', d[field]);
  }
  const span = d.span;
  if (span === undefined) return;
  const length = typeof d.text === 'string' ? d.text.length : Infinity;
  if (!isObject(span) || !Number.isInteger(span.start) || !Number.isInteger(span.end) || !(0 <= (span.start as number) && (span.start as number) <= (span.end as number) && (span.end as number) <= length)) {
    wrongArgument(fn, `${what}.span`, 'offsets { start, end } with 0 ≤ start ≤ end ≤ the length of its text', span);
  }
}
