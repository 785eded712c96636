import { readFile } from 'node:fs/promises';
import { catalog, type ResourceName } from '../schema/catalog';
import type { Schema } from '../spec/spec';
import { defineSchema } from '../schema/define';
import { reason, UsageError } from './usage';

/** The `--resource` and `--schema` options, as parsed. */
export interface SchemaOptions {
  readonly resource?: string | undefined;
  readonly schema?: string | undefined;
}

/** The names of the catalog's resources, in catalog order. */
export const RESOURCE_NAMES = Object.keys(catalog) as ResourceName[];

/** A catalog resource by name; an unknown name is a usage error that lists the known ones. */
export function resourceSchema(name: string): Schema {
  if (!Object.hasOwn(catalog, name)) {
    throw new UsageError(`unknown resource ${JSON.stringify(name)}; the resources are ${RESOURCE_NAMES.join(', ')}`);
  }
  return catalog[name as ResourceName];
}

/**
 * The schema a command runs against: a catalog resource, or a schema spec read from a
 * JSON file. Exactly one of the two must be given; a file that cannot be read, is not
 * JSON, or is not a valid spec (what `defineSchema` refuses) is a usage error.
 */
export async function loadSchema(options: SchemaOptions): Promise<Schema> {
  if (options.resource !== undefined && options.schema !== undefined) {
    throw new UsageError('give either --resource or --schema, not both');
  }
  if (options.resource !== undefined) return resourceSchema(options.resource);
  if (options.schema === undefined) throw new UsageError('say what to check against: --resource <name> or --schema <file>');
  const file = options.schema;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the schema file ${JSON.stringify(file)}: ${reason(error)}`);
  }
  let spec: unknown;
  try {
    spec = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the schema file ${JSON.stringify(file)} is not JSON: ${reason(error)}`);
  }
  try {
    return defineSchema(spec as Parameters<typeof defineSchema>[0]);
  } catch (error) {
    // defineSchema throws a TypeError that says what is wrong with the spec.
    throw new UsageError(`the schema file ${JSON.stringify(file)} is not a schema: ${reason(error)}`);
  }
}
