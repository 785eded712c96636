import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check, compile, defineSchema, generatedSource, type Field, type Filter, type Schema } from '../../src/index';
import { planFilter } from '../../src/eval/plan';
import { name, operand, randomSchema, text } from '../support/generators';

/**
 * reference §13 as properties of the generated source: it depends only on the filter's
 * shape, no operand ever appears in it, and no name reaches it that the name grammar
 * refuses. Filters are drawn as a structure (fields, operators, where the wildcards
 * are) filled twice with different values.
 */

const RUNS = 1000;

/** Marks every text operand: a character no template and no field name holds. */
const MARK = '☃';

/** A clause's structure: an operator for numbers and dates; for text, which segments between wildcards hold text. */
type ClauseShape = { readonly op: string } | { readonly segments: readonly boolean[]; readonly quoted: boolean };
interface ParamShape {
  readonly field: Field;
  readonly clauses: readonly ClauseShape[];
}

const comparison = fc.constantFrom('', 'gt:', 'gte:', 'lt:', 'lte:');
/** One segment is an equality; more are a pattern, with `%` between each two. */
const layout = fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }).map((s) => (s.length === 1 ? [true] : s));

function clauseShape(field: Field): fc.Arbitrary<ClauseShape> {
  if (field.type === 'number' || field.type === 'date') return comparison.map((op) => ({ op }));
  return fc.record({ segments: layout, quoted: fc.boolean() });
}

function structure(schema: Schema): fc.Arbitrary<ParamShape[]> {
  const fields = [...schema.fields.values()].filter((f) => f.removed === undefined);
  if (fields.length === 0) return fc.constant([]);
  const param = fc
    .constantFrom(...fields)
    .chain((field) => fc.array(clauseShape(field), { minLength: 1, maxLength: 3 }).map((clauses) => ({ field, clauses })));
  return fc.array(param, { minLength: 1, maxLength: 4 });
}

/** Numbers and dates that cannot occur in a template by chance: six integer digits, thirteen-digit instants. */
const numberValue = fc.tuple(fc.integer({ min: 100_000, max: 999_999 }), fc.integer({ min: 100, max: 999 })).map(([i, f]) => `${i}.${f}`);
const dateValue = fc
  .tuple(fc.integer({ min: 2002, max: 2099 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
  .map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
const textValue = text(6).map((t) => MARK + t);

/** Values for every clause of a structure, as many as it takes. */
function valuesFor(params: readonly ParamShape[]): fc.Arbitrary<string[][]> {
  return fc.tuple(
    ...params.map(({ field, clauses }) =>
      fc.tuple(
        ...clauses.map((clause): fc.Arbitrary<string> => {
          if ('op' in clause) return (field.type === 'number' ? numberValue : dateValue).map((v) => clause.op + v);
          return fc
            .tuple(...clause.segments.map((filled) => (filled ? textValue : fc.constant(''))))
            .map((segments) => operand(segments, clause.quoted));
        }),
      ),
    ),
  );
}

function render(params: readonly ParamShape[], values: readonly string[][]): string {
  return params.map(({ field }, i) => `${field.path}=${encodeURIComponent(values[i]!.join(';'))}`).join('&');
}

/** A value of each type for the schema's required request parameters, which code generation never looks at. */
const REQUIRED_VALUE = { number: '1', date: '2023-01-09', string: 'x' } as const;

function checked(query: string, schema: Schema): Filter {
  const required = [...schema.requestParams.values()].filter((p) => p.required).map((p) => `${encodeURIComponent(p.name)}=${REQUIRED_VALUE[p.type ?? 'string']}`);
  const result = check([query, ...required].join('&'), schema);
  if (!result.ok) throw new Error(`the generator wrote a query the spec refuses: ${query}\n${JSON.stringify(result.errors)}`);
  return result.value;
}

const scenario = randomSchema
  .filter((schema) => [...schema.fields.values()].some((f) => f.removed === undefined))
  .chain((schema) =>
    structure(schema).chain((params) =>
      fc.record({
        schema: fc.constant(schema),
        params: fc.constant(params),
        a: valuesFor(params),
        b: valuesFor(params),
        caseInsensitive: fc.boolean(),
      }),
    ),
  );

/** The string literals the templates themselves write. */
const TEMPLATE_STRINGS = new Set(['use strict', 'object', 'number', 'string']);

describe('generated code (reference §13)', () => {
  it('is the same for two filters of one shape, and holds none of their operands', () => {
    fc.assert(
      fc.property(scenario, ({ schema, params, a, b, caseInsensitive }) => {
        const first = checked(render(params, a), schema);
        const second = checked(render(params, b), schema);
        const source = generatedSource(first, { caseInsensitive });
        expect(generatedSource(second, { caseInsensitive })).toBe(source);
        expect(source).not.toContain(MARK);
        for (const value of [...a.flat(), ...b.flat()]) {
          const literal = value.replace(/^(gte?|lte?):/, '');
          if (!literal.includes(MARK)) expect(source).not.toContain(literal);
        }
        for (const condition of first.conditions) {
          if (condition.type === 'number') for (const test of condition.tests) expect(source).not.toContain(String(test.value));
          if (condition.type === 'date') for (const test of condition.tests) expect(source).not.toContain(String(test.value.start));
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('caches by a key that is equal exactly when the shapes are equal', () => {
    fc.assert(
      fc.property(scenario, scenario, fc.boolean(), (one, other, caseInsensitive) => {
        const a = planFilter(checked(render(one.params, one.a), one.schema), caseInsensitive);
        const b = planFilter(checked(render(one.params, one.b), one.schema), caseInsensitive);
        const c = planFilter(checked(render(other.params, other.a), other.schema), !caseInsensitive || other.caseInsensitive);
        expect(b.key).toBe(a.key);
        expect(c.key === a.key).toBe(JSON.stringify(c.shape) === JSON.stringify(a.shape));
      }),
      { numRuns: RUNS },
    );
  });

  it('quotes only checked field names: every string literal is a template word or a name of a path', () => {
    fc.assert(
      fc.property(scenario, ({ schema, params, a, caseInsensitive }) => {
        const filter = checked(render(params, a), schema);
        const names = new Set(filter.conditions.flatMap((c) => [...c.path, ...(c.array === undefined ? [] : [c.array])]));
        for (const [, literal] of generatedSource(filter, { caseInsensitive }).matchAll(/"((?:[^"\\]|\\.)*)"/g)) {
          expect(TEMPLATE_STRINGS.has(literal!) || names.has(literal!), literal).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('means what the closures mean, filter after filter of one shape (the cached factory binds each one its own values)', () => {
    let matched = 0;
    fc.assert(
      fc.property(scenario, ({ schema, params, a, b }) => {
        const filters = [checked(render(params, a), schema), checked(render(params, b), schema)];
        const generated = filters.map((f) => compile(f));
        const closures = filters.map((f) => compile(f, { codegen: false }));
        // Items made from both filters' own values, so that each matches somewhere.
        const items = filters.map((f) => itemMatching(f));
        for (let i = 0; i < 2; i++) {
          for (const item of items) {
            expect(generated[i]!(item)).toBe(closures[i]!(item));
            if (closures[i]!(item)) matched++;
          }
        }
      }),
      { numRuns: RUNS / 2 },
    );
    // Agreeing on "no match" everywhere would prove little.
    expect(matched).toBeGreaterThan(RUNS / 10);
  });
});

/** An item whose fields hold the filter's own values: texts and numbers as they are compared. */
function itemMatching(filter: Filter): unknown {
  const item: Record<string, unknown> = {};
  for (const c of filter.conditions) {
    let value: unknown;
    if (c.type === 'number') value = c.tests[0]!.value;
    else if (c.type === 'date') value = new Date(c.tests[0]!.value.start);
    else {
      const test = c.tests[0]!;
      value = test.op === 'like' ? test.segments.join('') : test.value;
    }
    const leaf = c.path.length === 1 ? value : { [c.path[1]!]: value };
    if (c.array === undefined) item[c.path[0]!] = leaf;
    else ((item[c.array] ??= []) as unknown[]).push({ [c.path[0]!]: leaf });
  }
  return item;
}

describe('names that are not names never reach a template', () => {
  /** Strings the name grammar refuses, or the reserved names. */
  const notName = fc.oneof(
    fc.string({ maxLength: 12 }).filter((s) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(s)),
    fc.constantFrom('__proto__', 'constructor', 'prototype', 'a"b', 'a\\', '"+alert(1)+"', 'x\u2028y', '0a', '', 'a.b', 'a b'),
  );

  it('defineSchema refuses them, as fields and as fields of array elements', () => {
    fc.assert(
      fc.property(notName, name, (bad, good) => {
        expect(() => defineSchema({ fields: { [bad]: 'number' } })).toThrow(TypeError);
        expect(() => defineSchema({ fields: { [good]: { type: 'array', of: { [bad]: 'string' } } } })).toThrow(TypeError);
      }),
      { numRuns: RUNS },
    );
  });

  it('compile and generatedSource refuse a hand-built filter holding one, in a path or as the array', () => {
    fc.assert(
      fc.property(notName, name, fc.nat(2), fc.boolean(), (bad, good, where, codegen) => {
        const path = where === 0 ? [bad] : where === 1 ? [good, bad] : [good];
        const condition = { type: 'string', key: 'k', field: 'k', path, tests: [{ op: 'eq', value: 'x' }], ...(where === 2 ? { array: bad } : {}) };
        const filter = { type: 'Filter', conditions: [condition], params: {} } as unknown as Filter;
        expect(() => compile(filter, { codegen })).toThrow(TypeError);
        expect(() => generatedSource(filter)).toThrow(/must be a field name \(reference §3\)/);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('own properties through proxies (issue 23, item 1)', () => {
  // The one meaning of "own" (reference §5): what Object.hasOwn says (a proxy's
  // getOwnPropertyDescriptor trap). `in` (a proxy's `has` trap) hides nothing.
  const schema = defineSchema({
    fields: {
      amount: 'number',
      name: 'string',
      issued: 'date',
      ref: { type: 'ref' },
      lines: { type: 'array', of: { amount: 'number', description: 'string' } },
    },
  });
  const QUERIES = ['amount=gte:100', 'name=acme', 'name=%25cm%25', 'issued=2023-01-09', 'ref.id=42', 'lines.amount=gte:100', 'lines.description=%25fee', 'amount=gte:100&lines.description=%25fee&ref.id=42'];
  const filters = QUERIES.map((q) => checked(q, schema));
  const evaluators = filters.map((f) => [compile(f), compile(f, { codegen: false })] as const);
  const ci = filters.map((f) => [compile(f, { caseInsensitive: true }), compile(f, { caseInsensitive: true, codegen: false })] as const);

  /** Values that match the queries above, by name: what an inventing `get` or `getOwnPropertyDescriptor` trap answers. */
  const MATCHING: Record<string, unknown> = { amount: 150, name: 'acme', issued: '2023-01-09', id: 42, description: 'Consulting fee' };
  const invented = (key: string | symbol): unknown => (typeof key === 'string' && Object.hasOwn(MATCHING, key) ? MATCHING[key] : undefined);

  /** How a proxy lies, trap by trap ('honest' forwards). */
  const lies = fc.record({
    has: fc.constantFrom('honest', 'false', 'true', 'throw'),
    descriptor: fc.constantFrom('honest', 'none', 'invent', 'throw'),
    get: fc.constantFrom('honest', 'invent', 'throw'),
    proto: fc.constantFrom('honest', 'null', 'object', 'array', 'throw'),
  });
  type Lies = typeof lies extends fc.Arbitrary<infer T> ? T : never;
  const PROTOTYPES = { null: null, object: Object.prototype, array: Array.prototype } as const;

  function lying(target: object, how: Lies): object {
    const fail = (): never => {
      throw new Error('trap');
    };
    return new Proxy(target, {
      has: (t, key) => (how.has === 'honest' ? Reflect.has(t, key) : how.has === 'throw' ? fail() : how.has === 'true'),
      getOwnPropertyDescriptor: (t, key) => {
        if (how.descriptor === 'throw') fail();
        if (how.descriptor === 'none') return undefined;
        if (how.descriptor === 'invent' && invented(key) !== undefined) return { value: invented(key), writable: true, enumerable: true, configurable: true };
        return Reflect.getOwnPropertyDescriptor(t, key);
      },
      get: (t, key, receiver) => (how.get === 'throw' ? fail() : how.get === 'invent' && invented(key) !== undefined ? invented(key) : Reflect.get(t, key, receiver)),
      getPrototypeOf: (t) => (how.proto === 'honest' ? Reflect.getPrototypeOf(t) : how.proto === 'throw' ? fail() : PROTOTYPES[how.proto]),
    });
  }

  /**
   * Items as descriptions (an object, and how its proxy lies, or null for none), built
   * into proxies inside the property: fast-check would probe the proxies if it held them.
   */
  interface Described {
    readonly target: Record<string, unknown> | unknown[];
    readonly how: Lies | null;
  }
  const described = <T extends Record<string, unknown> | unknown[]>(target: fc.Arbitrary<T>): fc.Arbitrary<Described> =>
    fc.record({ target, how: fc.option(lies, { freq: 2 }) });
  function build(value: unknown): unknown {
    if (typeof value !== 'object' || value === null || !('target' in value)) return value;
    const { target, how } = value as Described;
    const built = Array.isArray(target) ? target.map(build) : Object.fromEntries(Object.entries(target).map(([k, v]) => [k, build(v)]));
    return how === null ? built : lying(built, how);
  }
  const some = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined });
  const line = described(fc.record({ amount: some(fc.constantFrom(150, 50)), description: some(fc.constantFrom('Consulting fee', 'Travel')) }, { requiredKeys: [] }));
  const item = described(
    fc.record(
      {
        amount: fc.constantFrom(150, '150', 50),
        name: fc.constantFrom('acme', 'ACME', 'other'),
        issued: fc.constantFrom('2023-01-09', '2024-01-01'),
        ref: described(fc.record({ id: fc.constantFrom(42, '42', 7) })),
        lines: described(fc.array(line, { maxLength: 3 })),
      },
      { requiredKeys: [] },
    ),
  );

  it('a property hidden from `in` is still read, by generated code and closures alike (child-array elements too)', () => {
    const [amount] = evaluators[0]!;
    const hidden = new Proxy({ amount: 150 }, { has: () => false });
    expect(amount(hidden)).toBe(true);
    expect(compile(filters[0]!, { codegen: false })(hidden)).toBe(true);
    for (const [generated, closures] of [evaluators[5]!, evaluators[6]!]) {
      const lines = { lines: [new Proxy({ amount: 150, description: 'Consulting fee' }, { has: () => false })] };
      expect(generated(lines)).toBe(true);
      expect(closures(lines)).toBe(true);
    }
  });

  it('a property that is neither `in` the object nor its own is not read, whatever `get` would answer', () => {
    const [generated, closures] = evaluators[0]!;
    const nowhere = new Proxy({}, { has: () => false, getOwnPropertyDescriptor: () => undefined, get: () => 150 });
    expect(generated(nowhere)).toBe(false);
    expect(closures(nowhere)).toBe(false);
  });

  it('generated code and closures agree on items whose objects are proxies with lying traps', () => {
    let matched = 0;
    fc.assert(
      fc.property(item, fc.nat(filters.length - 1), fc.boolean(), (description, which, folded) => {
        const [generated, closures] = (folded ? ci : evaluators)[which]!;
        const data = build(description);
        const result = closures(data);
        expect(generated(data)).toBe(result);
        if (result) matched++;
      }),
      { numRuns: RUNS * 3 },
    );
    expect(matched).toBeGreaterThan(RUNS / 10);
  });
});
