import type { Schema } from '../../spec/spec';
import { RESOURCE_NAMES, resourceSchema } from '../schema';
import { EXIT } from '../usage';

/** The options of `qsfilter resources`, for `util.parseArgs`. */
export const RESOURCES_OPTIONS = {
  json: { type: 'boolean' },
} as const;

/** A resource as `qsfilter resources --json` prints it. */
export interface ResourceListing {
  /** Filterable paths and their types (`id` for a ref's id). */
  readonly fields: Readonly<Record<string, string>>;
  /** Paths that can no longer be filtered, and where to filter instead. */
  readonly removed: Readonly<Record<string, string>>;
  /** Plain request parameters, passed through. */
  readonly params: readonly string[];
}

/** `qsfilter resources [name]`: the catalog's resources (or one), their fields and parameters. */
export function runResources(name: string | undefined, options: { readonly json?: boolean | undefined }): number {
  const names = name === undefined ? RESOURCE_NAMES : [name];
  // resourceSchema refuses an unknown name before anything is printed.
  const listings = names.map((n) => [n, listing(resourceSchema(n))] as const);
  if (options.json === true) {
    process.stdout.write(`${JSON.stringify(Object.fromEntries(listings), null, 2)}\n`);
    return EXIT.ok;
  }
  const lines: string[] = [];
  for (const [n, l] of listings) {
    lines.push(n);
    lines.push(`  fields: ${Object.entries(l.fields).map(([path, type]) => `${path} (${type})`).join(', ')}`);
    for (const [path, instead] of Object.entries(l.removed)) lines.push(`  removed: ${path}: ${instead}`);
    if (l.params.length > 0) lines.push(`  params: ${l.params.join(', ')}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.ok;
}

function listing(schema: Schema): ResourceListing {
  const fields: Record<string, string> = {};
  const removed: Record<string, string> = {};
  for (const field of schema.fields.values()) {
    if (field.removed === undefined) fields[field.path] = field.type;
    else removed[field.path] = field.removed;
  }
  return { fields, removed, params: [...schema.params] };
}
