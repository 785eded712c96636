import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { catalog, check, compile, format, type Field, type Filter, type Schema } from '../../src/index';
import { dateText, numberText, operand, randomSchema, requestParts } from '../support/generators';
import { referenceMatches } from '../support/reference';

/**
 * reference §5 as a property: for random schemas, awkward data and valid queries, the
 * compiled predicate and the reference evaluator of test/support agree on every item.
 * Query literals and data are drawn from small shared pools, so that equalities,
 * interval edges and pattern matches happen often rather than by luck.
 */

/** A multiple of 3: some properties run a third of it, and fast-check never ends a run count that is not whole. */
const RUNS = 1800;

// ---------------------------------------------------------------- shared pools

/** Letters that fold in every interesting way: ASCII case, Σ/σ/ς, İ/i, ß, and the characters LIKE treats specially. */
const LETTERS = ['a', 'A', 'b', 'B', 'Σ', 'σ', 'ς', 'İ', 'i', 'ß', 'é', 'É', '%', '_', '\\', ';', '"', ' ', '😀'];
const word = fc.array(fc.constantFrom(...LETTERS), { maxLength: 5 }).map((cs) => cs.join(''));
/** Texts the data holds, and that queries take whole or in pieces, so that matches are common. */
const WORDS = ['acme', 'Acme', 'ACME', 'ΣΑΣ', 'ΣΑΣΟΣ', 'σας', 'σασ', 'İstanbul', 'istanbul', 'a%b', 'a_b', 'aXb', 'a\\b', 'straße', 'STRASSE', 'Café', 'CAFÉ', 'x;y', '"q"', '😀a', ''];
const PIECES = [...new Set(WORDS.flatMap((w) => { const cs = [...w]; return cs.flatMap((_, i) => [cs.slice(0, i + 1).join(''), cs.slice(i).join(''), cs.slice(i, i + 2).join('')]); }))];
const piece = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...WORDS, ...PIECES) }, { weight: 1, arbitrary: word });
const dataText = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...WORDS) }, { weight: 1, arbitrary: word });

const NUMBER_TEXTS = ['0', '-0', '1', '5', '10', '10.5', '1e1', '100', '-2.5', '200.00', '1e3', '9007199254740992'];
const numberLiteral = fc.oneof(fc.constantFrom(...NUMBER_TEXTS), numberText);

const DAYS = ['2023-01-08', '2023-01-09', '2023-01-10', '2024-02-29', '1999-12-31'];
const DATE_TIMES = [
  '2023-01-09T00:00:00Z',
  '2023-01-08T23:59:59.999Z',
  '2023-01-09T23:59:59.999Z',
  '2023-01-10T00:00:00.000Z',
  '2023-01-09T10:00:00+01:00',
  '2023-01-09T09:00:00Z',
  '2023-01-09T10:00:00.123456789-05:30',
];
const dateLiteral = fc.oneof(fc.constantFrom(...DAYS, ...DATE_TIMES), dateText);

// ---------------------------------------------------------------- queries the schema accepts

const comparison = fc.constantFrom('', 'gt:', 'gte:', 'lt:', 'lte:');

/** Literal segments between wildcards: equality, contains, starts with, ends with, and anything. */
const segments = fc.oneof(
  fc.constantFrom(...WORDS).map((w) => [w]),
  piece.map((p) => ['', p, '']),
  piece.map((p) => [p, '']),
  piece.map((p) => ['', p]),
  fc.array(piece, { minLength: 1, maxLength: 4 }),
);
const textClause = fc
  .tuple(segments, fc.boolean())
  .map(([segments, quoted]) => operand(segments, quoted));

function clause(field: Field): fc.Arbitrary<string> {
  switch (field.type) {
    case 'number':
      return fc.tuple(comparison, numberLiteral).map(([op, n]) => op + n);
    case 'date':
      return fc.tuple(comparison, dateLiteral).map(([op, d]) => op + d);
    case 'id':
      return fc.oneof({ weight: 1, arbitrary: textClause }, { weight: 2, arbitrary: fc.constantFrom('42', '7', '-1', '4%', '%2', '%') });
    case 'string':
      return textClause;
  }
}

function queryFor(schema: Schema): fc.Arbitrary<string> {
  const fields = [...schema.fields.values()].filter((f) => f.removed === undefined);
  if (fields.length === 0) return requestParts(schema).map((ps) => ps.join('&'));
  const param = fc
    .constantFrom(...fields)
    .chain((f) => fc.array(clause(f), { minLength: 1, maxLength: 3 }).map((cs) => `${f.path}=${encodeURIComponent(cs.join(';'))}`));
  // Mostly one parameter: every parameter must hold, and matches should stay common.
  return fc
    .tuple(
      fc.oneof({ weight: 3, arbitrary: param.map((p) => [p]) }, { weight: 1, arbitrary: fc.array(param, { minLength: 2, maxLength: 3 }) }),
      requestParts(schema),
    )
    .map(([ps, request]) => [...ps, ...request].join('&'));
}

// ---------------------------------------------------------------- awkward data

const ANYTHING_WRONG = fc.constantFrom<unknown>(null, true, {}, [], 'x', Symbol.for('s'));

const numberValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...NUMBER_TEXTS).map(Number),
  fc.constantFrom(...NUMBER_TEXTS),
  fc.constantFrom(' 5', '05', '+5', '.5', '5.', 'Infinity', 'NaN', '1e400', '0x10', ''),
  fc.constantFrom(NaN, Infinity, -Infinity, -0, 5e-324, Number.MAX_VALUE),
  fc.double(),
  numberText,
  ANYTHING_WRONG,
);

const dateValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...DAYS, ...DATE_TIMES),
  fc.constantFrom(...DAYS, ...DATE_TIMES).map((d) => new Date(d)),
  fc.constantFrom('2023-02-30', '2023-01-09T10:00', '2023-01-09T24:00Z', '2023-1-9', 'yesterday', '9999-12-31T23:00:00-05:00'),
  fc.constant(new Date(NaN)),
  fc.integer({ min: 1_600_000_000_000, max: 1_700_000_000_000 }).map((ms) => new Date(ms)),
  dateText,
  fc.constant(1673222400000),
  ANYTHING_WRONG,
);

const textValue: fc.Arbitrary<unknown> = fc.oneof({ weight: 6, arbitrary: dataText }, { weight: 1, arbitrary: ANYTHING_WRONG }, { weight: 1, arbitrary: fc.integer() });

const idValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 1, arbitrary: dataText },
  { weight: 4, arbitrary: fc.constantFrom(42, 7, -1, 4, 2, 42.5, 2 ** 53, 1e21, '42', '7', '4', '2', '-1') },
  { weight: 1, arbitrary: ANYTHING_WRONG },
);

const VALUES: Record<Field['type'], fc.Arbitrary<unknown>> = { number: numberValue, date: dateValue, string: textValue, id: idValue };

/** An object holding values at the given paths, some missing, some inherited, some under an own __proto__. */
function objectAt(fields: readonly Field[]): fc.Arbitrary<unknown> {
  const entries = fields.map((f) => fc.tuple(fc.constant(f), fc.option(VALUES[f.type], { freq: 4 }), fc.nat(9)));
  return fc.tuple(...entries).map((values) => {
    const own: Record<string, unknown> = {};
    const inherited: Record<string, unknown> = {};
    for (const [field, value, how] of values) {
      if (value === null) continue;
      const [first, second] = field.names;
      const leaf = second === undefined ? value : how === 8 ? JSON.parse(`{"__proto__": {"${second}": 1}}`) : { [second]: value };
      // Mostly own properties; sometimes the value is only inherited, which never counts.
      (how === 9 ? inherited : own)[first!] = leaf;
    }
    return Object.keys(inherited).length === 0 ? own : Object.assign(Object.create(inherited) as object, own);
  });
}

function itemFor(schema: Schema): fc.Arbitrary<unknown> {
  const fields = [...schema.fields.values()];
  const direct = fields.filter((f) => f.array === undefined);
  const arrays = [...new Set(fields.flatMap((f) => (f.array === undefined ? [] : [f.array])))];
  const element = (array: string) => objectAt(fields.filter((f) => f.array === array));
  const list = (array: string) =>
    fc.oneof(
      { weight: 6, arbitrary: fc.array(element(array), { maxLength: 4 }) },
      // An array with a hole: the hole is no element at all.
      { weight: 1, arbitrary: fc.array(element(array), { minLength: 1, maxLength: 3 }).map((es) => { const a = [...es]; delete a[0]; return a; }) },
      { weight: 1, arbitrary: fc.oneof(element(array), ANYTHING_WRONG) },
    );
  return fc.tuple(objectAt(direct), fc.tuple(...arrays.map((a) => fc.option(list(a), { freq: 5 })))).map(([item, lists]) => {
    if (item === null || typeof item !== 'object') return item;
    arrays.forEach((a, i) => {
      if (lists[i] !== null) (item as Record<string, unknown>)[a] = lists[i];
    });
    return item;
  });
}

const schemas = fc.oneof(fc.constantFrom<Schema>(...Object.values(catalog)), randomSchema);

const scenario = schemas.chain((schema) =>
  fc.record({
    schema: fc.constant(schema),
    query: queryFor(schema),
    items: fc.array(itemFor(schema), { minLength: 1, maxLength: 20 }),
    caseInsensitive: fc.boolean(),
  }),
);

// ---------------------------------------------------------------- the properties

function checked(query: string, schema: Schema): Filter {
  const result = check(query, schema);
  if (!result.ok) throw new Error(`the generator wrote a query the spec refuses: ${query}\n${JSON.stringify(result.errors)}`);
  return result.value;
}

describe('compile agrees with the reference evaluator (reference §5)', () => {
  it('on every item, for random schemas, awkward data and valid queries', () => {
    let matched = 0;
    let compared = 0;
    const matchesByType: Record<string, number> = { number: 0, date: 0, string: 0, id: 0 };
    fc.assert(
      fc.property(scenario, ({ schema, query, items, caseInsensitive }) => {
        const filter = checked(query, schema);
        // Both evaluators, the generated code and the closures, against the reference.
        const generated = compile(filter, { caseInsensitive });
        const closures = compile(filter, { caseInsensitive, codegen: false });
        for (const item of items) {
          const expected = referenceMatches(filter, item, caseInsensitive);
          expect(generated(item), `${query} on ${describeItem(item)}`).toBe(expected);
          expect(closures(item), `${query} on ${describeItem(item)} (closures)`).toBe(expected);
          compared++;
          if (expected) matched++;
          if (expected) for (const c of filter.conditions) matchesByType[c.type]!++;
        }
      }),
      { numRuns: RUNS },
    );
    // The pools are there to make matches common: a suite where nothing matches proves little.
    expect(matched / compared).toBeGreaterThan(0.05);
    // Each type matched now and then: over 1,800 runs strings match 20 to 50 times, the others more.
    for (const count of Object.values(matchesByType)) expect(count).toBeGreaterThan(5);
  });

  it('after a round trip through format: the printed filter means the same', () => {
    fc.assert(
      fc.property(scenario, ({ schema, query, items, caseInsensitive }) => {
        const filter = checked(query, schema);
        const again = checked(format(filter), schema);
        const a = compile(filter, { caseInsensitive });
        const b = compile(again, { caseInsensitive, codegen: false });
        for (const item of items) expect(b(item)).toBe(a(item));
      }),
      { numRuns: RUNS / 3 },
    );
  });

  // check's caseInsensitive (reference §10) is carried by the filter: compile with it means
  // what compile with the option means, for both evaluators, item by item; the option
  // still wins when given.
  it('with the filter\'s own caseInsensitive: what the option means', () => {
    fc.assert(
      fc.property(scenario, fc.boolean(), ({ schema, query, items, caseInsensitive }, codegen) => {
        const carried = check(query, schema, { caseInsensitive });
        if (!carried.ok) throw new Error(`refused: ${query}`);
        const plain = checked(query, schema);
        const expected = compile(plain, { caseInsensitive, codegen });
        const followed = compile(carried.value, { codegen });
        const overruled = compile({ ...carried.value, caseInsensitive: !caseInsensitive }, { caseInsensitive, codegen });
        for (const item of items) {
          expect(followed(item), `${query} on ${describeItem(item)}`).toBe(expected(item));
          expect(overruled(item), `${query} on ${describeItem(item)} (overruled)`).toBe(expected(item));
        }
      }),
      { numRuns: RUNS / 3 },
    );
  });

  it('never throws, whatever the item', () => {
    const anything = fc.anything({ withBoxedValues: true, withMap: true, withSet: true, withTypedArray: true, withDate: true, withNullPrototype: true });
    fc.assert(
      fc.property(
        schemas.chain((schema) => fc.tuple(fc.constant(schema), queryFor(schema))),
        anything,
        // The nasties by index, made inside the property: fast-check would probe the proxies if it held them.
        fc.option(fc.nat(NASTIES - 1)),
        fc.boolean(),
        fc.boolean(),
        ([schema, query], generated, nasty, ci, codegen) => {
          const predicate = compile(checked(query, schema), { caseInsensitive: ci, codegen });
          const item = nasty === null ? generated : nasties()[nasty];
          expect(typeof predicate(item)).toBe('boolean');
        },
      ),
      { numRuns: RUNS },
    );
  });
});

const NASTIES = 18;

/** Items built to make a careless evaluator throw. */
function nasties(): unknown[] {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  cyclic.lines = [cyclic];
  cyclic.customerRef = cyclic;
  const getterThrows = Object.defineProperty({}, 'totalAmount', { enumerable: true, get: () => { throw new Error('getter'); } });
  const trapThrows = new Proxy({}, { get: () => { throw new Error('get'); }, has: () => { throw new Error('has'); }, getOwnPropertyDescriptor: () => { throw new Error('gopd'); } });
  const listTrapThrows = { lines: new Proxy([], { get: () => { throw new Error('get'); } }) };
  return [null, undefined, 0, NaN, '', 'text', true, Symbol('s'), 10n, () => 1, [], [1, 2], cyclic, getterThrows, trapThrows, listTrapThrows, new Date(NaN), Object.create(null)];
}

function describeItem(item: unknown): string {
  try {
    return JSON.stringify(item, (_k, v: unknown) => (typeof v === 'bigint' || typeof v === 'symbol' ? String(v) : v));
  } catch {
    return String(item);
  }
}
