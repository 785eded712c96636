import { DEFAULT_SORT_PARAM, isFieldName, isParamName } from '../values/name';

/** The scalar field types of reference §4. */
export const SCALAR_TYPES = ['number', 'string', 'date'] as const;
/** A scalar field type. */
export type ScalarType = (typeof SCALAR_TYPES)[number];

/** Marks a field that can no longer be filtered; the text says where to filter instead. */
export interface Removable {
  readonly removed?: string;
}

/** Marks a field that `orderBy` may sort by (reference §9): scalars and ref ids, never child-array fields. */
export interface Sortable {
  readonly sortable?: boolean;
}

/** A scalar field: `'number'`, or `{ type: 'number', sortable: true }` to sort by it or `removed: '…'` to retire it. */
export type ScalarSpec = ScalarType | ({ readonly type: ScalarType } & Removable & Sortable);
/** An object with an `id`, filterable (and, when `sortable`, sortable) only as `field.id`, compared as a string. */
export type RefSpec = { readonly type: 'ref' } & Removable & Sortable;
/**
 * A field of the objects of a child array: a scalar or a ref (arrays do not nest). It is
 * never sortable: which element would an item be sorted by?
 */
export type ElementFieldSpec =
  | ScalarType
  | ({ readonly type: ScalarType | 'ref'; readonly sortable?: never } & Removable);
/** A child array, filterable as `array.field`. */
export type ArraySpec = { readonly type: 'array'; readonly of: Readonly<Record<string, ElementFieldSpec>>; readonly sortable?: never } & Removable;
/** Any field of a resource. */
export type FieldSpec = ScalarSpec | RefSpec | ArraySpec;

/** The types a request parameter may be declared with: the scalar types, read as plain values. */
export type ParamType = ScalarType;

/**
 * A request parameter (reference §9): its type, and whether a request must send it. Its value
 * is plain: no operators, no wildcards, one value (a repeated typed parameter is
 * refused). `'date'` is shorthand for `{ type: 'date' }`.
 */
export type ParamSpec = ParamType | { readonly type: ParamType; readonly required?: boolean };

/** Paging (reference §9): `limit` and `offset` become typed parameters, and the filter carries the page. */
export interface PagingSpec {
  /** The page size when `limit` is not sent; 100 by default (the API's). */
  readonly defaultLimit?: number;
  /** The largest `limit` a request may ask for; 500 by default (the API's). */
  readonly maxLimit?: number;
  /**
   * Cursor (keyset) paging (reference §9): `key` names a unique, sortable scalar field
   * (`'id'`, or a ref's `'customerRef.id'`). It adds the request parameter `after`, and
   * every sort then ends with `key` ascending, so that the order is total.
   */
  readonly cursor?: { readonly key: string };
}

/** What `defineSchema` takes: the filterable fields, the request parameters, paging and sorting. */
export interface SchemaSpec {
  readonly fields: Readonly<Record<string, FieldSpec>>;
  /**
   * Request parameters, which are not filters: names passed through untouched (the
   * older list form, e.g. `['businessName']`), or names with a type and `required`
   * (`{ startDate: { type: 'date', required: true } }`), checked and passed through.
   */
  readonly params?: readonly string[] | Readonly<Record<string, ParamSpec>>;
  /** Paging with `limit` and `offset`; without it, those names are nothing special. */
  readonly paging?: PagingSpec;
  /** The name of the sort parameter; `orderBy` by default. */
  readonly sortParam?: string;
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
  /** Whether `orderBy` may sort by it. */
  readonly sortable: boolean;
}

/** A declared request parameter. */
export interface RequestParam {
  readonly name: string;
  /** Absent for a parameter of the list form, which is passed through unchecked and may repeat. */
  readonly type?: ParamType;
  readonly required: boolean;
}

/** The paging of a schema, defaults filled in. */
export interface Paging {
  readonly defaultLimit: number;
  readonly maxLimit: number;
  /** Set with cursor paging: the unique sortable field that ends every sort, and the code that pages by it. */
  readonly cursor?: CursorPaging;
}

/**
 * Cursor paging of a schema (reference §9): its key, and the code that reads and checks
 * cursors (`CursorCodec`, `filter/cursor.ts`), which `defineSchema` gives the schema. The
 * schema carries it, rather than `check` and the client importing it, so that only an
 * app whose schemas page by cursor bundles it: a browser pre-check with a catalog schema
 * does not pay for it (test/client/bundle.test.ts). Typed `object` here: schemas sit
 * below the Filter types the codec is written in.
 */
export interface CursorPaging {
  readonly key: string;
  readonly codec: object;
}

/** The names of the paging parameters (reference §9); `after` too with cursor paging (`CURSOR_PARAM`). */
export const PAGING_PARAMS = ['limit', 'offset'] as const;

/** The request parameter that holds a cursor, with cursor paging (reference §9). */
export const CURSOR_PARAM = 'after';

/**
 * The longest `after` token read (reference §7): longer ones are `INVALID_CURSOR` before
 * any decoding. A cursor holds one value per sort key; 4 KiB leaves room for long text keys.
 */
export const MAX_CURSOR_LENGTH = 4096;

/**
 * A checked schema. `S` keeps the spec's literal type, from which `InferFields` and
 * `FieldPath` infer the field types. `S` appears only as the type of `spec`, so a
 * `Schema<S>` of any spec is a `Schema`: what `check` and `validate` take.
 */
export interface Schema<S extends SchemaSpec = SchemaSpec> {
  readonly spec: S;
  /** Every path a query may name, removed ones included, by dotted path. */
  readonly fields: ReadonlyMap<string, Field>;
  /** Every key that is not a filter: the request parameters, and `limit` and `offset` with paging. */
  readonly params: ReadonlySet<string>;
  /** The declared request parameters, by name (paging and sorting not included). */
  readonly requestParams: ReadonlyMap<string, RequestParam>;
  /** Set when the schema pages its results. */
  readonly paging?: Paging;
  /** The name of the sort parameter. */
  readonly sortParam: string;
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

type SortEntries<F> = {
  [K in keyof F & string]: F[K] extends { readonly removed: string }
    ? never
    : F[K] extends { readonly type: 'ref'; readonly sortable: true }
      ? [`${K}.id`, 'id']
      : F[K] extends { readonly type: infer T extends ScalarType; readonly sortable: true }
        ? [K, T]
        : never;
}[keyof F & string];

/** The sortable paths of a schema spec and their types: `{ totalAmount: 'number'; 'customerRef.id': 'id' }`. */
export type InferSortable<S extends SchemaSpec> = {
  [E in SortEntries<S['fields']> as E[0]]: E[1];
};

/** The sortable paths of a schema (or schema spec). */
export type SortPath<S> = keyof InferSortable<S extends Schema<infer T> ? T : S extends SchemaSpec ? S : never> & string;

/**
 * The declared request parameters of a schema spec and their types; a parameter of the
 * list form is `'string'`: `{ businessName: 'string'; startDate: 'date' }`.
 */
export type InferParams<S extends SchemaSpec> = S['params'] extends readonly (infer N extends string)[]
  ? { [K in N]: 'string' }
  : S['params'] extends Readonly<Record<string, ParamSpec>>
    ? { [K in keyof S['params'] & string]: S['params'][K] extends { readonly type: infer T extends ParamType } ? T : S['params'][K] }
    : {};

/** The TypeScript type of the values a field compares with. */
export interface FieldValueTypes {
  number: number;
  string: string;
  date: string | Date;
  id: string | number;
}

/**
 * Indexes a schema spec, known to be well-formed (`checkSpec`): its filterable paths, its
 * request parameters, its paging and its sort parameter. `defineSchema` (`standard/`)
 * checks the spec first and adds the Standard Schema face. The catalog's schemas are
 * built with it alone, so that an app that imports one bundles neither
 * the checks nor their messages (docs/client.md); `test/schema/catalog.test.ts`
 * holds each of them equal to what `defineSchema` makes of its spec.
 */
export function indexSpec<const S extends SchemaSpec>(given: S): Schema<S> {
  const spec = ownCopy(given);
  const fields = new Map<string, Field>();
  for (const [name, field] of Object.entries(spec.fields)) indexField(fields, name, field, undefined);
  const requestParams = new Map<string, RequestParam>();
  if (Array.isArray(spec.params)) for (const name of spec.params as readonly string[]) requestParams.set(name, { name, required: false });
  else {
    for (const [name, param] of Object.entries(spec.params ?? {})) {
      const { type, required = false } = typeof param === 'string' ? { type: param, required: false } : param;
      requestParams.set(name, { name, type, required });
    }
  }
  const params = new Set(requestParams.keys());
  if (spec.paging !== undefined) for (const name of PAGING_PARAMS) params.add(name);
  // The schema keeps the copy it was indexed from, frozen: the index and the spec never
  // disagree, whatever the caller later does with the object it passed, and its objects
  // have no prototype, so that a key added to Object.prototype (`cursor`) is none of its.
  const schema = { spec: deepFreeze(spec), fields, params, requestParams, sortParam: spec.sortParam ?? DEFAULT_SORT_PARAM };
  return Object.freeze(spec.paging === undefined ? schema : { ...schema, paging: pagingOf(spec.paging) });
}


/**
 * Indexes one field of a spec. Each Field is made without a prototype (`ownCopy`), as is
 * the spec it is read from: their optional properties (`removed`, `array`, `sortable`)
 * are tested, and one added to Object.prototype must not read as set.
 */
function indexField(fields: Map<string, Field>, name: string, spec: FieldSpec | ElementFieldSpec, array: { name: string; removed: string | undefined } | undefined): void {
  const where = array === undefined ? name : `${array.name}.${name}`;
  const normalized: { type: string; removed?: string; sortable?: boolean; of?: ArraySpec['of'] } = typeof spec === 'string' ? ownCopy({ type: spec }) : spec;
  const { type } = normalized;
  const removed = normalized.removed ?? array?.removed;
  const base = {
    ...(array === undefined ? {} : { array: array.name }),
    ...(removed === undefined ? {} : { removed }),
    sortable: normalized.sortable === true && removed === undefined,
  };
  if (type === 'ref') {
    fields.set(`${where}.id`, ownCopy<Field>({ path: `${where}.id`, type: 'id', names: [name, 'id'], ...base }));
  } else if (type === 'array') {
    for (const [child, childSpec] of Object.entries(normalized.of!)) {
      indexField(fields, child, childSpec, { name, removed });
    }
  } else {
    fields.set(where, ownCopy<Field>({ path: where, type: type as ScalarType, names: [name], ...base }));
  }
}

/** The fields a schema sorts by, in the spec's order (reference §9). */
export function sortableFields(schema: Schema): Field[] {
  return [...schema.fields.values()].filter((f) => f.sortable);
}

/**
 * Paging with its defaults filled in: the API's page sizes. A cursor is added by
 * `withCursor`. Without a prototype: `check`, the client and the back ends test
 * `paging.cursor`, and a `cursor` added to `Object.prototype` must not read as the schema's.
 */
function pagingOf(spec: PagingSpec): Paging {
  const defaultLimit = spec.defaultLimit ?? API_PAGING.defaultLimit;
  return Object.setPrototypeOf({ defaultLimit, maxLimit: spec.maxLimit ?? Math.max(API_PAGING.maxLimit, defaultLimit) }, null) as Paging;
}

/**
 * The schema of `indexSpec` with the cursor paging of its spec, if any (reference §9):
 * the request parameter `after`, and `paging.cursor` with the codec that reads cursors
 * (`CursorPaging`). Apart from `indexSpec`, so that the catalog's schemas, which have no
 * cursor, do not bring it to a bundle: only `defineSchema` calls it.
 */
export function withCursor<S extends SchemaSpec>(schema: Schema<S>, codec: object): Schema<S> {
  const cursor: unknown = schema.spec.paging?.cursor;
  if (cursor === undefined) return schema;
  // `{ key }`, where the key is a sortable scalar field (a ref id counts): every sort ends with it.
  const given: { key?: unknown } = typeof cursor === 'object' && cursor !== null ? cursor : {};
  onlyKnown(given, ['key'], 'paging "cursor"');
  const field = typeof given.key === 'string' ? schema.fields.get(given.key) : undefined;
  if (!field?.sortable || field.array !== undefined) fail(`paging "cursor" must be { key: a unique sortable field }, not ${JSON.stringify(cursor)}`);
  return Object.freeze({ ...schema, params: new Set([...schema.params, CURSOR_PARAM]), paging: { ...schema.paging!, cursor: { key: field.path, codec } } });
}

/** The API's page sizes, the defaults of `paging`: 100 items when `limit` is not sent, at most 500. */
export const API_PAGING = { defaultLimit: 100, maxLimit: 500 } as const satisfies Paging;

// ---------------------------------------------------------------- the checks of defineSchema

/** Throws the `TypeError` of the first thing wrong with a spec (as `defineSchema`), in the order it is written. */
export function checkSpec(spec: unknown): asserts spec is SchemaSpec {
  if (typeof spec !== 'object' || spec === null) fail('a schema spec must be an object with "fields"');
  const given = spec as { fields?: unknown; params?: unknown; paging?: unknown; sortParam?: unknown };
  if (given.fields instanceof Map) fail('this is already a schema: use it as it is');
  if (!isPlainObject(spec)) fail('a schema spec must be a plain object with "fields", as written in code or read from JSON');
  onlyKnown(spec, SPEC_KEYS, 'a schema spec');
  const fieldSpecs = given.fields;
  if (!isPlainObject(fieldSpecs)) fail('"fields" must be an object of field specs');
  for (const [name, field] of Object.entries(fieldSpecs)) checkField(name, field, undefined);
  const sortParam = given.sortParam ?? DEFAULT_SORT_PARAM;
  if (typeof sortParam !== 'string' || !isParamName(sortParam)) fail(`"sortParam" must be a parameter name, not ${JSON.stringify(sortParam)}`);
  if (given.paging !== undefined) checkPaging(given.paging);
  const requestParams = checkParams(given.params);
  const paging: readonly string[] = given.paging === undefined ? [] : (given.paging as PagingSpec).cursor === undefined ? PAGING_PARAMS : [...PAGING_PARAMS, CURSOR_PARAM];
  for (const name of [...requestParams, sortParam, ...paging]) {
    if (Object.hasOwn(fieldSpecs, name.split('.')[0]!)) fail(`"${name}" is both a field and a request parameter`);
  }
  if (requestParams.includes(sortParam)) fail(`"${sortParam}" is both the sort parameter and a request parameter`);
  for (const name of paging) {
    if (requestParams.includes(name)) fail(`"${name}" is a paging parameter: declare paging, or "${name}" as a request parameter, not both`);
    if (name === sortParam) fail(`"${name}" is a paging parameter, and cannot be the sort parameter`);
  }
}

/** Checks the request parameters of a spec; their names, in order. */
function checkParams(spec: unknown): string[] {
  if (spec === undefined) return [];
  if (Array.isArray(spec)) {
    for (const name of spec as unknown[]) {
      if (typeof name !== 'string' || !isParamName(name)) fail(`${JSON.stringify(name)} is not a parameter name`);
    }
    return [...new Set(spec as string[])];
  }
  if (!isPlainObject(spec)) fail('"params" must be an array of parameter names, or an object of parameter types');
  for (const [name, param] of Object.entries(spec)) {
    if (!isParamName(name)) fail(`${JSON.stringify(name)} is not a parameter name`);
    const normalized: unknown = typeof param === 'string' ? ownCopy({ type: param }) : param;
    if (typeof normalized !== 'object' || normalized === null) fail(`parameter "${name}" must be a type name or an object with "type"`);
    onlyKnown(normalized, PARAM_KEYS, `parameter "${name}"`);
    const { type, required = false } = normalized as { type?: unknown; required?: unknown };
    if (!(SCALAR_TYPES as readonly unknown[]).includes(type)) {
      fail(`parameter "${name}" has the unknown type ${JSON.stringify(type)} (expected number, string or date)`);
    }
    if (typeof required !== 'boolean') fail(`"required" of parameter "${name}" must be true or false`);
  }
  return Object.keys(spec);
}

function checkPaging(spec: unknown): void {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) fail('"paging" must be an object: { defaultLimit?, maxLimit?, cursor? }');
  onlyKnown(spec, PAGING_KEYS, '"paging"');
  const given = spec as { defaultLimit?: unknown; maxLimit?: unknown };
  for (const name of LIMIT_KEYS) {
    const value = given[name];
    if (value !== undefined && (!Number.isSafeInteger(value) || (value as number) < 1)) {
      fail(`paging "${name}" must be a positive integer, not ${JSON.stringify(value)}`);
    }
  }
  const { defaultLimit, maxLimit } = pagingOf(spec as PagingSpec);
  if (defaultLimit > maxLimit) {
    const given = (spec as PagingSpec).defaultLimit === undefined ? `the default "defaultLimit" (${defaultLimit}; set one up to ${maxLimit})` : `"defaultLimit" (${defaultLimit})`;
    fail(`paging ${given} must not exceed "maxLimit" (${maxLimit})`);
  }
}

function checkField(name: string, spec: unknown, array: string | undefined): void {
  const where = array === undefined ? name : `${array}.${name}`;
  if (!isFieldName(name)) fail(`"${where}" is not a field name (letters, digits and "_", not starting with a digit)`);
  const normalized = typeof spec === 'string' ? ownCopy({ type: spec }) : spec;
  if (typeof normalized !== 'object' || normalized === null) fail(`field "${where}" must be a type name or an object with "type"`);
  const { type, removed, of, sortable } = normalized as { type?: unknown; removed?: unknown; of?: unknown; sortable?: unknown };
  if (removed !== undefined && (typeof removed !== 'string' || removed === '')) {
    fail(`"removed" of field "${where}" must say where to filter instead`);
  }
  if (sortable !== undefined && typeof sortable !== 'boolean') fail(`"sortable" of field "${where}" must be true or false`);
  if (sortable !== undefined && (array !== undefined || type === 'array')) {
    fail(`field "${where}" cannot be sortable: ${array === undefined ? 'a list' : 'a field of a list'} has no one value to sort an item by`);
  }
  onlyKnown(normalized, type === 'array' ? ARRAY_KEYS : FIELD_KEYS, `field "${where}"`);
  if (type === 'array') {
    if (array !== undefined) fail(`field "${where}": arrays do not nest`);
    if (typeof of !== 'object' || of === null || Array.isArray(of) || Object.keys(of).length === 0) {
      fail(`array "${where}" needs "of", an object of its elements' fields`);
    }
    for (const [child, childSpec] of Object.entries(of)) checkField(child, childSpec, name);
  } else if (type !== 'ref' && !(SCALAR_TYPES as readonly unknown[]).includes(type)) {
    fail(`field "${where}" has the unknown type ${JSON.stringify(type)} (expected number, string, date, ref or array)`);
  }
}

const SPEC_KEYS = ['fields', 'params', 'paging', 'sortParam'];
const FIELD_KEYS = ['type', 'removed', 'sortable'];
const ARRAY_KEYS = ['type', 'of', 'removed', 'sortable'];
const PARAM_KEYS = ['type', 'required'];
const LIMIT_KEYS = ['defaultLimit', 'maxLimit'] as const;
const PAGING_KEYS = ['defaultLimit', 'maxLimit', 'cursor'];

/**
 * A misspelt property would be ignored without a word: `remved: '…'` would leave a
 * field filterable that was meant to be removed. Refuse what is not known instead.
 */
function onlyKnown(object: object, known: readonly string[], what: string): void {
  for (const key of Object.keys(object)) if (!known.includes(key)) fail(`${what} has the unknown property ${JSON.stringify(key)}`);
}

/** An object as written in code or read from JSON (its prototype Object.prototype, or none): not an array, a class's instance, or a Set or a Map (read as an object without keys, which would declare nothing and say nothing). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  const proto: unknown = typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.getPrototypeOf(value) : undefined;
  return proto === null || proto === Object.prototype;
}

function fail(message: string): never {
  throw new TypeError(`defineSchema: ${message}.`);
}

/**
 * The own enumerable properties of a spec, copied into objects without a prototype (plain
 * objects and arrays; anything else, such as a Map, as it is). Everything read from a
 * spec is read from this copy, so that a property added to `Object.prototype` (`removed`,
 * `required`, `sortParam`) never reads as part of a spec that does not set it.
 */
export function ownCopy<T>(value: T, copies = new Map<object, unknown>()): T {
  if (typeof value !== 'object' || value === null) return value;
  const proto: unknown = Object.getPrototypeOf(value);
  if (!(Array.isArray(value) || proto === Object.prototype || proto === null)) return value;
  const known = copies.get(value);
  if (known !== undefined) return known as T;
  // Not Object.create(null), whose objects keep their properties in a dictionary: `check`
  // reads a Field's for every parameter (3-5% of its time on bench/'s corpora, Node 22).
  const copy = (Array.isArray(value) ? [] : Object.setPrototypeOf({}, null)) as Record<string, unknown>;
  copies.set(value, copy);
  for (const [key, item] of Object.entries(value)) copy[key] = ownCopy(item, copies);
  return copy as T;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
