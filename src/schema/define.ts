import { RESERVED_NAMES } from '../syntax/parse';

/** The scalar field types of SPEC §4. */
export const SCALAR_TYPES = ['number', 'string', 'date'] as const;
/** A scalar field type. */
export type ScalarType = (typeof SCALAR_TYPES)[number];

/** Marks a field that can no longer be filtered; the text says where to filter instead. */
export interface Removable {
  readonly removed?: string;
}

/** A scalar field: `'number'`, or `{ type: 'number' }` to mark it removed. */
export type ScalarSpec = ScalarType | ({ readonly type: ScalarType } & Removable);
/** An object with an `id`, filterable only as `field.id` (compared as a string). */
export type RefSpec = { readonly type: 'ref' } & Removable;
/** A field of the objects of a child array: a scalar or a ref (arrays do not nest). */
export type ElementFieldSpec = ScalarSpec | RefSpec;
/** A child array, filterable as `array.field`. */
export type ArraySpec = { readonly type: 'array'; readonly of: Readonly<Record<string, ElementFieldSpec>> } & Removable;
/** Any field of a resource. */
export type FieldSpec = ScalarSpec | RefSpec | ArraySpec;

/** What `defineSchema` takes: the filterable fields, and the plain request parameters. */
export interface SchemaSpec {
  readonly fields: Readonly<Record<string, FieldSpec>>;
  /** Request parameters passed through untouched (`businessName`, `limit`…). */
  readonly params?: readonly string[];
}

/** The type of a filterable path: ref ids are their own type, compared as strings. */
export type FieldType = ScalarType | 'id';

/** One filterable path of a schema. */
export interface Field {
  /** The dotted path as written in a query: `lines.amount`. */
  readonly path: string;
  readonly type: FieldType;
  /** The child array the field belongs to (`lines`), if any. */
  readonly array?: string;
  /** Property names to read, from the item, or from each element of `array`. */
  readonly names: readonly string[];
  /** Set when the field can no longer be filtered: where to filter instead. */
  readonly removed?: string;
}

/**
 * A checked schema. `S` keeps the spec's literal type, from which `InferFields` and
 * `FieldPath` infer the field types. `S` appears only as the type of `spec`, so a
 * `Schema<S>` of any spec is a `Schema`: what `check` and `validate` take.
 */
export interface Schema<S extends SchemaSpec = SchemaSpec> {
  readonly spec: S;
  /** Every path a query may name, removed ones included, by dotted path. */
  readonly fields: ReadonlyMap<string, Field>;
  readonly params: ReadonlySet<string>;
}

type FieldEntries<F, Prefix extends string> = {
  [K in keyof F & string]: FieldEntry<F[K], `${Prefix}${K}`>;
}[keyof F & string];

type FieldEntry<T, P extends string> = T extends { readonly removed: string }
  ? never
  : T extends ScalarType
    ? [P, T]
    : T extends { readonly type: 'ref' }
      ? [`${P}.id`, 'id']
      : T extends { readonly type: 'array'; readonly of: infer Of }
        ? FieldEntries<Of, `${P}.`>
        : T extends { readonly type: infer S extends ScalarType }
          ? [P, S]
          : never;

/**
 * The filterable paths of a schema spec and their types, removed fields left out:
 * `{ totalAmount: 'number'; 'customerRef.id': 'id'; 'lines.description': 'string' }`.
 */
export type InferFields<S extends SchemaSpec> = {
  [E in FieldEntries<S['fields'], ''> as E[0]]: E[1];
};

/** The filterable paths of a schema (or schema spec). */
export type FieldPath<S> = keyof InferFields<S extends Schema<infer T> ? T : S extends SchemaSpec ? S : never> & string;

/** The TypeScript type of the values a field compares with. */
export interface FieldValueTypes {
  number: number;
  string: string;
  date: string | Date;
  id: string | number;
}

/**
 * Checks a schema spec and indexes its filterable paths. A malformed spec is a
 * programmer error: it throws a `TypeError` that says what is wrong.
 */
export function defineSchema<const S extends SchemaSpec>(spec: S): Schema<S> {
  if (typeof spec !== 'object' || spec === null) fail('a schema spec must be an object with "fields"');
  if (spec.fields instanceof Map) fail('this is already a schema: use it as it is');
  onlyKnown(spec, SPEC_KEYS, 'a schema spec');
  if (typeof spec.fields !== 'object' || spec.fields === null || Array.isArray(spec.fields)) {
    fail('"fields" must be an object of field specs');
  }
  const fields = new Map<string, Field>();
  for (const [name, field] of Object.entries(spec.fields)) addField(fields, name, field, undefined);
  const params = new Set<string>();
  if (spec.params !== undefined) {
    if (!Array.isArray(spec.params)) fail('"params" must be an array of parameter names');
    for (const param of spec.params) {
      if (typeof param !== 'string' || param === '' || param === '__proto__') fail(`${JSON.stringify(param)} is not a parameter name`);
      const top = param.split('.')[0]!;
      if (Object.hasOwn(spec.fields, top)) fail(`"${param}" is both a field and a pass-through parameter`);
      params.add(param);
    }
  }
  // The schema keeps its own frozen copy: the index and the spec must never disagree,
  // whatever the caller later does with the object it passed.
  return Object.freeze({ spec: deepFreeze(structuredClone(spec)), fields, params }) as Schema<S>;
}

function addField(fields: Map<string, Field>, name: string, spec: unknown, array: { name: string; removed?: string } | undefined): void {
  const where = array === undefined ? name : `${array.name}.${name}`;
  if (!NAME.test(name) || RESERVED_NAMES.has(name)) fail(`"${where}" is not a field name (letters, digits and "_", not starting with a digit)`);
  const normalized = typeof spec === 'string' ? { type: spec } : spec;
  if (typeof normalized !== 'object' || normalized === null) fail(`field "${where}" must be a type name or an object with "type"`);
  const { type, removed: ownRemoved, of } = normalized as { type?: unknown; removed?: unknown; of?: unknown };
  if (ownRemoved !== undefined && (typeof ownRemoved !== 'string' || ownRemoved === '')) {
    fail(`"removed" of field "${where}" must say where to filter instead`);
  }
  onlyKnown(normalized, type === 'array' ? ARRAY_KEYS : FIELD_KEYS, `field "${where}"`);
  const removed = (ownRemoved as string | undefined) ?? array?.removed;
  const base = {
    ...(array === undefined ? {} : { array: array.name }),
    ...(removed === undefined ? {} : { removed }),
  };
  if (type === 'ref') {
    fields.set(`${where}.id`, { path: `${where}.id`, type: 'id', names: [name, 'id'], ...base });
  } else if (type === 'array') {
    if (array !== undefined) fail(`field "${where}": arrays do not nest`);
    if (typeof of !== 'object' || of === null || Array.isArray(of) || Object.keys(of).length === 0) {
      fail(`array "${where}" needs "of", an object of its elements' fields`);
    }
    for (const [child, childSpec] of Object.entries(of)) {
      addField(fields, child, childSpec, { name, ...(removed === undefined ? {} : { removed }) });
    }
  } else if ((SCALAR_TYPES as readonly unknown[]).includes(type)) {
    fields.set(where, { path: where, type: type as ScalarType, names: [name], ...base });
  } else {
    fail(`field "${where}" has the unknown type ${JSON.stringify(type)} (expected number, string, date, ref or array)`);
  }
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SPEC_KEYS = ['fields', 'params'];
const FIELD_KEYS = ['type', 'removed'];
const ARRAY_KEYS = ['type', 'of', 'removed'];

/**
 * A misspelt property would be ignored without a word: `remved: '…'` would leave a
 * field filterable that was meant to be removed. Refuse what is not known instead.
 */
function onlyKnown(object: object, known: readonly string[], what: string): void {
  for (const key of Object.keys(object)) if (!known.includes(key)) fail(`${what} has the unknown property ${JSON.stringify(key)}`);
}

function fail(message: string): never {
  throw new TypeError(`defineSchema: ${message}.`);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
