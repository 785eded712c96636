import { check } from '../check/check';
import type { Filter } from '../check/filter';
import type { Diagnostic } from '../diagnostics/diagnostic';
import type { QueryInput } from '../input/decode';
import type { Schema } from './define';

/**
 * One problem of a query as a Standard Schema issue: the diagnostic itself (its `code`,
 * `hint` and `span` stay readable), with `path: [param]`, the key as sent, when the
 * problem belongs to a parameter (a whole-query problem has no path).
 */
export type StandardIssue = Diagnostic & { readonly path?: readonly [string] };

/**
 * The result of `validate`, structurally Standard Schema v1's: the checked `Filter`, or
 * the issues.
 */
export type StandardResult = { readonly value: Filter; readonly issues?: undefined } | { readonly issues: readonly StandardIssue[] };

/**
 * The `~standard` property of every `Schema` (Standard Schema v1, standardschema.dev), so
 * that a schema plugs into what takes any Standard Schema validator: tRPC,
 * `@hono/standard-validator`, form libraries. The interface is written out here, as the
 * standard asks of libraries, rather than imported: qsfilter has no runtime dependency,
 * and its types none either. `test/schema/standard.test-d.ts` holds it to
 * `@standard-schema/spec`.
 */
export interface StandardProps {
  readonly version: 1;
  readonly vendor: 'qsfilter';
  /**
   * Checks any query input (`check`'s: a raw query string, a URL, `URLSearchParams`, a
   * record of strings), synchronously, and never throws: anything else is an issue.
   * Strict decoding needs the query as sent; a record a framework already decoded has
   * lost it (SPEC §2), so give the raw query string where there is one.
   */
  readonly validate: (value: unknown) => StandardResult;
  /** Types only, for inference (`StandardSchemaV1.InferOutput<typeof invoices>` is `Filter`); absent at run time. */
  readonly types?: { readonly input: QueryInput; readonly output: Filter } | undefined;
}

/** Makes the `~standard` property of a schema: its `validate` is `check` against that schema. */
export function standardProps(schema: Schema): StandardProps {
  return Object.freeze({
    version: 1,
    vendor: 'qsfilter',
    validate(value: unknown): StandardResult {
      // check reports input that is not a query (a number, a Map, null) as INVALID_PARAMETER.
      const result = check(value as QueryInput, schema);
      if (result.ok) return { value: result.value };
      return { issues: result.errors.map(toIssue) };
    },
  } as const);
}

function toIssue(d: Diagnostic): StandardIssue {
  return d.param === undefined ? d : { ...d, path: [d.param] };
}
