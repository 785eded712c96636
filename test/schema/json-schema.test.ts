import { readFileSync } from 'node:fs';
import { validate as validateOpenApi } from '@readme/openapi-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check, defineSchema, invoices, schemaFromJsonSchema, type FieldSpec, type UnmappedProperty } from '../../src/index';

/** The invoice items of the API the catalog follows, as its published OpenAPI document has them. */
const railz = JSON.parse(readFileSync(new URL('fixtures/railz-invoice.openapi.json', import.meta.url), 'utf8')) as {
  components: { schemas: Record<string, object> };
};
const invoiceItem = railz.components.schemas.GetInvoiceV2Data!;

describe('schemaFromJsonSchema on a published OpenAPI component schema (Railz GetInvoiceV2Data)', () => {
  const { spec, unmapped } = schemaFromJsonSchema(invoiceItem, { document: railz, sortable: ['postedDate', 'totalAmount'] });

  it('is a valid OpenAPI document, as shipped', async () => {
    const result = await validateOpenApi(structuredClone(railz) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it('maps numbers, dates, text, refs and child arrays, following $refs', () => {
    expect(spec.fields).toEqual<Record<string, FieldSpec>>({
      id: 'string',
      invoiceNumber: 'string',
      customerRef: { type: 'ref' },
      dueDate: 'date',
      currencyRate: 'number',
      totalAmount: { type: 'number', sortable: true },
      status: 'string',
      totalDiscount: 'number',
      subTotal: 'number',
      taxAmount: 'number',
      amountDue: 'number',
      discountPercentage: 'number',
      sourceModifiedDate: 'date',
      memo: 'string',
      payments: { type: 'array', of: { amount: 'number', paymentId: 'string', date: 'date' } },
      subsidiaryRefs: { type: 'array', of: { id: 'string', name: 'string' } },
      postedDate: { type: 'date', sortable: true },
      currency: 'string',
      lines: {
        type: 'array',
        of: {
          description: 'string',
          unitAmount: 'number',
          quantity: 'number',
          discountAmount: 'number',
          taxAmount: 'number',
          taxRateRef: { type: 'ref' },
          inventoryRef: { type: 'ref' },
          discountPercentage: 'number',
          id: 'string',
          accountRef: { type: 'ref' },
          amount: 'number',
        },
      },
    });
  });

  it('reports what it cannot map, with why, instead of guessing', () => {
    expect(unmapped).toEqual<UnmappedProperty[]>([
      { path: 'lines.trackingCategoryRefs', reason: 'a list inside a list element: child arrays do not nest' },
      { path: 'passThrough', reason: 'an object without an "id": only a ref (an object with an id) can be filtered, as field.id' },
    ]);
  });

  it('makes a spec defineSchema takes, and the queries of the catalog\'s invoices check against it', () => {
    const schema = defineSchema(spec);
    const query = 'customerRef.id=42&totalAmount=gte:100;lte:200&postedDate=gte:2023-01-01&lines.description=%25fee&orderBy=-postedDate';
    expect(check(query, schema).ok).toBe(true);
    // Every field of the catalog's invoices that the published item has maps to the same type.
    for (const field of invoices.fields.values()) {
      const mapped = schema.fields.get(field.path);
      if (mapped !== undefined) expect([field.path, mapped.type]).toEqual([field.path, field.type]);
    }
    expect([...invoices.fields.keys()].filter((path) => !schema.fields.has(path))).toEqual([]);
  });
});

/** Maps one property, to see what becomes of it. */
function one(property: unknown, document?: object): { field: FieldSpec | undefined; unmapped: readonly UnmappedProperty[] } {
  const { spec, unmapped } = schemaFromJsonSchema({ type: 'object', properties: { x: property } }, document === undefined ? undefined : { document });
  return { field: spec.fields.x, unmapped };
}

describe('schemaFromJsonSchema: each kind of property', () => {
  it.each<[string, unknown, FieldSpec]>([
    ['integer', { type: 'integer' }, 'number'],
    ['number', { type: 'number', format: 'double' }, 'number'],
    ['date', { type: 'string', format: 'date' }, 'date'],
    ['date-time', { type: 'string', format: 'date-time' }, 'date'],
    ['another string format', { type: 'string', format: 'uuid' }, 'string'],
    ['an enum of strings', { type: 'string', enum: ['open', 'paid'] }, 'string'],
    ['OpenAPI 3.0 nullable', { type: 'number', nullable: true }, 'number'],
    ['a 3.1 type list with null', { type: ['string', 'null'], format: 'date' }, 'date'],
    ['anyOf with null', { anyOf: [{ type: 'integer' }, { type: 'null' }] }, 'number'],
    ['allOf of one schema, with a description beside it', { allOf: [{ type: 'string' }], description: 'x' }, 'string'],
    ['an object with a numeric id', { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } }, { type: 'ref' }],
    ['an object without "type" but with properties', { properties: { id: { type: 'string' } } }, { type: 'ref' }],
    ['an array of objects', { type: 'array', items: { type: 'object', properties: { amount: { type: 'number' }, ok: { type: 'boolean' } } } }, { type: 'array', of: { amount: 'number' } }],
  ])('%s', (_name, property, field) => {
    expect(one(property).field).toEqual(field);
  });

  it.each<[string, unknown, string]>([
    ['a boolean', { type: 'boolean' }, 'a boolean: qsfilter has no boolean type'],
    ['an object without an id', { type: 'object', properties: { city: { type: 'string' } } }, 'an object without an "id": only a ref (an object with an id) can be filtered, as field.id'],
    ['an object whose id is an object', { type: 'object', properties: { id: { type: 'object' } } }, 'an object whose "id" is not a string or a number'],
    ['a list of values', { type: 'array', items: { type: 'string' } }, 'a list of values, not of objects: only the fields of child objects can be filtered'],
    ['a union of types', { oneOf: [{ type: 'string' }, { type: 'number' }] }, 'a union of several types: which would a filter compare?'],
    ['a type list', { type: ['string', 'number'] }, 'several types (string, number): which would a filter compare?'],
    ['no type at all', { description: 'anything' }, 'no type'],
    ['writeOnly', { type: 'string', writeOnly: true }, 'it is writeOnly: never in the data'],
    ['a type that does not exist', { type: 'decimal' }, 'the type "decimal", which does not map'],
    ['a $ref that does not resolve', { $ref: '#/components/schemas/Nope' }, 'the $ref "#/components/schemas/Nope" does not resolve in the document'],
    ['a $ref to another document', { $ref: 'other.json#/Invoice' }, 'the $ref "other.json#/Invoice" does not resolve in the document'],
    ['a schema that is not an object', true, 'its schema is not an object'],
  ])('leaves out %s, and says why', (_name, property, reason) => {
    const { field, unmapped } = one(property);
    expect(field).toBeUndefined();
    expect(unmapped).toEqual([{ path: 'x', reason }]);
  });

  it('leaves out a list of objects none of whose fields map, and says why of each', () => {
    expect(one({ type: 'array', items: { type: 'object', properties: { ok: { type: 'boolean' } } } })).toEqual({
      field: undefined,
      unmapped: [
        { path: 'x.ok', reason: 'a boolean: qsfilter has no boolean type' },
        { path: 'x', reason: 'a list of objects none of whose fields map' },
      ],
    });
  });

  it('cuts a chain of $refs that comes back, and a union that contains itself', () => {
    const document = { $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' }, U: { anyOf: [{ $ref: '#/$defs/U' }, { type: 'null' }] } } };
    expect(one({ $ref: '#/$defs/A' }, document).unmapped).toEqual([{ path: 'x', reason: 'its $refs come back to #/$defs/A' }]);
    expect(one({ $ref: '#/$defs/U' }, document).unmapped).toEqual([{ path: 'x', reason: 'its schema nests too deep: it contains itself' }]);
  });

  it('cuts a loop of objects, as a dereferenced document holds it, rather than following it for ever', () => {
    const loop: Record<string, unknown> = {};
    loop.allOf = [{ allOf: [loop] }];
    const node: Record<string, unknown> = { type: 'object', properties: { id: { type: 'integer' } } };
    (node.properties as Record<string, unknown>).parent = node;
    (node.properties as Record<string, unknown>).children = { type: 'array', items: node };
    const { spec, unmapped } = schemaFromJsonSchema({ type: 'object', properties: { x: loop, node } });
    expect(unmapped).toEqual([{ path: 'x', reason: 'its allOf comes back to itself' }]);
    expect(spec.fields).toEqual({ node: { type: 'ref' } });
    expect(schemaFromJsonSchema(node)).toEqual({
      spec: { fields: { id: 'number', parent: { type: 'ref' }, children: { type: 'array', of: { id: 'number', parent: { type: 'ref' } } } } },
      unmapped: [{ path: 'children.children', reason: 'a list inside a list element: child arrays do not nest' }],
    });
  });

  it('leaves out a property whose name is no field name', () => {
    const { spec, unmapped } = schemaFromJsonSchema({
      type: 'object',
      properties: { 'due-date': { type: 'string' }, '1st': { type: 'number' }, constructor: { type: 'string' }, ok: { type: 'number' } },
    });
    expect(spec.fields).toEqual({ ok: 'number' });
    expect(unmapped.map((u) => u.path)).toEqual(['due-date', '1st', 'constructor']);
    // A reserved name is letters and "_": the reason says what is wrong with it.
    expect(unmapped[2]!.reason).toBe('its name is reserved: "__proto__", "constructor" and "prototype" are never fields');
  });

  it('leaves out a dotted name, at the top or in a child object, rather than map it to a field of its last part (issue 23, item 2)', () => {
    const { spec, unmapped } = schemaFromJsonSchema({
      type: 'object',
      properties: {
        '@odata.etag': { type: 'string' },
        'a.b': { type: 'number' },
        lines: { type: 'array', items: { type: 'object', properties: { 'x.y': { type: 'string' }, amount: { type: 'number' } } } },
      },
    });
    expect(spec.fields).toEqual({ lines: { type: 'array', of: { amount: 'number' } } });
    const reason = 'its name is not a field name (letters, digits and "_", not starting with a digit)';
    expect(unmapped).toEqual([
      { path: '@odata.etag', reason },
      { path: 'a.b', reason },
      { path: 'lines.x.y', reason },
    ]);
    expect(() => defineSchema(spec)).not.toThrow();
  });

  it('stops at a schema that contains itself, and still maps the rest of it', () => {
    const document = {
      $defs: {
        Node: {
          type: 'object',
          properties: { id: { type: 'string' }, parent: { $ref: '#/$defs/Node' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
        },
      },
    };
    const { spec, unmapped } = schemaFromJsonSchema({ $ref: '#/$defs/Node' }, { document });
    // parent is a ref (an object with an id), known without following it again.
    expect(spec.fields).toEqual({ id: 'string', parent: { type: 'ref' }, children: { type: 'array', of: { id: 'string', parent: { type: 'ref' } } } });
    expect(unmapped).toEqual([{ path: 'children.children', reason: 'a list inside a list element: child arrays do not nest' }]);
  });

  it('reports the $refs it cannot follow without the document they point into', () => {
    const { spec, unmapped } = schemaFromJsonSchema(invoiceItem);
    expect(spec.fields.totalAmount).toBe('number');
    expect(unmapped.map((u) => u.path)).toEqual(['customerRef', 'payments', 'subsidiaryRefs', 'lines', 'passThrough']);
    expect(unmapped[0]!.reason).toBe('the $ref "#/components/schemas/CustomerRef" does not resolve in the document');
  });

  it('follows the same $ref from several places, and a chain of them', () => {
    const document = { $defs: { Money: { $ref: '#/$defs/Amount' }, Amount: { type: 'number' } } };
    const { spec, unmapped } = schemaFromJsonSchema(
      { type: 'object', properties: { a: { $ref: '#/$defs/Money' }, b: { $ref: '#/$defs/Money' }, c: { $ref: '#/$defs/Amount' } } },
      { document },
    );
    expect(spec.fields).toEqual({ a: 'number', b: 'number', c: 'number' });
    expect(unmapped).toEqual([]);
  });

  it('throws a TypeError for what is not an object schema, or a sortable name that did not map', () => {
    expect(() => schemaFromJsonSchema({ type: 'string' })).toThrow(TypeError);
    expect(() => schemaFromJsonSchema({ $ref: '#/components/schemas/GetInvoiceV2Data' })).toThrow(
      /the JSON Schema must be the schema of an object, with "properties" .*The root schema: the \$ref "#\/components\/schemas\/GetInvoiceV2Data" does not resolve in the document; pass the OpenAPI document it points into as \{ document \}\.$/,
    );
    // The whole document instead of one of its schemas.
    expect(() => schemaFromJsonSchema(railz)).toThrow(/This is a whole OpenAPI document: pass one of its schemas, such as document\.components\.schemas\.Invoice, with \{ document \}/);
    expect(() => schemaFromJsonSchema(null as never)).toThrow(TypeError);
    expect(() => schemaFromJsonSchema(invoiceItem, { document: railz, sortable: ['lines'] })).toThrow(/"sortable" names "lines"/);
    expect(() => schemaFromJsonSchema(invoiceItem, { document: railz, sortable: ['passThrough'] })).toThrow(TypeError);
  });

  it('accounts for every property: mapped, or reported, and the spec is always one defineSchema takes (property)', () => {
    // Names with dots and "@" too, as OData's "@odata.etag", at the top and in child objects.
    const name = fc.oneof(fc.stringMatching(/^[A-Za-z_$@.-][A-Za-z0-9_$@.-]{0,6}$/), fc.constantFrom('@odata.etag', 'x.y', 'a.', '.a', 'id.x'));
    // JSON Schemas of every kind the mapping reads, nested, with $refs into a document that may loop.
    const { schema } = fc.letrec<{ schema: unknown }>((tie) => ({
      schema: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.jsonValue({ maxDepth: 2 }),
        fc.record({ type: fc.constantFrom('number', 'integer', 'string', 'boolean', 'null', 'object', 'array', 'decimal'), format: fc.constantFrom('date', 'date-time', 'uuid') }, { requiredKeys: ['type'] }),
        fc.record({ type: fc.constantFrom('object', undefined), properties: fc.dictionary(fc.oneof(fc.constantFrom('id', 'amount', 'lines', 'ref'), name), tie('schema'), { maxKeys: 3 }) }, { requiredKeys: ['properties'] }),
        fc.record({ type: fc.constant('array'), items: tie('schema') }, { requiredKeys: ['type'] }),
        fc.record({ anyOf: fc.array(fc.oneof(tie('schema'), fc.constant({ type: 'null' })), { maxLength: 3 }) }),
        fc.record({ allOf: fc.tuple(tie('schema')) }),
        fc.record({ type: fc.constant(['string', 'null']) }),
        fc.record({ $ref: fc.constantFrom('#/$defs/A', '#/$defs/B', '#/$defs/missing', 'http://x/y') }),
      ),
    }));
    fc.assert(
      fc.property(fc.dictionary(name, schema, { maxKeys: 6 }), schema, schema, (properties, a, b) => {
        const { spec, unmapped } = schemaFromJsonSchema({ type: 'object', properties }, { document: { $defs: { A: a, B: b } } });
        expect(() => defineSchema(spec)).not.toThrow();
        for (const key of Object.keys(properties)) {
          const reported = unmapped.some((u) => u.path === key);
          expect(Object.hasOwn(spec.fields, key) !== reported, key).toBe(true);
        }
      }),
    );
  });
});

describe('schemaFromJsonSchema on hostile documents', () => {
  it('reads a $ref as the URI fragment it is: percent-encoded, and through arrays', () => {
    const document = {
      $defs: { 'Money Amount': { type: 'number' }, '100%': { type: 'string' } },
      paths: { '/invoices': { get: { parameters: [{ name: 'x', schema: { type: 'string', format: 'date' } }] } } },
    };
    const { spec, unmapped } = schemaFromJsonSchema(
      {
        type: 'object',
        properties: {
          amount: { $ref: '#/$defs/Money%20Amount' },
          percent: { $ref: '#/$defs/100%25' },
          day: { $ref: '#/paths/~1invoices/get/parameters/0/schema' },
          broken: { $ref: '#/$defs/100%' },
          length: { $ref: '#/paths/~1invoices/get/parameters/length' },
        },
      },
      { document },
    );
    expect(spec.fields).toEqual({ amount: 'number', percent: 'string', day: 'date' });
    expect(unmapped).toEqual([
      { path: 'broken', reason: 'the $ref "#/$defs/100%" does not resolve in the document' },
      { path: 'length', reason: 'its schema is not an object' },
    ]);
  });

  it('describes a list of types that are no strings, as a schema built in code may hold, rather than throwing', () => {
    const { unmapped } = schemaFromJsonSchema({ type: 'object', properties: { a: { type: [Symbol('number'), 5, 'string'] } } });
    expect(unmapped).toEqual([{ path: 'a', reason: 'several types (a symbol, a number, string): which would a filter compare?' }]);
  });

  /** The document, with every read of a schema in it counted. */
  function counted(schemas: Record<string, unknown>): { document: object; reads: () => number } {
    let reads = 0;
    const proxy = new Proxy(schemas, {
      get(target, key, receiver) {
        reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    return { document: { $defs: proxy }, reads: () => reads };
  }

  it('follows a long chain of $refs once, however many properties name it (work linear in the document)', () => {
    const n = 300;
    const schemas: Record<string, unknown> = { [`A${n}`]: { type: 'number' } };
    for (let i = 0; i < n; i++) schemas[`A${i}`] = { $ref: `#/$defs/A${i + 1}` };
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) properties[`p${i}`] = { $ref: '#/$defs/A0' };
    const { document, reads } = counted(schemas);
    const { spec, unmapped } = schemaFromJsonSchema({ type: 'object', properties }, { document });
    expect(unmapped).toEqual([]);
    expect(Object.keys(spec.fields)).toHaveLength(n);
    // Each link read once; following the chain from each property would read n * n.
    expect(reads()).toBeLessThanOrEqual(2 * n + 2);
  });

  it('cuts a chain that comes back once, and names for each $ref where it came back', () => {
    const n = 200;
    const schemas: Record<string, unknown> = { L: { $ref: '#/$defs/C0' } };
    for (let i = 0; i < n; i++) schemas[`C${i}`] = { $ref: `#/$defs/C${(i + 1) % n}` };
    const properties: Record<string, unknown> = { lead: { $ref: '#/$defs/L' }, inner: { $ref: '#/$defs/C7' } };
    for (let i = 0; i < n; i++) properties[`p${i}`] = { $ref: '#/$defs/L' };
    const { document, reads } = counted(schemas);
    const { unmapped } = schemaFromJsonSchema({ type: 'object', properties }, { document });
    expect(unmapped).toHaveLength(n + 2);
    // As each would be cut alone: from before the loop, back to where it starts; from inside it, back to itself.
    expect(unmapped[0]).toEqual({ path: 'lead', reason: 'its $refs come back to #/$defs/C0' });
    expect(unmapped[1]).toEqual({ path: 'inner', reason: 'its $refs come back to #/$defs/C7' });
    expect(reads()).toBeLessThanOrEqual(2 * n + 4);
  });
});
