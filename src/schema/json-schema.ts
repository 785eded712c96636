import { ownOptions, wrongArgument } from '../arguments/arguments';
import { isFieldName, RESERVED_NAMES } from '../values/name';
import type { ElementFieldSpec, FieldSpec, ScalarType, SchemaSpec } from '../spec/spec';

/** Options of `schemaFromJsonSchema`. */
export interface JsonSchemaOptions {
  /**
   * What a `$ref` points into: the OpenAPI document (`#/components/schemas/…`) or the JSON
   * Schema (`#/$defs/…`) the object schema comes from. By default, the object schema itself.
   */
  readonly document?: object;
  /** The top-level properties that `orderBy` may sort by: scalars or refs that map (a JSON Schema cannot say). */
  readonly sortable?: readonly string[];
}

/** A property that `schemaFromJsonSchema` left out, and why. */
export interface UnmappedProperty {
  /** The property's path in the data: `lines.trackingCategoryRefs`. */
  readonly path: string;
  readonly reason: string;
}

/** What `schemaFromJsonSchema` makes: the fields it could map, and what it could not. */
export interface SchemaFromJsonSchema {
  /** A spec for `defineSchema`, request parameters and paging still to add. */
  readonly spec: SchemaSpec & { readonly fields: Readonly<Record<string, FieldSpec>> };
  readonly unmapped: readonly UnmappedProperty[];
}

type Json = { readonly [key: string]: unknown };

/**
 * A schema spec from the JSON Schema of a resource's items (an OpenAPI component schema,
 * 3.0 or 3.1): `number` and `integer` are numbers; a `string` with `format: date` or
 * `date-time` a date, any other string text; an object with an `id` a ref (filterable as
 * `field.id`); an array of objects a child array of the fields its elements map to.
 * `$ref`s are followed within `options.document`; `nullable`, a `null` among the types
 * and `allOf` of one schema are looked through. Anything else is not guessed: a boolean,
 * an object without an id, a list of values, a union of types, a name that is no field
 * name is left out and listed in `unmapped`, with why.
 *
 * A malformed argument (not an object schema with properties, a `sortable` name that did
 * not map to a scalar or ref) is a programmer error: a `TypeError`.
 */
export function schemaFromJsonSchema(jsonSchema: object, options?: JsonSchemaOptions): SchemaFromJsonSchema {
  options = ownOptions('schemaFromJsonSchema', options, ['document', 'sortable']);
  if (options?.document !== undefined && typeof options.document !== 'object') wrongArgument('schemaFromJsonSchema', '"document"', 'the OpenAPI document or JSON Schema the $refs point into', options.document);
  const sortable: unknown = options?.sortable;
  if (sortable !== undefined && !(Array.isArray(sortable) && sortable.every((name) => typeof name === 'string'))) {
    wrongArgument('schemaFromJsonSchema', '"sortable"', 'an array of top-level property names', sortable);
  }
  const reader = new Reader(options?.document ?? jsonSchema);
  const fields = reader.within(jsonSchema, ROOT, (root) => {
    if (!isObject(root.properties)) return undefined;
    const mapped: Record<string, FieldSpec> = {};
    for (const [name, property] of Object.entries(root.properties)) {
      const field = reader.field(property, name, name, false);
      if (field !== undefined) mapped[name] = field;
    }
    return mapped;
  });
  if (fields === undefined) {
    wrongArgument('schemaFromJsonSchema', 'the JSON Schema', 'the schema of an object, with "properties" (an OpenAPI component schema)', jsonSchema, rootHint(jsonSchema, reader.unmapped, options?.document !== undefined));
  }
  for (const name of options?.sortable ?? []) {
    const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
    const type = typeof field === 'string' ? field : field?.type;
    if (type === undefined || type === 'array') {
      throw new TypeError(`schemaFromJsonSchema: "sortable" names ${JSON.stringify(name)}, which is not a scalar or ref field that mapped.`);
    }
    fields[name] = { type, sortable: true };
  }
  return { spec: { fields }, unmapped: reader.unmapped };
}

/** Follows `$ref`s in one document, and records what does not map. */
class Reader {
  readonly unmapped: UnmappedProperty[] = [];
  /** How many schemas are being read, one inside the other: a schema that contains itself through a union stops. */
  private depth = 0;

  constructor(private readonly document: object) {}

  /**
   * The field a property named `name` maps to, or `undefined` after recording why not (at
   * `path`, where it is in the data). Inside a child array, scalars and refs only. The
   * name is passed whole, not taken from the path: a name may hold a dot itself
   * ("@odata.etag"), and is then no field name.
   */
  field(property: unknown, name: string, path: string, inArray: boolean): FieldSpec | undefined {
    if (RESERVED_NAMES.has(name)) return this.skip(path, 'its name is reserved: "__proto__", "constructor" and "prototype" are never fields');
    if (!isFieldName(name)) return this.skip(path, 'its name is not a field name (letters, digits and "_", not starting with a digit)');
    return this.within(property, path, (schema) => {
      if (schema.writeOnly === true) return this.skip(path, 'it is writeOnly: never in the data');
      const type = this.typeOf(schema, path);
      if (type === undefined) return undefined;
      const scalar = scalarOf(type, schema);
      if (scalar !== undefined) return scalar;
      if (type === 'boolean') return this.skip(path, 'a boolean: qsfilter has no boolean type');
      if (type === 'object') return this.ref(schema, path);
      if (type === 'array') return inArray ? this.skip(path, 'a list inside a list element: child arrays do not nest') : this.childArray(schema, path);
      return this.skip(path, `the type ${JSON.stringify(type)}, which does not map`);
    });
  }

  /** An object with an `id` that is a string or a number: a ref. */
  private ref(schema: Json, path: string): FieldSpec | undefined {
    const id = isObject(schema.properties) && Object.hasOwn(schema.properties, 'id') ? schema.properties.id : undefined;
    if (id === undefined) return this.skip(path, 'an object without an "id": only a ref (an object with an id) can be filtered, as field.id');
    const type = this.within(id, `${path}.id`, (s) => this.typeOf(s, `${path}.id`, false), false);
    if (type !== 'string' && type !== 'number' && type !== 'integer') return this.skip(path, 'an object whose "id" is not a string or a number');
    return { type: 'ref' };
  }

  private childArray(schema: Json, path: string): FieldSpec | undefined {
    return this.within(schema.items, path, (items) => {
      const type = this.typeOf(items, path);
      if (type === undefined) return undefined;
      if (type !== 'object' || !isObject(items.properties)) return this.skip(path, 'a list of values, not of objects: only the fields of child objects can be filtered');
      const of: Record<string, ElementFieldSpec> = {};
      for (const [name, property] of Object.entries(items.properties)) {
        // Inside an array, field() gives scalars and refs only.
        const field = this.field(property, name, `${path}.${name}`, true) as ElementFieldSpec | undefined;
        if (field !== undefined) of[name] = field;
      }
      if (Object.keys(of).length === 0) return this.skip(path, 'a list of objects none of whose fields map');
      return { type: 'array', of };
    });
  }

  /**
   * Calls `use` with the schema a value stands for: `$ref`s followed, `allOf` of one
   * schema looked through; without one, records why (when `record`). The data's own
   * structure bounds how deep fields go (a child array's elements hold no arrays, a
   * ref is read to its id), so a schema may contain itself; only a chain of `$ref`s
   * that comes back, or unions nested past any real schema, are cut.
   */
  within<T>(value: unknown, path: string, use: (schema: Json) => T | undefined, record = true): T | undefined {
    if (this.depth >= MAX_DEPTH) return this.skip(path, 'its schema nests too deep: it contains itself', record);
    const followed = new Set<string>();
    // The schemas an allOf led to: a document whose $refs were already resolved into
    // objects (as a dereferencing parser leaves it) can hold a loop of them.
    const passed = new Set<object>();
    let schema = value;
    while (isObject(schema)) {
      if (isAllOfOfOne(schema)) {
        if (passed.has(schema)) return this.skip(path, 'its allOf comes back to itself', record);
        passed.add(schema);
        schema = schema.allOf[0];
        continue;
      }
      if (typeof schema.$ref !== 'string') {
        this.depth++;
        try {
          return use(schema);
        } finally {
          this.depth--;
        }
      }
      const ref = schema.$ref;
      if (followed.has(ref)) return this.skip(path, `its $refs come back to ${ref}`, record);
      followed.add(ref);
      const end = this.follow(ref);
      if (typeof end === 'string') return this.skip(path, end, record);
      schema = end.schema;
    }
    return this.skip(path, 'its schema is not an object', record);
  }

  /** Where each `$ref` met so far leads: the schema its chain of `$refs` ends at, or why it ends nowhere. */
  private readonly refs = new Map<string, { readonly schema: unknown } | string>();

  /**
   * Follows a chain of `$ref`s to the schema at its end, once per document: a thousand
   * properties that name the head of a thousand-link chain cost two thousand steps,
   * not a million. A chain that comes back is cut where it does, as each of its
   * `$ref`s would be alone.
   */
  private follow(ref: string): { readonly schema: unknown } | string {
    const chain: string[] = [];
    const seen = new Set<string>();
    let at = ref;
    let end: { readonly schema: unknown } | string;
    for (;;) {
      const known = this.refs.get(at);
      if (known !== undefined) {
        end = known;
        break;
      }
      if (seen.has(at)) {
        // Followed from inside the loop, a $ref comes back to itself; from before it, to where the loop starts.
        for (const inside of chain.splice(chain.indexOf(at))) this.refs.set(inside, `its $refs come back to ${inside}`);
        end = `its $refs come back to ${at}`;
        break;
      }
      chain.push(at);
      seen.add(at);
      const target = pointer(this.document, at);
      if (target === undefined) {
        end = `the $ref ${JSON.stringify(at)} does not resolve in the document`;
        break;
      }
      if (!(isObject(target) && typeof target.$ref === 'string' && !isAllOfOfOne(target))) {
        end = { schema: target };
        break;
      }
      at = target.$ref;
    }
    for (const link of chain) this.refs.set(link, end);
    return end;
  }

  /** The one type of a schema, `null` set aside (`nullable`, `["string", "null"]`, `anyOf` with `{type: "null"}`). */
  private typeOf(schema: Json, path: string, record = true): string | undefined {
    const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
    if (union !== undefined && schema.type === undefined) {
      const others = union.filter((s) => !(isObject(s) && s.type === 'null'));
      if (others.length !== 1) return this.skip(path, 'a union of several types: which would a filter compare?', record);
      return this.within(others[0], path, (one) => this.typeOf(one, path, record), record);
    }
    const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((t) => t !== 'null' && t !== undefined);
    // A type list built in code may hold anything: a Symbol would make join() throw.
    if (types.length > 1) return this.skip(path, `several types (${types.map((t) => (typeof t === 'string' ? t : `a ${typeof t}`)).join(', ')}): which would a filter compare?`, record);
    const [type] = types;
    if (typeof type === 'string') return type;
    if (isObject(schema.properties)) return 'object';
    return this.skip(path, 'no type', record);
  }

  private skip(path: string, reason: string, record = true): undefined {
    if (record) this.unmapped.push({ path, reason });
    return undefined;
  }
}

/** The path that names the root schema in `unmapped`. */
const ROOT = '(the schema)';

/** What went wrong with a root that is no object schema, and what to pass instead. */
function rootHint(root: unknown, unmapped: readonly UnmappedProperty[], withDocument: boolean): string | undefined {
  if (isObject(root) && (root.openapi !== undefined || root.components !== undefined)) {
    return 'This is a whole OpenAPI document: pass one of its schemas, such as document.components.schemas.Invoice, with { document } for the $refs in it.';
  }
  const reason = unmapped.find((u) => u.path === ROOT)?.reason;
  if (reason === undefined) return undefined;
  return `The root schema: ${reason}${reason.includes('$ref') && !withDocument ? '; pass the OpenAPI document it points into as { document }' : ''}.`;
}

/** Far more than a field ever needs: a field, a child array, its element, a ref, its id, and unions around them. */
const MAX_DEPTH = 32;

function scalarOf(type: string, schema: Json): ScalarType | undefined {
  if (type === 'number' || type === 'integer') return 'number';
  if (type !== 'string') return undefined;
  return schema.format === 'date' || schema.format === 'date-time' ? 'date' : 'string';
}

/**
 * A local JSON Pointer (`#/components/schemas/Invoice`), read through own properties only.
 * It is a URI fragment, so percent-encoded (RFC 6901 §6: `#/$defs/A%20B` names "A B"),
 * and it may go through arrays (`#/allOf/0`, `#/paths/~1invoices/get/parameters/0/schema`).
 */
function pointer(document: object, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  let at: unknown = document;
  for (const raw of fragment.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key)) return undefined;
    at = (at as Json)[key];
  }
  return fragment === '' ? document : at;
}

/** A schema that is only a wrapper of another: `allOf` of one, beside no properties or type of its own. */
function isAllOfOfOne(schema: Json): schema is Json & { readonly allOf: readonly [unknown] } {
  return Array.isArray(schema.allOf) && schema.allOf.length === 1 && schema.properties === undefined && schema.type === undefined;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
