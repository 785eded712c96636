import { describe, expectTypeOf, it } from 'vitest';
import { defineSchema, deposits, invoices, query, vendors, type Filter, type Query, type Schema } from '../../src/index';
import * as client from '../../src/client/index';

// Each refusal is a @ts-expect-error: the test fails to type-check when the call compiles.

const schema = defineSchema({
  fields: {
    amount: { type: 'number', sortable: true },
    name: { type: 'string', sortable: true },
    posted: { type: 'date', sortable: true },
    note: 'string',
    customerRef: { type: 'ref', sortable: true },
    old: { type: 'number', removed: 'Filter on amount instead.' },
    lines: { type: 'array', of: { price: 'number', label: 'string', itemRef: { type: 'ref' } } },
  },
  params: { businessName: 'string', startDate: { type: 'date', required: true }, top: 'number' },
  paging: { maxLimit: 50 },
});
const q = query(schema);

describe('where: paths', () => {
  it('accepts every filterable path, child-array and ref paths included', () => {
    q.where('amount', 'eq', 1).where('name', 'eq', 'x').where('posted', 'eq', '2023-01-09');
    q.where('customerRef.id', 'eq', 'c1').where('lines.price', 'gte', 10).where('lines.itemRef.id', 'eq', 7);
  });

  it('refuses an unknown path, a removed field, a bare ref or list, a sub-property', () => {
    // @ts-expect-error not a field
    q.where('nope', 'eq', 1);
    // @ts-expect-error removed
    q.where('old', 'eq', 1);
    // @ts-expect-error a ref filters by its id only
    q.where('customerRef', 'eq', 'c1');
    // @ts-expect-error nor by another sub-property
    q.where('customerRef.name', 'eq', 'c1');
    // @ts-expect-error a list filters by the fields of its elements
    q.where('lines', 'eq', 'x');
    // @ts-expect-error a field of a catalog schema that the reference does not mark filterable
    query(invoices).where('memo', 'eq', 'x');
    // @ts-expect-error lines.memo of deposits was removed on 2023-01-09
    query(deposits).where('lines.memo', 'eq', 'x');
  });
});

describe('where: operators by type', () => {
  it('accepts comparisons on numbers and dates, equality and patterns on text and ids', () => {
    for (const op of ['eq', 'gt', 'gte', 'lt', 'lte'] as const) q.where('amount', op, 1).where('posted', op, new Date());
    for (const op of ['eq', 'contains', 'startsWith', 'endsWith'] as const) q.where('name', op, 'x').where('customerRef.id', op, 'x');
  });

  it('refuses gt on a string or an id', () => {
    // @ts-expect-error gt on a string
    q.where('name', 'gt', 'a');
    // @ts-expect-error lte on a child's string
    q.where('lines.label', 'lte', 'a');
    // @ts-expect-error gte on an id
    q.where('customerRef.id', 'gte', 'a');
    // @ts-expect-error the catalog: vendorName is text
    query(vendors).where('vendorName', 'gt', 'a');
  });

  it('refuses contains, startsWith and endsWith on a number or a date', () => {
    // @ts-expect-error contains on a number
    q.where('amount', 'contains', '1');
    // @ts-expect-error startsWith on a date
    q.where('posted', 'startsWith', '2023');
    // @ts-expect-error endsWith on a child's number
    q.where('lines.price', 'endsWith', '0');
  });

  it('refuses operators of the query string and other spellings', () => {
    // @ts-expect-error operators are the builder's names, not "gte:"
    q.where('amount', 'gte:', 1);
    // @ts-expect-error there is no "like": use the pattern operators
    q.where('name', 'like', '%x');
    // @ts-expect-error nor "ne"
    q.where('amount', 'ne', 1);
  });
});

describe('where: values by type', () => {
  it('takes numbers for numbers, a Date or an ISO string for dates, text or a number for ids', () => {
    q.where('amount', 'gt', 1.5).where('posted', 'lt', new Date()).where('posted', 'gte', '2023-01-09T10:00:00Z');
    q.where('customerRef.id', 'eq', 42).where('customerRef.id', 'eq', '42').where('customerRef.id', 'startsWith', 'C-');
  });

  it('refuses a string where a number belongs, and other mistypes', () => {
    // @ts-expect-error a string where a number belongs
    q.where('amount', 'gte', '100');
    // @ts-expect-error a number where text belongs
    q.where('name', 'eq', 5);
    // @ts-expect-error a number is not a date
    q.where('posted', 'gte', 1673222400000);
    // @ts-expect-error a pattern on an id takes text
    q.where('customerRef.id', 'contains', 42);
    // @ts-expect-error null is no value
    q.where('name', 'eq', null);
  });
});

describe('orderBy, limit, offset, param', () => {
  it('sorts by sortable fields only, in a direction', () => {
    q.orderBy('amount').orderBy('posted', 'desc').orderBy('customerRef.id', 'asc');
    // @ts-expect-error not sortable
    q.orderBy('note');
    // @ts-expect-error a child-array field never sorts
    q.orderBy('lines.price');
    // @ts-expect-error a direction is asc or desc
    q.orderBy('amount', 'descending');
    // @ts-expect-error the connections of the catalog do not sort
    query(client.connections).orderBy('syncTime');
  });

  it('pages when the schema pages', () => {
    q.limit(10).offset(20);
    const unpaged = query(defineSchema({ fields: { a: 'number' } }));
    // @ts-expect-error this schema has no paging
    unpaged.limit(10);
    // @ts-expect-error nor offset
    unpaged.offset(10);
  });

  // Issue 32: after() type-checked on a schema without cursor paging, and threw at run time.
  it('takes a cursor only on a schema that pages by cursor', () => {
    const cursored = query(defineSchema({ fields: { id: { type: 'string', sortable: true } }, paging: { cursor: { key: 'id' } } }));
    cursored.limit(10).after('token');
    // @ts-expect-error this schema pages by offset
    q.after('token');
    // @ts-expect-error nor does one without paging
    query(defineSchema({ fields: { a: 'number' } })).after('token');
    // @ts-expect-error nor a catalog schema
    query(invoices).after('token');
    const any: Schema = schema;
    query(any).after('token');
  });

  it('sets declared request parameters with their types', () => {
    q.param('businessName', 'Acme').param('startDate', '2023-01-01').param('startDate', new Date()).param('top', 5);
    // @ts-expect-error not declared
    q.param('serviceName', 'x');
    // @ts-expect-error a date parameter
    q.param('startDate', 5);
    // @ts-expect-error a number parameter
    q.param('top', '5');
    // @ts-expect-error paging is limit() and offset()
    q.param('limit', '5');
    query(invoices).param('businessName', 'Acme').param('serviceName', 'quickbooks');
  });
});

describe('what a query gives', () => {
  it('is a Query of its schema spec, with toString and toFilter', () => {
    expectTypeOf(q.where('amount', 'eq', 1)).toEqualTypeOf<Query<typeof schema.spec>>();
    expectTypeOf(q.toString()).toEqualTypeOf<string>();
    expectTypeOf(q.toFilter()).toEqualTypeOf<Filter>();
    expectTypeOf(client.literal).toEqualTypeOf<(text: string) => string>();
  });

  it('takes any Schema whose spec type is not known, checking at run time', () => {
    const any: Schema = schema;
    query(any).where('whatever', 'eq', 'x').orderBy('whatever').limit(5).param('whatever', 'x');
  });

  it('is the same builder from qsfilter/client and from the main entry', () => {
    expectTypeOf(client.query).toEqualTypeOf(query);
  });
});
