import { describe, expectTypeOf, it } from 'vitest';
import {
  catalog,
  check,
  defineSchema,
  deposits,
  invoices,
  parse,
  validate,
  type FieldPath,
  type InferFields,
  type InferParams,
  type InferSortable,
  type Schema,
  type SortPath,
  type SchemaSpec,
} from '../../src/index';

describe('InferSortable and InferParams', () => {
  const schema = defineSchema({
    fields: {
      totalAmount: { type: 'number', sortable: true },
      memo: 'string',
      note: { type: 'string', sortable: false },
      customerRef: { type: 'ref', sortable: true },
      old: { type: 'date', sortable: true, removed: 'Gone.' },
      lines: { type: 'array', of: { amount: 'number' } },
    },
    params: { businessName: 'string', startDate: { type: 'date', required: true } },
  });

  it('infers the sortable paths: sortable scalars and ref ids, never removed ones', () => {
    expectTypeOf<InferSortable<typeof schema.spec>>().toEqualTypeOf<{ totalAmount: 'number'; 'customerRef.id': 'id' }>();
    expectTypeOf<SortPath<typeof schema>>().toEqualTypeOf<'totalAmount' | 'customerRef.id'>();
  });

  it('infers the request parameters and their types, in both forms', () => {
    expectTypeOf<InferParams<typeof schema.spec>>().toEqualTypeOf<{ businessName: 'string'; startDate: 'date' }>();
    const listed = defineSchema({ fields: {}, params: ['businessName', 'serviceName'] });
    expectTypeOf<InferParams<typeof listed.spec>>().toEqualTypeOf<{ businessName: 'string'; serviceName: 'string' }>();
  });

  it('infers what a catalog schema sorts by and the request parameters it takes', () => {
    expectTypeOf<SortPath<typeof deposits>>().toEqualTypeOf<
      'id' | 'postedDate' | 'subTotal' | 'taxAmount' | 'totalAmount' | 'status' | 'sourceModifiedDate'
    >();
    expectTypeOf<SortPath<typeof catalog.connections>>().toEqualTypeOf<never>();
    expectTypeOf<InferParams<typeof invoices.spec>>().toEqualTypeOf<{
      businessName: 'string';
      serviceName: 'string';
      connectionUuid: 'string';
      startDate: 'date';
      endDate: 'date';
    }>();
  });

  it('refuses sortable on a child array or its fields', () => {
    // @ts-expect-error a list has no one value to sort by
    defineSchema({ fields: { lines: { type: 'array', of: { a: 'number' }, sortable: true } } });
    // @ts-expect-error nor does a field of a list
    defineSchema({ fields: { lines: { type: 'array', of: { a: { type: 'number', sortable: true } } } } });
  });
});

describe('InferFields', () => {
  it('keeps literal types without `as const`, in both field forms', () => {
    const schema = defineSchema({ fields: { amount: 'number', name: { type: 'string' }, at: 'date' } });
    expectTypeOf<InferFields<typeof schema.spec>>().toEqualTypeOf<{ amount: 'number'; name: 'string'; at: 'date' }>();
  });

  it('turns a ref into its `.id`, typed `id`', () => {
    const schema = defineSchema({ fields: { customerRef: { type: 'ref' } } });
    expectTypeOf<InferFields<typeof schema.spec>>().toEqualTypeOf<{ 'customerRef.id': 'id' }>();
  });

  it('turns the fields of a child array into dotted paths, refs of elements included', () => {
    const schema = defineSchema({
      fields: { lines: { type: 'array', of: { description: 'string', amount: { type: 'number' }, itemRef: { type: 'ref' } } } },
    });
    expectTypeOf<InferFields<typeof schema.spec>>().toEqualTypeOf<{
      'lines.description': 'string';
      'lines.amount': 'number';
      'lines.itemRef.id': 'id';
    }>();
  });

  it('leaves removed fields out: scalars, refs, arrays and fields of arrays', () => {
    const schema = defineSchema({
      fields: {
        memo: { type: 'string', removed: 'Filter on note.' },
        note: 'string',
        vendorRef: { type: 'ref', removed: 'Filter on vendorId.' },
        old: { type: 'array', of: { a: 'number' }, removed: 'Gone.' },
        lines: { type: 'array', of: { memo: { type: 'string', removed: 'Use memo.' }, amount: 'number' } },
      },
    });
    expectTypeOf<InferFields<typeof schema.spec>>().toEqualTypeOf<{ note: 'string'; 'lines.amount': 'number' }>();
  });

  it('describes the deposits of the catalog without lines.memo', () => {
    expectTypeOf<InferFields<typeof deposits.spec>>().toEqualTypeOf<{
      id: 'string';
      postedDate: 'date';
      subTotal: 'number';
      taxAmount: 'number';
      totalAmount: 'number';
      status: 'string';
      memo: 'string';
      sourceModifiedDate: 'date';
      'lines.quantity': 'number';
      'lines.taxAmount': 'number';
      'lines.amount': 'number';
    }>();
  });
});

describe('FieldPath', () => {
  it('is the exact union of the filterable paths of a catalog schema', () => {
    expectTypeOf<FieldPath<typeof invoices>>().toEqualTypeOf<
      | 'id'
      | 'invoiceNumber'
      | 'customerRef.id'
      | 'postedDate'
      | 'dueDate'
      | 'status'
      | 'totalDiscount'
      | 'discountPercentage'
      | 'subTotal'
      | 'taxAmount'
      | 'totalAmount'
      | 'amountDue'
      | 'sourceModifiedDate'
      | 'lines.id'
      | 'lines.description'
      | 'lines.amount'
    >();
    expectTypeOf<FieldPath<typeof catalog.connections>>().toEqualTypeOf<
      'connectionUuid' | 'businessUuid' | 'businessName' | 'serviceName' | 'status' | 'serviceAccountRef.id' | 'syncTime'
    >();
  });

  it('leaves out pass-through params and removed fields', () => {
    expectTypeOf<'businessName'>().not.toExtend<FieldPath<typeof catalog.balanceSheets>>();
    expectTypeOf<'startDate'>().not.toExtend<FieldPath<typeof invoices>>();
    expectTypeOf<'lines.memo'>().not.toExtend<FieldPath<typeof deposits>>();
  });

  it('takes a spec as well as a schema', () => {
    const spec = { fields: { a: 'number', r: { type: 'ref' } } } as const;
    expectTypeOf<FieldPath<typeof spec>>().toEqualTypeOf<'a' | 'r.id'>();
  });

  it('is any string for a schema whose fields are not known', () => {
    expectTypeOf<FieldPath<Schema>>().toEqualTypeOf<string>();
  });
});

describe('Schema', () => {
  it('every schema, refs and arrays included, is a Schema that check and validate take', () => {
    expectTypeOf(invoices).toExtend<Schema>();
    expectTypeOf(catalog.deposits).toExtend<Schema>();
    expectTypeOf(defineSchema({ fields: { r: { type: 'ref' } } })).toExtend<Schema>();
    const ast = parse('');
    if (ast.ok) expectTypeOf(validate(ast.value, invoices)).toEqualTypeOf(check('', invoices));
    for (const schema of Object.values(catalog)) expectTypeOf(schema).toExtend<Schema<SchemaSpec>>();
  });

  it('refuses a malformed spec at compile time', () => {
    // @ts-expect-error: an unknown type
    defineSchema({ fields: { a: 'nmber' } });
    // @ts-expect-error: arrays do not nest
    defineSchema({ fields: { a: { type: 'array', of: { b: { type: 'array', of: { c: 'string' } } } } } });
    // @ts-expect-error: an array needs `of`
    defineSchema({ fields: { a: { type: 'array' } } });
    // @ts-expect-error: `removed` says where to filter instead, as text
    defineSchema({ fields: { a: { type: 'string', removed: true } } });
    // @ts-expect-error: params are names
    defineSchema({ fields: {}, params: [1] });
    // @ts-expect-error: `fields` is required
    defineSchema({ params: ['a'] });
  });
});
