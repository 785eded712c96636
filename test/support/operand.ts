/**
 * A string as a quoted operand of the filter language (reference §3), percent-encoded for
 * a query: written from the spec, independently of the package's `format`.
 */
export function quotedOperand(text: string): string {
  return encodeURIComponent(`"${text.replace(/[\\%"]/g, '\\$&')}"`);
}
