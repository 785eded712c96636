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
