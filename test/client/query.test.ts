import { describe, expect, it } from 'vitest';
import { catalog, check, compile, defineSchema, deposits, invoices, literal, parse, query, type Query, type Schema } from '../../src/index';
import * as client from '../../src/client/index';

/** Checks a built query the way a server would, and returns its filter. */
function checked(q: Query, schema: Schema) {
  const result = check(q.toString(), schema);
  if (!result.ok) throw new Error(`${q.toString()}: ${JSON.stringify(result.errors)}`);
  return result.value;
}

describe('literal', () => {
  // The issue's examples: each once changed the meaning when sent through encodeComponent.
  it.each([
    ["O'Brien; Partners", "O'Brien\\; Partners"],
    ['100% Organic', '100\\% Organic'],
    ['C:\\temp', 'C:\\\\temp'],
    ['"quoted"', '\\"quoted"'],
    ['say "hi"', 'say "hi"'],
    ['gte:5', '"gte:5"'],
    ['lt:', '"lt:"'],
    ['gte', 'gte'],
    ['', '""'],
    [' padded ', ' padded '],
    ['a&b=c+d', 'a&b=c+d'],
    ['Zürich 😀', 'Zürich 😀'],
  ])('%j is the operand %j', (text, operand) => {
    expect(literal(text)).toBe(operand);
  });

  it('is an operand that matches exactly its text, after "=" and after an operator', () => {
    for (const text of ["O'Brien; Partners", '100% Organic', 'C:\\temp', '"quoted"', 'gte:5', '', 'a&b=c+d', '%;"\\']) {
      const eq = parse(`vendorName=${encodeURIComponent(literal(text))}`);
      expect(eq.ok && eq.value.filters[0]!.clauses[0]!.operand).toMatchObject({ type: 'Literal', value: text });
      const after = parse(`vendorName=gte:${encodeURIComponent(literal(text))}`);
      expect(after.ok && after.value.filters[0]!.clauses[0]).toMatchObject({ operator: 'gte', operand: { type: 'Literal', value: text } });
    }
  });

  it('throws a TypeError for what no query can carry, and for a non-string', () => {
    expect(() => literal('a\0b')).toThrow(new TypeError('literal: "a\\u0000b" holds a NUL character (U+0000), which no query can carry.'));
    expect(() => literal('a\uD800b')).toThrow(new TypeError('literal: "a\\ud800b" holds a lone surrogate, which no query can carry.'));
    expect(() => literal(42 as unknown as string)).toThrow(new TypeError('literal: expected a string, not the number 42.'));
  });
});

describe('query: the canonical query string', () => {
  it('writes reference §11 example in canonical form', () => {
    const vendorsLike = defineSchema({
      fields: {
        totalAmount: 'number',
        vendorName: 'string',
        customerRef: { type: 'ref' },
        issueDate: { type: 'date', sortable: true },
      },
      paging: {},
    });
    const q = query(vendorsLike)
      .where('totalAmount', 'gte', 100)
      .where('totalAmount', 'lte', 200)
      .where('vendorName', 'contains', 'acme & sons; "50%"')
      .where('customerRef.id', 'eq', 42)
      .orderBy('issueDate', 'desc')
      .limit(50);
    expect(q.toString()).toBe(
      'orderBy=-issueDate&limit=50&totalAmount=gte:100;lte:200&vendorName=%25acme%20%26%20sons%5C;%20%2250%5C%25%22%25&customerRef.id=42',
    );
    expect(`${q}`).toBe(q.toString());
  });

  it('puts every condition on one path into one parameter, in the order of the first', () => {
    const q = query(invoices)
      .where('lines.amount', 'gte', 10)
      .where('totalAmount', 'gt', 0)
      .where('lines.amount', 'lte', 20)
      .where('lines.description', 'startsWith', 'Consult');
    expect(q.toString()).toBe('lines.amount=gte:10;lte:20&totalAmount=gt:0&lines.description=Consult%25');
  });

  it('holds the clauses of one child-array path for the same element', () => {
    const q = query(invoices).where('lines.amount', 'gte', 10).where('lines.amount', 'lte', 20);
    const matches = compile(checked(q, invoices));
    expect(matches({ lines: [{ amount: 5 }, { amount: 25 }] })).toBe(false);
    expect(matches({ lines: [{ amount: 5 }, { amount: 15 }] })).toBe(true);
  });

  it('writes patterns with unescaped wildcards and escaped text', () => {
    const q = query(invoices)
      .where('invoiceNumber', 'contains', '50%')
      .where('status', 'startsWith', 'gte:')
      .where('customerRef.id', 'endsWith', ';x');
    expect(q.toString()).toBe('invoiceNumber=%2550%5C%25%25&status=%22gte:%25%22&customerRef.id=%25%5C;x');
    const f = checked(q, invoices);
    expect(f.conditions.map((c) => c.tests)).toEqual([
      [{ op: 'like', segments: ['', '50%', ''] }],
      [{ op: 'like', segments: ['gte:', ''] }],
      [{ op: 'like', segments: ['', ';x'] }],
    ]);
  });

  it('writes dates as the literal of their range: a day, or an instant in UTC', () => {
    const q = query(invoices)
      .where('postedDate', 'gte', '2023-01-09')
      .where('postedDate', 'lt', new Date('2023-02-01T10:30:00+01:00'))
      .where('dueDate', 'eq', '2023-03-01T12:00:00.123456+02:00');
    expect(q.toString()).toBe('postedDate=gte:2023-01-09;lt:2023-02-01T09:30:00.000Z&dueDate=2023-03-01T10:00:00.123Z');
  });

  it('writes numbers that read back as the same number', () => {
    const q = query(invoices).where('totalAmount', 'eq', 1e16).where('totalAmount', 'gte', -0).where('totalAmount', 'lte', 1.5e-7);
    expect(q.toString()).toBe('totalAmount=1e%2B16;gte:0;lte:1.5e-7');
    expect(checked(q, invoices).conditions[0]!.tests.map((t) => (t as { value: number }).value)).toEqual([1e16, 0, 1.5e-7]);
  });

  it('writes request parameters first, typed and in the order set; a second value replaces the first', () => {
    const q = query(invoices)
      .where('totalAmount', 'gt', 0)
      .param('businessName', 'Acme & Sons')
      .param('startDate', new Date('2023-01-01T00:00:00Z'))
      .param('serviceName', 'xero')
      .param('serviceName', 'quickbooks')
      .offset(100);
    expect(q.toString()).toBe('businessName=Acme%20%26%20Sons&startDate=2023-01-01T00:00:00.000Z&serviceName=quickbooks&offset=100&totalAmount=gt:0');
    expect(q.toFilter().page).toEqual({ limit: 100, offset: 100 });
  });

  it('is empty with no calls, and then matches everything', () => {
    const q = query(invoices);
    expect(q.toString()).toBe('');
    expect(q.toFilter()).toEqual({ type: 'Filter', conditions: [], params: {}, sort: [], page: { limit: 100, offset: 0 } });
    expect(checked(q, invoices)).toEqual(q.toFilter());
  });
});

describe('query: toFilter', () => {
  it('equals what check makes of toString, with sort, page and parameters', () => {
    const q = query(invoices)
      .where('customerRef.id', 'eq', 42)
      .where('totalAmount', 'gte', 100)
      .where('totalAmount', 'lte', 200)
      .where('lines.description', 'contains', 'fee')
      .where('postedDate', 'gte', '2023-01-01')
      .orderBy('postedDate', 'desc')
      .orderBy('totalAmount')
      .limit(25)
      .offset(50)
      .param('businessName', 'Acme');
    const filter = q.toFilter();
    expect(checked(q, invoices)).toEqual(filter);
    expect(filter.sort.map((s) => [s.key, s.direction])).toEqual([
      ['postedDate', 'desc'],
      ['totalAmount', 'asc'],
    ]);
    expect(filter.params).toEqual({ businessName: 'Acme', orderBy: '-postedDate,totalAmount', limit: '25', offset: '50' });
    expect(filter.page).toEqual({ limit: 25, offset: 50 });
  });

  it('has no page when the schema does not page', () => {
    const plain = defineSchema({ fields: { a: 'number' } });
    const q = query(plain).where('a', 'eq', 1);
    expect(q.toFilter()).toEqual({ type: 'Filter', conditions: [{ type: 'number', key: 'a', field: 'a', path: ['a'], tests: [{ op: 'eq', value: 1 }] }], params: {}, sort: [] });
    expect(checked(q, plain)).toEqual(q.toFilter());
  });

  it('gives a fresh filter each time: changing one changes neither the query nor the next', () => {
    const q = query(invoices).where('totalAmount', 'gt', 1).orderBy('totalAmount');
    const first = q.toFilter() as unknown as { conditions: { tests: unknown[] }[]; sort: unknown[]; params: Record<string, string> };
    first.conditions[0]!.tests.push({ op: 'eq', value: 5 });
    first.sort.pop();
    first.params.limit = '1';
    expect(q.toString()).toBe('orderBy=totalAmount&totalAmount=gt:1');
  });
});

describe('query: immutable', () => {
  it('returns a new query from every call and leaves the old one as it was', () => {
    const base = query(invoices).where('totalAmount', 'gt', 1);
    const a = base.where('totalAmount', 'lt', 5);
    const b = base.orderBy('totalAmount', 'desc').limit(3);
    expect(base.toString()).toBe('totalAmount=gt:1');
    expect(a.toString()).toBe('totalAmount=gt:1;lt:5');
    expect(b.toString()).toBe('orderBy=-totalAmount&limit=3&totalAmount=gt:1');
    expect(Object.isFrozen(base)).toBe(true);
  });
});

describe('query: a wrong call from plain JavaScript throws a TypeError that names the mistake', () => {
  // Each of these is refused by the types too (test/client/query.test-d.ts).
  const q = query(invoices) as unknown as Record<string, (...args: unknown[]) => unknown>;
  const d = query(deposits) as unknown as Record<string, (...args: unknown[]) => unknown>;
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  it.each<[string, () => unknown, string]>([
    ['an unknown path', () => q.where!('totalAmont', 'eq', 1), 'where("totalAmont", "eq", …): "totalAmont" is not a filterable path of this schema (filterable: id, invoiceNumber, customerRef.id, postedDate, dueDate, status, totalDiscount, discountPercentage, subTotal, taxAmount, totalAmount, amountDue, sourceModifiedDate, lines.id, lines.description, lines.amount).'],
    ['a bare ref', () => q.where!('customerRef', 'eq', 1), 'where("customerRef", "eq", …): "customerRef" is not a filterable path'],
    ['a removed field', () => d.where!('lines.memo', 'eq', 'x'), 'where("lines.memo", "eq", …): "lines.memo" can no longer be filtered. Since the 2023-01-09 release'],
    ['gt on a string', () => q.where!('status', 'gt', 'a'), 'where("status", "gt", …): "gt" does not work on the string field "status"; use eq, contains, startsWith or endsWith.'],
    ['gte on an id', () => q.where!('customerRef.id', 'gte', 'a'), 'where("customerRef.id", "gte", …): "gte" does not work on the id "customerRef.id"; use eq, contains, startsWith or endsWith.'],
    ['contains on a number', () => q.where!('totalAmount', 'contains', '1'), 'where("totalAmount", "contains", …): "contains" does not work on the number field "totalAmount"; use eq, gt, gte, lt or lte.'],
    ['startsWith on a date', () => q.where!('postedDate', 'startsWith', '2023'), '"startsWith" does not work on the date field "postedDate"'],
    ['an operator of the query string', () => q.where!('totalAmount', 'gte:', 1), '"gte:" is not an operator, on the number field "totalAmount"; use eq, gt, gte, lt or lte.'],
    ['a string where a number belongs', () => q.where!('totalAmount', 'gte', '100'), 'where("totalAmount", "gte", …): expected a finite number, not the string "100".'],
    ['NaN', () => q.where!('totalAmount', 'eq', NaN), 'expected a finite number, not the number NaN.'],
    ['Infinity', () => q.where!('totalAmount', 'lt', Infinity), 'expected a finite number, not the number Infinity.'],
    ['a number where text belongs', () => q.where!('status', 'eq', 5), 'where("status", "eq", …): expected a string, not the number 5.'],
    ['a number pattern on an id', () => q.where!('customerRef.id', 'contains', 4), 'expected a string, not the number 4.'],
    ['an unsafe integer id', () => q.where!('customerRef.id', 'eq', 2 ** 60), 'an id given as a number must be a safe integer, not the number 1152921504606847000; pass other ids as strings.'],
    ['a NUL in text', () => q.where!('status', 'eq', 'a\0'), 'holds a NUL character (U+0000), which no query can carry.'],
    ['a lone surrogate', () => q.where!('status', 'contains', '\uDC00'), 'holds a lone surrogate, which no query can carry.'],
    ['a date that is not one', () => q.where!('postedDate', 'eq', '2023-02-30'), 'where("postedDate", "eq", …): the string "2023-02-30" is not a date (no such day or time); write YYYY-MM-DD'],
    ['a date-time without offset', () => q.where!('postedDate', 'eq', '2023-01-09T10:00:00'), 'is not a date (a date-time needs a time zone offset)'],
    ['an invalid Date', () => q.where!('postedDate', 'eq', new Date('x')), 'expected a Date or an ISO date string, not an invalid Date.'],
    ['a Date past 9999', () => q.where!('postedDate', 'eq', new Date(Date.UTC(10000, 0, 1))), 'the Date +010000-01-01T00:00:00.000Z is outside the years 0000 to 9999.'],
    ['a timestamp for a date', () => q.where!('postedDate', 'eq', 1673222400000), 'expected a Date or an ISO date string, not the number 1673222400000.'],
    ['an unsortable field', () => q.orderBy!('lines.amount'), 'orderBy("lines.amount", "asc"): "lines.amount" is not sortable; sortable: id, invoiceNumber,'],
    ['an unknown sort field', () => q.orderBy!('nope'), 'orderBy("nope", "asc"): "nope" is not a field of this schema; sortable:'],
    ['a word direction', () => q.orderBy!('totalAmount', 'descending'), 'orderBy("totalAmount", "descending"): the direction is "asc" or "desc", not the string "descending".'],
    ['a second sort by one field', () => (q.orderBy!('totalAmount') as typeof q).orderBy!('totalAmount', 'desc'), 'orderBy("totalAmount", "desc"): the query already sorts by "totalAmount"; each field sorts once.'],
    ['a limit past maxLimit', () => q.limit!(501), 'limit(501): expected a whole number from 1 to 500, not the number 501.'],
    ['a limit of 0', () => q.limit!(0), 'limit(0): expected a whole number from 1 to 500, not the number 0.'],
    ['a fractional offset', () => q.offset!(1.5), 'offset(1.5): expected a whole number from 0 to 9007199254740991, not the number 1.5.'],
    ['a string limit', () => q.limit!('10'), 'limit("10"): expected a whole number from 1 to 500, not the string "10".'],
    // The call in the message never throws for what JSON cannot write.
    ['a BigInt path', () => q.where!(1n, 'eq', 1), 'where(the bigint 1n, "eq", …): the bigint 1n is not a filterable path of this schema'],
    ['a cyclic path', () => q.where!(cyclic, 'eq', 1), 'where(an object, "eq", …): an object is not a filterable path of this schema'],
    ['an object limit', () => q.limit!({}), 'limit(an object): expected a whole number from 1 to 500, not an object.'],
    ['paging a schema without paging', () => (query(defineSchema({ fields: { a: 'number' } })) as unknown as typeof q).limit!(5), 'limit: this schema does not page its results (it has no "paging").'],
    ['an undeclared parameter', () => q.param!('foo', 'x'), 'param("foo", …): "foo" is not a request parameter of this schema (declared: businessName, serviceName, connectionUuid, startDate, endDate).'],
    ['paging as a parameter', () => q.param!('limit', '5'), 'is not a request parameter of this schema (declared: businessName, serviceName, connectionUuid, startDate, endDate). Page with limit().'],
    ['sorting as a parameter', () => q.param!('orderBy', 'x'), '. Sort with orderBy().'],
    ['a mistyped date parameter', () => q.param!('startDate', '2023-13-01'), 'param("startDate", …): the string "2023-13-01" is not a date (no such day or time)'],
    ['a number for a string parameter', () => q.param!('businessName', 5), 'param("businessName", …): expected a string, not the number 5.'],
  ])('%s', (_, call, message) => {
    expect(call).toThrow(TypeError);
    expect(call).toThrow(message);
  });

  it('refuses what is not a schema', () => {
    expect(() => query({ fields: { a: 'number' } } as unknown as Schema)).toThrow(
      new TypeError('query: the schema must be a schema made by defineSchema(), not an object. This is a schema spec: pass defineSchema(spec) instead, and keep the schema to use it for every request.'),
    );
    expect(() => query(undefined as unknown as Schema)).toThrow(new TypeError('query: the schema must be a schema made by defineSchema(), not undefined.'));
    expect(() => query(catalog as unknown as Schema)).toThrow(
      new TypeError('query: the schema must be a schema made by defineSchema(), not an object. This holds schemas: pass one of them, such as its "balanceSheets".'),
    );
  });
});

describe('qsfilter/client', () => {
  it('exports the builder, literal, defineSchema and the catalog: the main entry\'s, Standard Schema face included', async () => {
    const main = await import('../../src/index');
    expect(client.query).toBe(main.query);
    expect(client.literal).toBe(main.literal);
    // One defineSchema and one catalog (standard/standard.ts): their validate loads the parser on first use.
    expect(client.defineSchema).toBe(main.defineSchema);
    expect(client.invoices).toBe(main.invoices);
    expect(client.invoices['~standard'].vendor).toBe('qsfilter');
    expect(Object.keys(client).sort()).toEqual(
      ['PATTERN_OPERATORS', 'WHERE_OPERATORS', 'defineSchema', 'literal', 'query', ...Object.keys(main.catalog), 'catalog', 'DEPOSIT_LINE_MEMO_REMOVED'].sort(),
    );
  });
});
