import fc from 'fast-check';
import { catalog, defineSchema, type ElementFieldSpec, type FieldSpec, type FieldType, type Schema, type SchemaSpec } from '../../src/index';

/**
 * Generators shared by the property suites: random schemas of every field kind, and
 * queries that a schema accepts, written from reference §3–§4 (not from the implementation).
 */

// ---------------------------------------------------------------- random schemas

/** Reserved names, and the names of the sort and paging parameters, which a field cannot have. */
const RESERVED = new Set(['__proto__', 'constructor', 'prototype', 'orderBy', 'limit', 'offset']);

/** A field or parameter name of the path grammar, reserved names excluded. */
export const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,7}$/).filter((n) => !RESERVED.has(n));
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
/** A top-level scalar or ref, sometimes sortable (reference §9): child arrays never are. */
const sortable = fc.tuple(fc.oneof(scalar, ref), fc.boolean()).map(([spec, sorts]): FieldSpec => {
  if (!sorts) return spec;
  return typeof spec === 'string' ? { type: spec, sortable: true } : { ...spec, sortable: true };
});
const fieldSpec = fc.oneof({ weight: 7, arbitrary: sortable }, { weight: 2, arbitrary: array });

/** Request parameters: names passed through (the list form), or typed, some required. */
const paramType = fc.constantFrom('number', 'string', 'date' as const);
const paramSpec = fc.oneof(paramType, fc.record({ type: paramType, required: fc.boolean() }, { requiredKeys: ['type'] }));
/** Mostly names of the path grammar; sometimes a name the sort or paging parameters have when the schema does not use them. */
const paramName = fc.oneof({ weight: 6, arbitrary: name }, { weight: 1, arbitrary: fc.constantFrom('orderBy', 'limit', 'offset') });
const params = fc.oneof(fc.uniqueArray(paramName, { maxLength: 3 }), fc.dictionary(paramName, paramSpec, { maxKeys: 3 }));
/** Paging (reference §9): the defaults, or a page size of the schema's own. */
const paging = fc.oneof(
  fc.constant({}),
  fc.integer({ min: 1, max: 1000 }).chain((defaultLimit) => fc.integer({ min: defaultLimit, max: 2000 }).map((maxLimit) => ({ defaultLimit, maxLimit }))),
);

/**
 * Random well-formed schemas: every field kind, removed and sortable ones, request
 * parameters of both forms, sometimes paging and a sort parameter of another name.
 */
export const randomSchema: fc.Arbitrary<Schema> = fc
  .tuple(fc.dictionary(name, fieldSpec, { maxKeys: 8 }), params, fc.option(paging, { freq: 2 }), fc.option(name, { freq: 3 }))
  .map(([fields, declared, pages, sortParam]): SchemaSpec => {
    const sortBy = sortParam === null || Object.hasOwn(fields, sortParam) ? 'orderBy' : sortParam;
    const free = (p: string) => !Object.hasOwn(fields, p) && p !== sortBy && (pages === null || (p !== 'limit' && p !== 'offset'));
    return {
      fields,
      params: Array.isArray(declared) ? declared.filter(free) : Object.fromEntries(Object.entries(declared).filter(([p]) => free(p))),
      ...(pages === null ? {} : { paging: pages }),
      ...(sortBy === 'orderBy' ? {} : { sortParam: sortBy }),
    };
  })
  .map((spec) => defineSchema(spec));

export const anySchema = fc.oneof(fc.constantFrom<Schema>(...Object.values(catalog)), randomSchema);

// ---------------------------------------------------------------- valid queries, written from reference §3–§4

/** Text a filter may compare with: any Unicode but NUL, which the decoder refuses. */
export const text = (maxLength: number) => fc.string({ unit: 'binary', maxLength }).filter((s) => !s.includes('\0'));

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** reference §4 numbers; plain integers of at most 15 digits stay within 2^53, exponents of 2 digits stay finite. */
export const numberText = fc.stringMatching(/^-?(0|[1-9][0-9]{0,14})(\.[0-9]{1,6})?([eE][+-]?[0-9]{1,2})?$/);

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
/** Dates of reference §4; date-times avoid the years 0000 and 9999, where an offset can leave the range. */
export const dateText = fc.oneof(
  dayText,
  fc.constantFrom('2000-02-29', '2024-02-29', '1999-12-31', '0000-01-01', '9999-12-31'),
  fc.tuple(dayText.filter((d) => !d.startsWith('0000') && !d.startsWith('9999')), timeText).map(([d, t]) => d + t),
);

/** An operand matching `segments` with a wildcard between each two, quoted or bare, escaped per reference §3. */
export function operand(segments: readonly string[], quoted: boolean): string {
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

/**
 * The request parameters of a valid query (reference §9): every required one, and some of
 * the others, each once with a value of its type (text for the list form, which may
 * repeat); a page within the schema's paging; a sort by distinct sortable fields.
 */
export function requestParts(schema: Schema): fc.Arbitrary<string[]> {
  const part = (key: string, value: string) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`;
  const parts: fc.Arbitrary<string[]>[] = [];
  for (const param of schema.requestParams.values()) {
    const value = param.type === 'number' ? numberText : param.type === 'date' ? dateText : text(12);
    const values = param.type === undefined ? fc.array(value, { minLength: 1, maxLength: 2 }) : value.map((v) => [v]);
    const sent = values.map((vs) => vs.map((v) => part(param.name, v)));
    parts.push(param.required ? sent : fc.option(sent, { nil: [] }));
  }
  if (schema.paging !== undefined) {
    parts.push(fc.option(fc.integer({ min: 1, max: schema.paging.maxLimit }).map((n) => [part('limit', String(n))]), { nil: [] }));
    parts.push(fc.option(fc.nat().map((n) => [part('offset', String(n))]), { nil: [] }));
  }
  const sortable = [...schema.fields.values()].filter((f) => f.sortable).map((f) => f.path);
  if (sortable.length > 0) {
    const keys = fc.shuffledSubarray(sortable, { minLength: 1, maxLength: Math.min(3, sortable.length) }).chain((ks) => fc.tuple(...ks.map((k) => fc.constantFrom(k, `-${k}`))));
    parts.push(fc.option(keys.map((ks) => [part(schema.sortParam, ks.join(','))]), { nil: [] }));
  }
  return fc.tuple(...parts).map((lists) => lists.flat());
}

/** A query every part of which the schema accepts: filters on filterable fields, and its request parameters. */
export function validQuery(schema: Schema): fc.Arbitrary<string> {
  const fields = [...schema.fields.values()].filter((f) => f.removed === undefined);
  const filters =
    fields.length === 0
      ? fc.constant([])
      : fc.array(
          fc
            .constantFrom(...fields)
            .chain((f) => fc.array(CLAUSE[f.type], { minLength: 1, maxLength: 3 }).map((clauses) => `${f.path}=${encodeURIComponent(clauses.join(';'))}`)),
          { maxLength: 4 },
        );
  // The request parameters go anywhere among the filters: their place does not matter.
  return fc.tuple(filters, requestParts(schema)).chain(([fs, ps]) => fc.shuffledSubarray([...fs, ...ps], { minLength: fs.length + ps.length }).map((all) => all.join('&')));
}

