import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  catalog,
  check,
  defineSchema,
  DIAGNOSTIC_CODES,
  format,
  formatDiagnostics,
  generatedSource,
  parse,
  sortItems,
  toProblemDetails,
  toSql,
  toSqlTemplate,
  validate,
  type Diagnostic,
  type Filter,
  type QueryInput,
  type Result,
  type Schema,
} from '../../src/index';
import { expectFilter, expectSort } from '../../src/filter/guard';
import { quote } from '../../src/text/quote';

import { anySchema, name, randomSchema, validQuery } from '../support/generators';
import { BUILDS, type Package } from '../support/builds';
import * as source from '../../src/index';

/** The package the suite is on: the sources, then the built package (its `describe.each` below). */
let current: Package = source;

const schemaAndValidQuery = randomSchema.chain((schema) => validQuery(schema).map((query) => ({ schema, query })));
const catalogAndValidQuery = fc
  .constantFrom(...Object.values(catalog))
  .chain((schema: Schema) => validQuery(schema).map((query) => ({ schema, query })));

// ---------------------------------------------------------------- invariants

/** reference §6 and §4: what every result of check must look like, accepted or not. */
function expectWellFormed(result: Result<Filter>, schema: Schema): void {
  if (!result.ok) {
    expect(result.errors.length).toBeGreaterThan(0);
    for (const d of result.errors) {
      expect(DIAGNOSTIC_CODES).toContain(d.code);
      expect(d.message.length).toBeGreaterThan(0);
      // The message names the parameter (quoted as quote() does, and cut when long), unless it has no name.
      if (d.param) expect(d.message).toContain(quote(d.param).slice(0, 20));
      if (d.span !== undefined) {
        expect(d.text).toBeDefined();
        expect(0 <= d.span.start && d.span.start <= d.span.end && d.span.end <= d.text!.length).toBe(true);
      }
    }
    expect(typeof formatDiagnostics(result.errors)).toBe('string');
    expect(toProblemDetails(result.errors).errors).toHaveLength(result.errors.length);
    return;
  }
  for (const condition of result.value.conditions) {
    const field = schema.fields.get(condition.field);
    expect(field).toBeDefined();
    expect(field!.removed).toBeUndefined();
    expect(condition.type).toBe(field!.type);
    expect(condition.tests.length).toBeGreaterThan(0);
    for (const test of condition.tests) {
      if (condition.type === 'string' || condition.type === 'id') expect(['eq', 'like']).toContain(test.op);
      else expect(['eq', 'gt', 'gte', 'lt', 'lte']).toContain(test.op);
    }
  }
}

/** A query's filter survives format → check unchanged. */
function expectRoundTrip(filter: Filter, schema: Schema): void {
  expect(current.check(current.format(filter), schema)).toEqual({ ok: true, value: filter });
}

/**
 * check is parse (knowing the schema's params and sort parameter) then validate; when parsing fails, check
 * reports the same syntax problems, in the same order, with the type problems of the
 * parameters that did parse among them. validate alone handles params parse did not know.
 */
function expectValidateAgrees(input: QueryInput, schema: Schema, result: Result<Filter>): void {
  const parsed = current.parse(input, { params: schema.params, sortParam: schema.sortParam });
  if (parsed.ok) {
    expect(current.validate(parsed.value, schema)).toEqual(result);
  } else {
    expect(result.ok).toBe(false);
    // A sort hint's example names the schema's own fields in check, the API's in parse, which knows no schema.
    const same = (d: Diagnostic) => (d.code === 'INVALID_SORT' ? { ...d, hint: undefined } : d);
    if (!result.ok) expect(result.errors.map(same).filter((e) => parsed.errors.some((p) => isDeepStrictEqual(same(p), e)))).toEqual(parsed.errors.map(same));
  }
  const unaware = current.parse(input);
  if (unaware.ok && result.ok) expect(current.validate(unaware.value, schema)).toEqual(result);
}

// ---------------------------------------------------------------- properties

// On the sources in full, and on the built package (ES module, CommonJS) with a tenth of
// the runs: what ships is what is tested, within the unit tests' minute.
describe.each(BUILDS)('on %s', (build, pkg) => {
  const SCALE = build === 'src' ? 1 : 0.1;
  beforeAll(() => {
    current = pkg;
  });

  describe('check on valid queries', () => {
    it('accepts every query written from the spec for a random schema, and the filter round-trips', () => {
      fc.assert(
        fc.property(schemaAndValidQuery, ({ schema, query }) => {
          const result = current.check(query, schema);
          if (!result.ok) expect.fail(`${query} was refused: ${formatDiagnostics(result.errors)}`);
          expectWellFormed(result, schema);
          expectRoundTrip(result.value, schema);
          expectValidateAgrees(query, schema, result);
        }),
        { numRuns: Math.round(600 * SCALE) },
      );
    });

    it('does the same for the catalog', () => {
      fc.assert(
        fc.property(catalogAndValidQuery, ({ schema, query }) => {
          const result = current.check(query, schema);
          if (!result.ok) expect.fail(`${query} was refused: ${formatDiagnostics(result.errors)}`);
          expectRoundTrip(result.value, schema);
          expectValidateAgrees(query, schema, result);
        }),
        { numRuns: Math.round(400 * SCALE) },
      );
    });
  });

  // What check makes, every consumer takes (reference §10): the one checker of hand-built
  // filters, expectFilter, refuses nothing check can make, with or without caseInsensitive,
  // and the back ends follow the filter's caseInsensitive as they follow their option.
  describe('a filter check makes', () => {
    it('passes the checks of hand-built filters, and every back end follows its caseInsensitive', () => {
      const target = { document: 'doc' };
      fc.assert(
        fc.property(
          fc.oneof(schemaAndValidQuery, anySchema.chain((schema) => nearQuery(schema).map((query) => ({ schema, query })))),
          fc.option(fc.boolean()),
          ({ schema, query }, caseInsensitive) => {
            const result = current.check(query, schema, caseInsensitive === null ? undefined : { caseInsensitive });
            if (!result.ok) return;
            const filter = result.value;
            expect(() => expectFilter('f', filter)).not.toThrow();
            expect(() => expectSort('f', filter.sort)).not.toThrow();
            // Checking does not depend on case: the same query checked without the option.
            const unset = current.check(query, schema);
            if (!unset.ok) throw new Error(`refused without caseInsensitive: ${query}`);
            const plain = unset.value;
            expect(current.format(filter)).toBe(current.format(plain));
            const option = { caseInsensitive: caseInsensitive ?? false };
            expect(generatedSource(filter)).toBe(generatedSource(plain, option));
            expect(toSql(filter, target, { tieBreaker: 'id' })).toEqual(toSql(plain, target, { ...option, tieBreaker: 'id' }));
            expect(toSqlTemplate(filter, target)).toEqual(toSqlTemplate(plain, target, option));
            expect(sortItems([], filter)).toEqual([]);
          },
        ),
        { numRuns: Math.round(1000 * SCALE) },
      );
    });
  });

  // Queries near the language: real and misspelt paths, operators in every case,
  // numbers, dates, quotes, escapes and wildcards, encoded and not.
  const FRAGMENTS = [
    'gt:', 'gte:', 'lt:', 'lte:', 'GTE:', 'eq:', ';', ';;', '%25', '%', '"', '\\', '\\%25', '\\%3B', '%3B', '+', '%2B', '%20',
    '1', '0', '05', '-2.5', '1e3', '1e400', '9007199254740993', '.5', '|', ',',
    '2023-01-09', '2023-02-29', 'T10:00', 'T10:00:00', ':00', '.123456789', 'Z', '%2B01:00', '+01:00', '-05:30',
    'abc', 'acme', '%E6%97%A5', '%C3%A9', '%C3', '%FF', '%00', '%E2%80%AE',
  ];
  function nearQuery(schema: Schema): fc.Arbitrary<string> {
    const paths = [...schema.fields.keys(), ...schema.params];
    const keys = fc.oneof(
      ...(paths.length > 0 ? [{ weight: 6, arbitrary: fc.constantFrom(...paths) }] : []),
      ...(paths.length > 0 ? [{ weight: 1, arbitrary: fc.constantFrom(...paths).map((p) => p.split('.')[0]!) }] : []),
      ...(paths.length > 0 ? [{ weight: 1, arbitrary: fc.constantFrom(...paths).map((p) => `${p}.id`) }] : []),
      { weight: 1, arbitrary: name },
      { weight: 1, arbitrary: fc.constantFrom('or', 'a..b', '', 'constructor', 'x%5By%5D') },
    );
    const value = fc.array(fc.constantFrom(...FRAGMENTS), { minLength: 0, maxLength: 5 }).map((fs) => fs.join(''));
    return fc
      .array(fc.tuple(keys, value, fc.boolean()), { maxLength: 5 })
      .map((ps) => ps.map(([k, v, eq]) => (eq || v !== '' ? `${k}=${v}` : k)).join('&'));
  }

  describe('check on queries near the language', () => {
    it('never throws, reports well-formed diagnostics, and every accepted filter round-trips', () => {
      let accepted = 0;
      let total = 0;
      fc.assert(
        fc.property(anySchema.chain((schema) => nearQuery(schema).map((query) => ({ schema, query }))), ({ schema, query }) => {
          const result = current.check(query, schema);
          total++;
          expectWellFormed(result, schema);
          expectValidateAgrees(query, schema, result);
          if (result.ok) {
            accepted++;
            expectRoundTrip(result.value, schema);
          }
        }),
        // A sort parameter sent with no value, whose hint check writes from the schema (seed -766487377).
        { numRuns: Math.round(1500 * SCALE), examples: [[{ schema: defineSchema({ fields: { a: { type: 'number', sortable: true } }, sortParam: '_' }), query: '_' }]] },
      );
      // Both sides are exercised: neither nearly everything refused nor nearly everything accepted.
      expect(accepted / total).toBeGreaterThan(0.1);
      expect(accepted / total).toBeLessThan(0.9);
    });
  });

  // ---------------------------------------------------------------- hostile input

  const anyChar = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)); // lone surrogates included
  const percentSoup = fc
    .array(fc.constantFrom('%', '%2', '%25', '%C3', '%A9', '%E6%97', '%F0%9F%98', '%FF', '%00', '%ED%A0%80', '+', '&', '=', ';', '.', '"', '\\', 'a', '?', '#'), {
      maxLength: 30,
    })
    .map((parts) => parts.join(''));
  const recordValue = fc.oneof(
    fc.string({ unit: anyChar, maxLength: 12 }),
    fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }),
    fc.constantFrom<unknown>(undefined, null, 5, true, { b: '1' }, ['a', 5], [], new Date(0)),
  );
  const hostileInput: fc.Arbitrary<unknown> = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 60 }),
    fc.string({ unit: anyChar, maxLength: 60 }),
    percentSoup,
    percentSoup.map((q) => `https://h.example/p?${q}`),
    fc.dictionary(fc.string({ unit: anyChar, maxLength: 8 }), recordValue, { maxKeys: 6 }),
    fc.array(fc.tuple(fc.string({ maxLength: 8 }), fc.string({ unit: anyChar, maxLength: 8 })), { maxLength: 5 }).map((pairs) => new URLSearchParams(pairs)),
    percentSoup.map((q) => new URL(`https://h.example/?${q}`)),
    fc.constantFrom<unknown>(null, undefined, 42, [], ['a=1'], Symbol('q'), () => 'a=1', Object.create(null)),
    // What a Standard Schema validator may be handed: objects whose looks throw (a revoked
    // proxy, which fast-check itself cannot hold, is in test/input), and records of another realm.
    fc.constantFrom<unknown>(new Proxy({}, { getPrototypeOf: () => { throw new Error('no'); } }), new Proxy({ a: '1' }, { get: () => { throw new Error('no'); } })),
    fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 4 }).map((record) => runInNewContext('Object.assign({}, record)', { record }) as unknown),
  );

  describe('check on hostile input', () => {
    it('never throws, for every catalog schema and random schemas, and reports well-formed diagnostics', () => {
      fc.assert(
        fc.property(hostileInput, anySchema, (input, schema) => {
          const result = current.check(input as QueryInput, schema);
          expectWellFormed(result, schema);
          if (result.ok) expectRoundTrip(result.value, schema);
        }),
        { numRuns: Math.round(3000 * SCALE) },
      );
    });
  });
});
