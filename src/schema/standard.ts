import { expectSchema } from './guard';
import { check } from '../check/check';
import type { Filter } from '../filter/filter';
import type { Diagnostic } from '../diagnostics/diagnostic';
import type { QueryInput } from '../input/decode';
import * as core from './catalog';
import { defineSchema as indexSchema, type Schema, type SchemaSpec } from './define';

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
   * record of strings), synchronously, and never throws: anything else is an issue.
   * Strict decoding needs the query as sent; a record a framework already decoded has
   * lost it (reference §2), so give the raw query string where there is one.
   */
  readonly validate: (value: unknown) => StandardResult;
  /** Types only, for inference (`StandardSchemaV1.InferOutput<typeof invoices>` is `Filter`); absent at run time. */
  readonly types?: { readonly input: QueryInput; readonly output: Filter } | undefined;
}

/** A schema that is also a Standard Schema v1 validator: what the main entry's `defineSchema` and catalog give. */
export type StandardSchema<S extends SchemaSpec = SchemaSpec> = Schema<S> & { readonly '~standard': StandardProps };

/**
 * The schema with its `~standard` face (reference §10), whose `validate` is `check` against it.
 *
 * The face is added here, above `check`, and not by `schema/define.ts`: a schema's index
 * is all that `qsfilter/client` needs (it builds queries without the parser), and a face
 * there would bring the parser into every client bundle.
 */
export function withStandard<S extends SchemaSpec>(schema: Schema<S>): StandardSchema<S> {
  // Its validate() must never throw: a wrong schema is refused here, when it is given.
  expectSchema('withStandard', schema);
  const faced = { ...schema } as { -readonly [K in keyof StandardSchema<S>]: StandardSchema<S>[K] };
  faced['~standard'] = Object.freeze({
    version: 1,
    vendor: 'qsfilter',
    validate(value: unknown): StandardResult {
      // check reports input that is not a query (a number, a Map, null) as INVALID_PARAMETER.
      const result = check(value as QueryInput, faced);
      if (result.ok) return { value: result.value };
      return { issues: result.errors.map(toIssue) };
    },
  } as const);
  return Object.freeze(faced);
}

function toIssue(d: Diagnostic): StandardIssue {
  return d.param === undefined ? d : { ...d, path: [d.param] };
}

/**
 * Checks a schema spec and indexes it (see `schema/define.ts`), as a schema that is also
 * a Standard Schema v1 validator: `schema['~standard'].validate(query)` is `check`. A
 * malformed spec is a programmer error: it throws a `TypeError` that says what is wrong.
 */
export function defineSchema<const S extends SchemaSpec>(spec: S): StandardSchema<S> {
  return withStandard(indexSchema(spec));
}

// The catalog as the main entry exports it: each resource of `schema/catalog.ts` (see
// there for its fields and sources), with its Standard Schema face.

/** `GET /balanceSheets` of `schema/catalog.ts`, also a Standard Schema validator. */
export const balanceSheets = /* @__PURE__ */ withStandard(core.balanceSheets);
/** `GET /invoices` of `schema/catalog.ts`, also a Standard Schema validator. */
export const invoices = /* @__PURE__ */ withStandard(core.invoices);
/** `GET /vendors` of `schema/catalog.ts`, also a Standard Schema validator. */
export const vendors = /* @__PURE__ */ withStandard(core.vendors);
/** `GET /deposits` of `schema/catalog.ts`, also a Standard Schema validator. */
export const deposits = /* @__PURE__ */ withStandard(core.deposits);
/** `GET /bills` of `schema/catalog.ts`, also a Standard Schema validator. */
export const bills = /* @__PURE__ */ withStandard(core.bills);
/** `GET /connections` of `schema/catalog.ts`, also a Standard Schema validator. */
export const connections = /* @__PURE__ */ withStandard(core.connections);
/** `GET /syncStatus` of `schema/catalog.ts`, also a Standard Schema validator. */
export const syncStatus = /* @__PURE__ */ withStandard(core.syncStatus);
/** `GET /businesses` of `schema/catalog.ts`, also a Standard Schema validator. */
export const businesses = /* @__PURE__ */ withStandard(core.businesses);

/** Every resource, by the name of its collection endpoint. */
export const catalog = { balanceSheets, invoices, vendors, deposits, bills, connections, syncStatus, businesses } as const;
