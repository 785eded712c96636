import type { CheckOptions } from '../check/check';
import type { Diagnostic, Result } from '../diagnostics/diagnostic';
import type { Filter } from '../filter/filter';
import type { QueryInput } from '../input/decode';
import type { Schema, SchemaSpec } from '../spec/spec';
import { expectSchema } from '../spec/guard';

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
 * The `~standard` property of a schema (Standard Schema v1, standardschema.dev), so that
 * it plugs into what takes any Standard Schema validator: tRPC,
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
   * record of strings) and never throws: anything else is an issue. Strict decoding
   * needs the query as sent; a record a framework already decoded has lost it
   * (reference §2), so give the raw query string where there is one.
   *
   * The parser is loaded on the first validation, not with the schema (so that a browser
   * module that only builds queries never loads it): until it is loaded, the answer is a
   * Promise, as Standard Schema allows; from then on it is given synchronously.
   */
  readonly validate: (value: unknown) => StandardResult | Promise<StandardResult>;
  /** Types only, for inference (`StandardSchemaV1.InferOutput<typeof invoices>` is `Filter`); absent at run time. */
  readonly types?: { readonly input: QueryInput; readonly output: Filter } | undefined;
}

/** A schema that is also a Standard Schema v1 validator: what the main entry's `defineSchema` and catalog give. */
export type StandardSchema<S extends SchemaSpec = SchemaSpec> = Schema<S> & { readonly '~standard': StandardProps };

/**
 * The schema with its `~standard` face (reference §10), whose `validate` is `check`
 * against it. Every schema `defineSchema` makes, and every schema of the catalog, has it
 * already: this is for a schema indexed otherwise, and gives back one that has it.
 */
export function withStandard<S extends SchemaSpec>(schema: Schema<S>): StandardSchema<S> {
  // Its validate() must never throw: a wrong schema is refused here, when it is given.
  expectSchema('withStandard', schema);
  if (Object.hasOwn(schema, '~standard')) return schema as StandardSchema<S>;
  return faced(schema);
}

/** The face itself, for a schema known to be one (the catalog's, defineSchema's: `schema/`). */
export function faced<S extends SchemaSpec>(schema: Schema<S>): StandardSchema<S> {
  const withFace = { ...schema } as { -readonly [K in keyof StandardSchema<S>]: StandardSchema<S>[K] };
  withFace['~standard'] = Object.freeze({
    version: 1,
    vendor: 'qsfilter',
    validate(value: unknown): StandardResult | Promise<StandardResult> {
      // check reports input that is not a query (a number, a Map, null) as INVALID_PARAMETER.
      if (loaded !== undefined) return answer(loaded(value as QueryInput, withFace));
      return loadCheck().then((check) => answer(check(value as QueryInput, withFace)));
    },
  } as const);
  return Object.freeze(withFace);
}

type Check = (input: QueryInput, schema: Schema, options?: CheckOptions) => Result<Filter>;

/** `check`, once its module (and the parser with it) has been loaded by a first validation. */
let loaded: Check | undefined;
let loading: Promise<Check> | undefined;

/**
 * Loads `check` on first use. A dynamic import, so that a bundler puts the checker and
 * the parser in a chunk of their own, which a module that takes `defineSchema` (or a
 * catalog schema) to build queries never loads. Should loading fail (a chunk that could
 * not be fetched), the next validation tries again.
 */
function loadCheck(): Promise<Check> {
  loading ??= import('../check/check').then(
    (module) => (loaded = module.check),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

function answer(result: Result<Filter>): StandardResult {
  return result.ok ? { value: result.value } : { issues: result.errors.map(toIssue) };
}

function toIssue(d: Diagnostic): StandardIssue {
  return d.param === undefined ? d : { ...d, path: [d.param] };
}
