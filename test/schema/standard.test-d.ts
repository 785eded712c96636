import type { StandardSchemaV1 } from '@standard-schema/spec';
import { describe, expectTypeOf, it } from 'vitest';
import { catalog, defineSchema, invoices, type DiagnosticCode, type Filter, type QueryInput, type Schema, type StandardSchema } from '../../src/index';
import * as client from '../../src/client/index';

/** What a library that takes any Standard Schema does with one (tRPC, form libraries…). */
function parseWith<S extends StandardSchemaV1>(schema: S, value: unknown): StandardSchemaV1.InferOutput<S> | undefined {
  const result = schema['~standard'].validate(value);
  if (result instanceof Promise) return undefined;
  return result.issues === undefined ? result.value : undefined;
}

describe('every Schema is a Standard Schema v1 (@standard-schema/spec)', () => {
  it('is assignable to StandardSchemaV1<QueryInput, Filter>, the catalog and own schemas alike, from the main entry', () => {
    expectTypeOf(invoices).toExtend<StandardSchemaV1<QueryInput, Filter>>();
    expectTypeOf(catalog.balanceSheets).toExtend<StandardSchemaV1>();
    expectTypeOf(defineSchema({ fields: { amount: 'number' } })).toExtend<StandardSchemaV1<QueryInput, Filter>>();
    expectTypeOf<StandardSchema>().toExtend<StandardSchemaV1<QueryInput, Filter>>();
    // From qsfilter/client too; a schema's index alone (the type check and query take) is not one.
    expectTypeOf(client.defineSchema({ fields: { amount: 'number' } })).toExtend<StandardSchemaV1<QueryInput, Filter>>();
    expectTypeOf(client.invoices).toExtend<StandardSchemaV1<QueryInput, Filter>>();
    expectTypeOf<Schema>().not.toExtend<StandardSchemaV1>();
  });

  it('infers Filter as the output and QueryInput as the input', () => {
    expectTypeOf<StandardSchemaV1.InferOutput<typeof invoices>>().toEqualTypeOf<Filter>();
    expectTypeOf<StandardSchemaV1.InferInput<typeof invoices>>().toEqualTypeOf<QueryInput>();
    expectTypeOf(parseWith(invoices, 'totalAmount=1')).toEqualTypeOf<Filter | undefined>();
  });

  it('returns its issues as Standard issues that keep the diagnostic code', () => {
    const result = invoices['~standard'].validate('x=1');
    // A Promise until the parser is loaded (the first validation), as Standard Schema allows.
    expectTypeOf(result).toExtend<StandardSchemaV1.Result<Filter> | Promise<StandardSchemaV1.Result<Filter>>>();
    if (!(result instanceof Promise) && result.issues !== undefined) {
      expectTypeOf(result.issues[0]!).toExtend<StandardSchemaV1.Issue>();
      expectTypeOf(result.issues[0]!.code).toEqualTypeOf<DiagnosticCode>();
    }
  });
});
