import { isObject, wrongArgument } from '../arguments/arguments';
import type { Schema } from './spec';

/**
 * Checks that `fn` was given a schema made by `defineSchema`, and says what to do with
 * the spec it was given instead (`check(q, { fields: … })`). Structural, and cheap: it
 * runs on every `check`, and a schema from another copy of the package (ESM and CJS
 * loaded side by side) is as good.
 */
export function expectSchema(fn: string, schema: unknown, what = 'the schema'): asserts schema is Schema {
  if (isSchema(schema)) return;
  const spec = isObject(schema) && isObject(schema.fields) && !('spec' in schema);
  const holding = isObject(schema) && !spec ? Object.keys(schema).find((key) => isSchema(schema[key])) : undefined;
  wrongArgument(
    fn,
    what,
    'a schema made by defineSchema()',
    schema,
    spec
      ? 'This is a schema spec: pass defineSchema(spec) instead, and keep the schema to use it for every request.'
      : holding === undefined
        ? undefined
        : `This holds schemas: pass one of them, such as its ${JSON.stringify(holding)}.`,
  );
}

/** Whether `value` has a schema's shape (`expectSchema`'s test). */
export function isSchema(value: unknown): boolean {
  return isObject(value) && typeof (value.fields as Schema['fields'] | undefined)?.get === 'function' && typeof (value.params as Schema['params'] | undefined)?.has === 'function';
}
