import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { catalog, check, defineSchema, invoices, vendors, withStandard, type Filter, type StandardResult, type StandardSchema } from '../../src/index';
import * as client from '../../src/client/index';
import { checkSpec, indexSpec } from '../../src/spec/spec';

/** A schema's validate, once the parser is loaded: synchronous from then on. */
function validator(schema: StandardSchema): (value: unknown) => StandardResult {
  return (value) => {
    const result = schema['~standard'].validate(value);
    if (result instanceof Promise) throw new Error('validate answered with a Promise once the parser was loaded');
    return result;
  };
}

const standard = { ...invoices['~standard'], validate: validator(invoices) };

// The first validation of the file loads the parser: the answer is a Promise, then.
beforeAll(async () => {
  const first = client.vendors['~standard'].validate('vendorName=acme');
  expect(first).toBeInstanceOf(Promise);
  expect(await first).toEqual({ value: checked('vendorName=acme', vendors) });
  expect(client.vendors['~standard'].validate('vendorName=acme')).toEqual({ value: checked('vendorName=acme', vendors) });
});

/** What `check` gives for the same input: the Standard face must be exactly it. */
function checked(input: Parameters<typeof check>[0], schema: StandardSchema = invoices): Filter {
  const result = check(input, schema);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}

describe('Schema["~standard"] (Standard Schema v1, reference §10)', () => {
  it('names its version and vendor, on every schema', () => {
    expect(standard.version).toBe(1);
    expect(standard.vendor).toBe('qsfilter');
    const own = defineSchema({ fields: { amount: 'number' } });
    expect(own['~standard'].vendor).toBe('qsfilter');
    expect(Object.isFrozen(own['~standard'])).toBe(true);
  });

  it('gives the checked Filter for a good query, in every input form, and no issues', () => {
    const query = 'customerRef.id=42&totalAmount=gte:100;lte:200&orderBy=-postedDate&limit=5';
    for (const input of [query, `?${query}`, `/invoices?${query}`, new URL(`https://api.example/invoices?${query}`), new URLSearchParams(query)]) {
      const result = standard.validate(input);
      expect(result.issues).toBeUndefined();
      expect(result).toEqual({ value: checked(query) });
    }
    expect(standard.validate({ 'customerRef.id': '42', totalAmount: ['gte:100', 'lte:200'] })).toEqual({
      value: checked('customerRef.id=42&totalAmount=gte:100&totalAmount=lte:200'),
    });
  });

  it('reports each diagnostic as an issue with path [param], the message, and the diagnostic kept', () => {
    const result = validator(vendors)('vendorName=%acme%&balance=gt:x&orderBy=-nope');
    expect(result.issues).toBeDefined();
    const errors = check('vendorName=%acme%&balance=gt:x&orderBy=-nope', vendors);
    if (errors.ok) throw new Error('expected problems');
    expect(result.issues).toEqual(errors.errors.map((d) => ({ ...d, path: [d.param] })));
    expect(result.issues?.map((i) => [i.path, i.code])).toEqual([
      [['vendorName'], 'MALFORMED_ENCODING'],
      [['balance'], 'INVALID_NUMBER'],
      [['orderBy'], 'UNKNOWN_FIELD'],
    ]);
    expect(result.issues?.[0]?.message).toBe('The value of parameter "vendorName" has "%ac", which is not valid UTF-8.');
  });

  it('gives a whole-query problem no path', () => {
    const many = Array.from({ length: 65 }, (_, i) => `totalAmount=${i}`).join('&');
    const result = standard.validate(many);
    expect(result.issues).toHaveLength(1);
    expect(result.issues?.[0]).toMatchObject({ code: 'LIMIT_EXCEEDED' });
    expect(result.issues?.[0]).not.toHaveProperty('path');
  });

  it('turns anything that is not a query into an issue, synchronously', () => {
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();
    const unreadable = new Proxy({}, { getPrototypeOf: () => { throw new Error('no'); } });
    for (const value of [undefined, null, 42, true, new Map([['a', '1']]), ['totalAmount=1'], Symbol('q'), () => 'x', revoked, unreadable]) {
      const result = standard.validate(value);
      expect(result).not.toBeInstanceOf(Promise);
      expect(result.issues?.[0]?.code, String(typeof value)).toBe('INVALID_PARAMETER');
    }
  });

  it('is on each resource of the catalog, beside the index of its spec', () => {
    for (const [name, schema] of Object.entries(catalog)) {
      expect(schema['~standard'].vendor, name).toBe('qsfilter');
      expect({ ...schema, '~standard': undefined }, name).toEqual({ ...indexSpec(schema.spec), '~standard': undefined });
      expect(Object.isFrozen(schema), name).toBe(true);
    }
  });

  it('is on every schema, from qsfilter/client too, whose defineSchema and catalog are the main entry\'s', () => {
    expect(client.defineSchema).toBe(defineSchema);
    expect(client.catalog).toBe(catalog);
    expect(client.invoices['~standard'].vendor).toBe('qsfilter');
    expect(validator(client.defineSchema({ fields: { amount: 'number' } }))('amount=gt:1')).toMatchObject({ value: { conditions: [{ key: 'amount' }] } });
  });

  it('is not on a schema\'s bare index, and withStandard adds it (and keeps a schema that has it)', () => {
    const spec = { fields: { amount: 'number' } } as const;
    checkSpec(spec);
    const index = indexSpec(spec);
    expect(index).not.toHaveProperty('~standard');
    const faced = withStandard(index);
    expect(faced.fields).toBe(index.fields);
    const expected = check('amount=gt:1', index);
    if (!expected.ok) throw new Error(JSON.stringify(expected.errors));
    expect(validator(faced)('amount=gt:1')).toEqual({ value: expected.value });
    expect(withStandard(faced)).toBe(faced);
  });

  it('works detached from its object, as a callback', () => {
    const { validate } = invoices['~standard'];
    expect(validate('totalAmount=1')).toEqual({ value: checked('totalAmount=1') });
  });

  it('never throws, and answers either a value or at least one issue (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.string(), fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.array(fc.string())))), (value) => {
        const result = standard.validate(value);
        if (result.issues === undefined) expect(result.value.type).toBe('Filter');
        else expect(result.issues.length).toBeGreaterThan(0);
      }),
    );
  });
});
