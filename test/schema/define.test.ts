import { describe, expect, it } from 'vitest';
import { check, defineSchema, type Field, type SchemaSpec } from '../../src/index';

/** Specs built at run time, as from JSON config: the type checker cannot see them. */
const spec = (value: unknown): SchemaSpec => value as SchemaSpec;

describe('defineSchema: a well-formed spec', () => {
  const schema = defineSchema({
    fields: {
      totalAmount: 'number',
      issueDate: { type: 'date' },
      vendorName: 'string',
      customerRef: { type: 'ref' },
      lines: { type: 'array', of: { description: 'string', amount: 'number', itemRef: { type: 'ref' } } },
      memo: { type: 'string', removed: 'Filter on note.' },
      old: { type: 'array', of: { a: 'number' }, removed: 'Gone.' },
    },
    params: ['businessName', 'limit'],
  });

  it('indexes every path a query may name, with its type and where to read it', () => {
    expect(Object.fromEntries(schema.fields)).toEqual<Record<string, Field>>({
      totalAmount: { path: 'totalAmount', type: 'number', names: ['totalAmount'], sortable: false },
      issueDate: { path: 'issueDate', type: 'date', names: ['issueDate'], sortable: false },
      vendorName: { path: 'vendorName', type: 'string', names: ['vendorName'], sortable: false },
      'customerRef.id': { path: 'customerRef.id', type: 'id', names: ['customerRef', 'id'], sortable: false },
      'lines.description': { path: 'lines.description', type: 'string', array: 'lines', names: ['description'], sortable: false },
      'lines.amount': { path: 'lines.amount', type: 'number', array: 'lines', names: ['amount'], sortable: false },
      'lines.itemRef.id': { path: 'lines.itemRef.id', type: 'id', array: 'lines', names: ['itemRef', 'id'], sortable: false },
      memo: { path: 'memo', type: 'string', names: ['memo'], removed: 'Filter on note.', sortable: false },
      // The fields of a removed array are removed with it.
      'old.a': { path: 'old.a', type: 'number', array: 'old', names: ['a'], removed: 'Gone.', sortable: false },
    });
  });

  it('keeps the params as a set, and the spec as given', () => {
    expect([...schema.params]).toEqual(['businessName', 'limit']);
    expect(schema.spec.fields.totalAmount).toBe('number');
  });

  it('is frozen', () => {
    expect(Object.isFrozen(schema)).toBe(true);
  });

  it('accepts a spec without params or fields', () => {
    expect(defineSchema({ fields: {} }).params.size).toBe(0);
    expect(defineSchema({ fields: {}, params: [] }).fields.size).toBe(0);
  });

  it('accepts names that are Object methods: fields are looked up as own properties', () => {
    const s = defineSchema({ fields: { toString: 'string', hasOwnProperty: 'number' }, params: ['valueOf'] });
    expect([...s.fields.keys()]).toEqual(['toString', 'hasOwnProperty']);
  });
});

describe('defineSchema: a malformed spec throws a TypeError that says what is wrong', () => {
  it.each<[string, unknown, RegExp]>([
    ['null', null, /must be an object with "fields"/],
    ['a string', 'invoices', /must be an object with "fields"/],
    ['no fields', {}, /"fields" must be an object/],
    ['fields: null', { fields: null }, /"fields" must be an object/],
    ['fields: an array', { fields: ['a'] }, /"fields" must be an object/],
    ['an unknown type', { fields: { a: 'nmber' } }, /"a" has the unknown type "nmber"/],
    ['an unknown type in object form', { fields: { a: { type: 'integer' } } }, /"a" has the unknown type "integer"/],
    ['no type', { fields: { a: {} } }, /"a" has the unknown type undefined/],
    ['a type that is not a name', { fields: { a: 5 } }, /field "a" must be a type name or an object/],
    ['a null field', { fields: { a: null } }, /field "a" must be a type name or an object/],
    ['an upper-case type', { fields: { a: 'Number' } }, /unknown type "Number"/],
    ['nested arrays', { fields: { a: { type: 'array', of: { b: { type: 'array', of: { c: 'string' } } } } } }, /"a\.b": arrays do not nest/],
    ['an array without of', { fields: { lines: { type: 'array' } } }, /array "lines" needs "of"/],
    ['an empty of', { fields: { lines: { type: 'array', of: {} } } }, /array "lines" needs "of"/],
    ['of as an array', { fields: { lines: { type: 'array', of: ['a'] } } }, /array "lines" needs "of"/],
    ['of as a type name', { fields: { lines: { type: 'array', of: 'string' } } }, /array "lines" needs "of"/],
    ['a bad element type', { fields: { lines: { type: 'array', of: { a: 'text' } } } }, /"lines\.a" has the unknown type "text"/],
    ['a name starting with a digit', { fields: { '1a': 'string' } }, /"1a" is not a field name/],
    ['a name with a dash', { fields: { 'a-b': 'string' } }, /"a-b" is not a field name/],
    ['a name with a dot', { fields: { 'a.b': 'string' } }, /"a\.b" is not a field name/],
    ['an empty name', { fields: { '': 'string' } }, /"" is not a field name/],
    ['a non-ASCII name', { fields: { 'montant': 'number', 'prix€': 'number' } }, /"prix€" is not a field name/],
    ['a bad element name', { fields: { lines: { type: 'array', of: { 'x y': 'string' } } } }, /"lines\.x y" is not a field name/],
    ['the reserved name constructor', { fields: { constructor: 'string' } }, /"constructor" is not a field name/],
    ['the reserved name prototype', { fields: { prototype: 'string' } }, /"prototype" is not a field name/],
    ['the reserved name __proto__', { fields: JSON.parse('{"__proto__": "string"}') }, /"__proto__" is not a field name/],
    ['a reserved element name', { fields: { lines: { type: 'array', of: { constructor: 'string' } } } }, /"lines\.constructor" is not a field name/],
    ["removed: ''", { fields: { memo: { type: 'string', removed: '' } } }, /"removed" of field "memo" must say where to filter instead/],
    ['removed: true', { fields: { memo: { type: 'string', removed: true } } }, /"removed" of field "memo"/],
    ["an element's removed: ''", { fields: { lines: { type: 'array', of: { memo: { type: 'string', removed: '' } } } } }, /"lines\.memo"/],
    ['a param that is also a field', { fields: { group: 'string' }, params: ['group'] }, /"group" is both a field and a request parameter/],
    ['a param under a field', { fields: { lines: { type: 'array', of: { a: 'string' } } }, params: ['lines.a'] }, /"lines\.a" is both a field/],
    ['params as a string', { fields: {}, params: 'limit' }, /"params" must be an array of parameter names, or an object/],
    ['params as a Set, which would declare nothing', { fields: {}, params: new Set(['businessName']) }, /"params" must be an array of parameter names, or an object/],
    ['params as a Map', { fields: {}, params: new Map([['from', 'date']]) }, /"params" must be an array of parameter names, or an object/],
    ['fields as a class\'s instance', { fields: new (class Fields { amount = 'number'; })() }, /"fields" must be an object of field specs/],
    ['a spec that is a class\'s instance', new (class Spec { fields = { amount: 'number' }; })(), /a schema spec must be a plain object with "fields"/],
    ['an empty param', { fields: {}, params: [''] }, /"" is not a parameter name/],
    ['a param that is not text', { fields: {}, params: [5] }, /5 is not a parameter name/],
    ['the param __proto__', { fields: {}, params: ['__proto__'] }, /"__proto__" is not a parameter name/],
    // A misspelt property would otherwise be ignored: a field meant to be removed would stay filterable.
    ['a misspelt removed', { fields: { memo: { type: 'string', remved: 'x' } } }, /field "memo" has the unknown property "remved"/],
    ['of on a scalar', { fields: { a: { type: 'string', of: { b: 'string' } } } }, /field "a" has the unknown property "of"/],
    ['of on a ref', { fields: { r: { type: 'ref', of: { name: 'string' } } } }, /field "r" has the unknown property "of"/],
    ['a misspelt params', { fields: {}, parms: ['limit'] }, /unknown property "parms"/],
    // Sorting (reference §9): scalars and ref ids only.
    ['a sortable array', { fields: { lines: { type: 'array', of: { a: 'number' }, sortable: true } } }, /"lines" cannot be sortable: a list/],
    ['a sortable field of an array', { fields: { lines: { type: 'array', of: { a: { type: 'number', sortable: true } } } } }, /"lines\.a" cannot be sortable: a field of a list/],
    ['sortable: "yes"', { fields: { a: { type: 'number', sortable: 'yes' } } }, /"sortable" of field "a" must be true or false/],
    ['a sort parameter that is a field', { fields: { orderBy: 'string' } }, /"orderBy" is both a field and a request parameter/],
    ['an empty sort parameter', { fields: {}, sortParam: '' }, /"sortParam" must be a parameter name/],
    ['a sort parameter that is a request parameter', { fields: {}, sortParam: 'sort', params: ['sort'] }, /"sort" is both the sort parameter and a request parameter/],
    // Typed request parameters.
    ['a param of an unknown type', { fields: {}, params: { startDate: 'datetime' } }, /parameter "startDate" has the unknown type "datetime"/],
    ['a param of type ref', { fields: {}, params: { customer: { type: 'ref' } } }, /parameter "customer" has the unknown type "ref"/],
    ['required: "yes"', { fields: {}, params: { a: { type: 'string', required: 'yes' } } }, /"required" of parameter "a" must be true or false/],
    ['a misspelt required', { fields: {}, params: { a: { type: 'string', requird: true } } }, /parameter "a" has the unknown property "requird"/],
    ['a typed param that is a field', { fields: { a: 'string' }, params: { a: 'string' } }, /"a" is both a field and a request parameter/],
    ['a param that is null', { fields: {}, params: { a: null } }, /parameter "a" must be a type name or an object/],
    // Paging.
    ['paging: true', { fields: {}, paging: true }, /"paging" must be an object/],
    ['a zero maxLimit', { fields: {}, paging: { maxLimit: 0 } }, /paging "maxLimit" must be a positive integer, not 0/],
    ['a fractional defaultLimit', { fields: {}, paging: { defaultLimit: 2.5 } }, /paging "defaultLimit" must be a positive integer, not 2.5/],
    ['a defaultLimit over maxLimit', { fields: {}, paging: { defaultLimit: 50, maxLimit: 20 } }, /"defaultLimit" \(50\) must not exceed "maxLimit" \(20\)/],
    ['a maxLimit under the default defaultLimit', { fields: {}, paging: { maxLimit: 10 } }, /paging the default "defaultLimit" \(100; set one up to 10\) must not exceed "maxLimit" \(10\)/],
    ['a misspelt paging option', { fields: {}, paging: { maxlimit: 20 } }, /"paging" has the unknown property "maxlimit"/],
    ['paging and a limit param', { fields: {}, paging: {}, params: ['limit'] }, /"limit" is a paging parameter/],
    ['paging and a field named offset', { fields: { offset: 'number' }, paging: {} }, /"offset" is both a field and a request parameter/],
  ])('%s', (_, value, message) => {
    expect(() => defineSchema(spec(value))).toThrow(TypeError);
    expect(() => defineSchema(spec(value))).toThrow(message);
  });

  it('every message starts with defineSchema and ends with a full stop', () => {
    expect(() => defineSchema(spec({ fields: { a: 'nmber' } }))).toThrow(/^defineSchema: .*\.$/);
  });
});

describe('defineSchema: sorting, paging and request parameters', () => {
  const schema = defineSchema({
    fields: {
      totalAmount: { type: 'number', sortable: true },
      memo: 'string',
      customerRef: { type: 'ref', sortable: true },
      old: { type: 'date', sortable: true, removed: 'Gone.' },
      lines: { type: 'array', of: { amount: 'number' } },
    },
    params: { businessName: 'string', startDate: { type: 'date', required: true } },
    paging: { maxLimit: 200 },
  });

  it('marks the sortable paths: a ref sorts by its id, a removed field never sorts', () => {
    const sortable = [...schema.fields.values()].filter((f) => f.sortable).map((f) => f.path);
    expect(sortable).toEqual(['totalAmount', 'customerRef.id']);
  });

  it('indexes the request parameters with their types; the list form is untyped and optional', () => {
    expect(Object.fromEntries(schema.requestParams)).toEqual({
      businessName: { name: 'businessName', type: 'string', required: false },
      startDate: { name: 'startDate', type: 'date', required: true },
    });
    expect(Object.fromEntries(defineSchema({ fields: {}, params: ['a'] }).requestParams)).toEqual({ a: { name: 'a', required: false } });
  });

  it('passes the request parameters and, with paging, limit and offset through', () => {
    expect([...schema.params]).toEqual(['businessName', 'startDate', 'limit', 'offset']);
    expect([...defineSchema({ fields: {} }).params]).toEqual([]);
  });

  it("fills paging's defaults: the API's 100 and 500", () => {
    expect(schema.paging).toEqual({ defaultLimit: 100, maxLimit: 200 });
    expect(defineSchema({ fields: {}, paging: {} }).paging).toEqual({ defaultLimit: 100, maxLimit: 500 });
    expect(defineSchema({ fields: {}, paging: { defaultLimit: 1000 } }).paging).toEqual({ defaultLimit: 1000, maxLimit: 1000 });
    expect(defineSchema({ fields: {} }).paging).toBeUndefined();
  });

  it('names the sort parameter orderBy unless told otherwise', () => {
    expect(schema.sortParam).toBe('orderBy');
    expect(defineSchema({ fields: {}, sortParam: 'sort' }).sortParam).toBe('sort');
  });
});

describe('the schema keeps its own copy of the spec', () => {
  it('is not changed by later changes to the object passed in', () => {
    const spec = { fields: { totalAmount: 'number' as string, lines: { type: 'array' as const, of: { amount: 'number' as string } } } };
    const schema = defineSchema(spec as never);
    spec.fields.totalAmount = 'string';
    spec.fields.lines.of.amount = 'date';
    expect(schema.fields.get('totalAmount')?.type).toBe('number');
    expect(Object.isFrozen(schema.spec)).toBe(true);
    const result = check('lines.amount=5&totalAmount=gt:1', schema);
    expect(result.ok).toBe(true);
  });
});

describe('defineSchema reads the spec once, as own properties', () => {
  it('checks what it indexes: a getter that answers a type, then another, cannot slip one past the checks', () => {
    let reads = 0;
    const fields = {
      get a() {
        reads++;
        return reads === 1 ? 'number' : 'bogus';
      },
    };
    const schema = defineSchema(spec({ fields }));
    expect(reads).toBe(1);
    expect(schema.fields.get('a')?.type).toBe('number');
    expect(schema.spec.fields).toEqual({ a: 'number' });
  });

  it('takes a Proxy of a spec (a reactive object of a UI framework) as the object it stands for', () => {
    const reactive = new Proxy({ fields: { amount: 'number' } }, {});
    expect(defineSchema(spec(reactive)).fields.get('amount')?.type).toBe('number');
  });

  it('finds nothing on Object.prototype: a polluted sortable, removed, required, cursor or paging is none of a spec\'s', () => {
    const proto = Object.prototype as Record<string, unknown>;
    const polluted = { sortable: 'yes', removed: '', required: 1, cursor: { key: 'b' } };
    Object.assign(proto, polluted);
    try {
      const schema = defineSchema(spec({ fields: { a: 'number', b: { type: 'string', sortable: true } }, params: { from: 'date' }, paging: {} }));
      expect(schema.fields.get('a')).toMatchObject({ type: 'number', sortable: false });
      expect(Object.hasOwn(schema.fields.get('a')!, 'removed')).toBe(false);
      expect(schema.requestParams.get('from')).toMatchObject({ required: false });
      expect(schema.params.has('after')).toBe(false);
      expect(schema.paging).toMatchObject({ defaultLimit: 100, maxLimit: 500 });
      expect(Object.hasOwn(schema.paging!, 'cursor')).toBe(false);
    } finally {
      for (const key of Object.keys(polluted)) delete proto[key];
    }
  });
});
