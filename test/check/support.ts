import { expect } from 'vitest';
import { check, defineSchema, type Diagnostic, type DiagnosticCode, type Filter, type QueryInput, type Schema } from '../../src/index';

/** The schema of reference §8, word for word: every field kind, a removed field, and request parameters. */
export const specInvoices = defineSchema({
  fields: {
    totalAmount: 'number',
    issueDate: 'date',
    vendorName: 'string',
    customerRef: { type: 'ref' },
    lines: { type: 'array', of: { description: 'string', amount: 'number' } },
    memo: { type: 'string', removed: 'filter on … instead' },
  },
  params: ['businessName', 'serviceName', 'reportFrequency'],
});

/** A check that must succeed: its filter. */
export function accepted(input: QueryInput, schema: Schema = specInvoices): Filter {
  const result = check(input, schema);
  if (!result.ok) expect.fail(`expected ${JSON.stringify(input)} to be accepted, got ${JSON.stringify(result.errors, null, 2)}`);
  return result.value;
}

/** A check that must fail: its diagnostics. */
export function rejected(input: QueryInput, schema: Schema = specInvoices): readonly Diagnostic[] {
  const result = check(input, schema);
  if (result.ok) expect.fail(`expected ${JSON.stringify(input)} to be rejected, got ${JSON.stringify(result.value)}`);
  return result.errors;
}

/** One row of a diagnostic table: the query, and what its one diagnostic must say. */
export interface DiagnosticRow {
  readonly query: string;
  readonly schema?: Schema;
  readonly param: string;
  readonly in: 'key' | 'value';
  /** The exact span, and the text it covers in the decoded key or value. */
  readonly span: readonly [number, number];
  readonly spanned: string;
  /** What the hint must say (the spec fixes its content, not its wording). */
  readonly hint: RegExp;
}

/**
 * Checks that a query has exactly one diagnostic of `code`, pointing where the row says,
 * with a message that names the parameter and a hint that says what the row says.
 */
export function expectDiagnostic(code: DiagnosticCode, row: DiagnosticRow): Diagnostic {
  const errors = rejected(row.query, row.schema);
  expect(errors.map((e) => e.code)).toEqual([code]);
  const d = errors[0]!;
  expect({ param: d.param, in: d.in, span: d.span }).toEqual({
    param: row.param,
    in: row.in,
    span: { start: row.span[0], end: row.span[1] },
  });
  expect(d.text?.slice(d.span!.start, d.span!.end)).toBe(row.spanned);
  expect(d.message).toContain(JSON.stringify(row.param));
  expect(d.hint).toMatch(row.hint);
  return d;
}
