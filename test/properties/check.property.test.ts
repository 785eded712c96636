import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  catalog,
  check,
  defineSchema,
  DIAGNOSTIC_CODES,
  format,
  formatDiagnostics,
  parse,
  toProblemDetails,
  validate,
  type ElementFieldSpec,
  type FieldSpec,
  type FieldType,
  type Filter,
  type QueryInput,
  type Result,
  type Schema,
  type SchemaSpec,
} from '../../src/index';
import { quote } from '../../src/diagnostics/diagnostic';

// ---------------------------------------------------------------- random schemas

const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,7}$/).filter((n) => !RESERVED.has(n));
const scalarType = fc.constantFrom('number', 'string', 'date' as const);
const removed = fc.constantFrom('Filter on note instead.', 'Gone since 2023-01-09.');
const scalar: fc.Arbitrary<ElementFieldSpec> = fc.oneof(
  { weight: 4, arbitrary: scalarType },
  { weight: 2, arbitrary: scalarType.map((type) => ({ type })) },
  { weight: 1, arbitrary: fc.tuple(scalarType, removed).map(([type, why]) => ({ type, removed: why })) },
);
const ref: fc.Arbitrary<ElementFieldSpec> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ type: 'ref' as const }) },
  { weight: 1, arbitrary: removed.map((why) => ({ type: 'ref' as const, removed: why })) },
);
const element = fc.oneof({ weight: 4, arbitrary: scalar }, { weight: 1, arbitrary: ref });
const array: fc.Arbitrary<FieldSpec> = fc
  .tuple(fc.dictionary(name, element, { minKeys: 1, maxKeys: 4 }), fc.option(removed, { freq: 5 }))
  .map(([of, why]): FieldSpec => (why === null ? { type: 'array', of } : { type: 'array', of, removed: why }));
const fieldSpec = fc.oneof({ weight: 6, arbitrary: scalar }, { weight: 1, arbitrary: ref }, { weight: 2, arbitrary: array });

/** Random well-formed schemas: every field kind, removed ones, and params that are not fields. */
const randomSchema: fc.Arbitrary<Schema> = fc
  .tuple(fc.dictionary(name, fieldSpec, { maxKeys: 8 }), fc.uniqueArray(name, { maxLength: 3 }))
  .map(([fields, params]): SchemaSpec => ({
    fields,
    params: params.filter((p) => !Object.hasOwn(fields, p)),
  }))
  .map((spec) => defineSchema(spec));

const anySchema = fc.oneof(fc.constantFrom<Schema>(...Object.values(catalog)), randomSchema);

// ---------------------------------------------------------------- valid queries, written from SPEC §3–§4

/** Text a filter may compare with: any Unicode but NUL, which the decoder refuses. */
const text = (maxLength: number) => fc.string({ unit: 'binary', maxLength }).filter((s) => !s.includes('\0'));

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** SPEC §4 numbers; plain integers of at most 15 digits stay within 2^53, exponents of 2 digits stay finite. */
const numberText = fc.stringMatching(/^-?(0|[1-9][0-9]{0,14})(\.[0-9]{1,6})?([eE][+-]?[0-9]{1,2})?$/);

const dayText = fc
  .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
  .map(([y, m, d]) => `${pad(y, 4)}-${pad(m)}-${pad(d)}`);
const zone = fc.oneof(
  fc.constant('Z'),
  fc
    .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
    .map(([sign, h, m]) => `${sign}${pad(h)}:${pad(m)}`),
);
const timeText = fc
  .tuple(
    fc.integer({ min: 0, max: 23 }),
    fc.integer({ min: 0, max: 59 }),
    fc.option(fc.tuple(fc.integer({ min: 0, max: 59 }), fc.option(fc.stringMatching(/^[0-9]{1,9}$/)))),
    zone,
  )
  .map(([h, m, s, z]) => `T${pad(h)}:${pad(m)}${s === null ? '' : `:${pad(s[0])}${s[1] === null ? '' : `.${s[1]}`}`}${z}`);
/** Dates of SPEC §4; date-times avoid the years 0000 and 9999, where an offset can leave the range. */
const dateText = fc.oneof(
  dayText,
  fc.constantFrom('2000-02-29', '2024-02-29', '1999-12-31', '0000-01-01', '9999-12-31'),
  fc.tuple(dayText.filter((d) => !d.startsWith('0000') && !d.startsWith('9999')), timeText).map(([d, t]) => d + t),
);

/** An operand matching `segments` with a wildcard between each two, quoted or bare, escaped per SPEC §3. */
function operand(segments: readonly string[], quoted: boolean): string {
  const needsQuotes = quoted || (segments.length === 1 && segments[0] === '') || /^(gte?|lte?):/.test(segments[0]!);
  if (needsQuotes) return `"${segments.map((s) => s.replace(/[\\"%]/g, '\\$&')).join('%')}"`;
  const bare = segments.map((s) => s.replace(/[\\%;]/g, '\\$&')).join('%');
  return bare.startsWith('"') ? `\\${bare}` : bare;
}
const textOperand = fc.tuple(fc.array(text(8), { minLength: 1, maxLength: 3 }), fc.boolean()).map(([s, q]) => operand(s, q));

const comparison = fc.constantFrom('', 'gt:', 'gte:', 'lt:', 'lte:');
const CLAUSE: Record<FieldType, fc.Arbitrary<string>> = {
  number: fc.tuple(comparison, numberText).map(([op, n]) => op + n),
  date: fc.tuple(comparison, dateText).map(([op, d]) => op + d),
  string: textOperand,
  id: textOperand,
};

/** A query every part of which the schema accepts: filters on filterable fields, and its params. */
function validQuery(schema: Schema): fc.Arbitrary<string> {
  const fields = [...schema.fields.values()].filter((f) => f.removed === undefined);
  const parts: fc.Arbitrary<string>[] = [];
  if (fields.length > 0) {
    parts.push(
      fc
        .constantFrom(...fields)
        .chain((f) => fc.array(CLAUSE[f.type], { minLength: 1, maxLength: 3 }).map((clauses) => `${f.path}=${encodeURIComponent(clauses.join(';'))}`)),
    );
  }
  if (schema.params.size > 0) {
    parts.push(fc.tuple(fc.constantFrom(...schema.params), text(12)).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`));
  }
  if (parts.length === 0) return fc.constant('');
  return fc.array(fc.oneof(...parts), { maxLength: 5 }).map((ps) => ps.join('&'));
}

const schemaAndValidQuery = randomSchema.chain((schema) => validQuery(schema).map((query) => ({ schema, query })));
const catalogAndValidQuery = fc
  .constantFrom(...Object.values(catalog))
  .chain((schema: Schema) => validQuery(schema).map((query) => ({ schema, query })));

// ---------------------------------------------------------------- invariants

/** SPEC §6 and §4: what every result of check must look like, accepted or not. */
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
  expect(check(format(filter), schema)).toEqual({ ok: true, value: filter });
}

/**
 * check is parse (knowing the schema's params) then validate; when parsing fails, check
 * reports the same syntax problems, in the same order, with the type problems of the
 * parameters that did parse among them. validate alone handles params parse did not know.
 */
function expectValidateAgrees(input: QueryInput, schema: Schema, result: Result<Filter>): void {
  const parsed = parse(input, { params: schema.params });
  if (parsed.ok) {
    expect(validate(parsed.value, schema)).toEqual(result);
  } else {
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.filter((e) => parsed.errors.some((p) => isDeepStrictEqual(p, e)))).toEqual(parsed.errors);
  }
  const unaware = parse(input);
  if (unaware.ok && result.ok) expect(validate(unaware.value, schema)).toEqual(result);
}

// ---------------------------------------------------------------- properties

describe('check on valid queries', () => {
  it('accepts every query written from the spec for a random schema, and the filter round-trips', () => {
    fc.assert(
      fc.property(schemaAndValidQuery, ({ schema, query }) => {
        const result = check(query, schema);
        if (!result.ok) expect.fail(`${query} was refused: ${formatDiagnostics(result.errors)}`);
        expectWellFormed(result, schema);
        expectRoundTrip(result.value, schema);
        expectValidateAgrees(query, schema, result);
      }),
      { numRuns: 600 },
    );
  });

  it('does the same for the catalog', () => {
    fc.assert(
      fc.property(catalogAndValidQuery, ({ schema, query }) => {
        const result = check(query, schema);
        if (!result.ok) expect.fail(`${query} was refused: ${formatDiagnostics(result.errors)}`);
        expectRoundTrip(result.value, schema);
        expectValidateAgrees(query, schema, result);
      }),
      { numRuns: 400 },
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
        const result = check(query, schema);
        total++;
        expectWellFormed(result, schema);
        expectValidateAgrees(query, schema, result);
        if (result.ok) {
          accepted++;
          expectRoundTrip(result.value, schema);
        }
      }),
      { numRuns: 1500 },
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
);

describe('check on hostile input', () => {
  it('never throws, for every catalog schema and random schemas, and reports well-formed diagnostics', () => {
    fc.assert(
      fc.property(hostileInput, anySchema, (input, schema) => {
        const result = check(input as QueryInput, schema);
        expectWellFormed(result, schema);
        if (result.ok) expectRoundTrip(result.value, schema);
      }),
      { numRuns: 3000 },
    );
  });
});
