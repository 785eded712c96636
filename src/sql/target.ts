import { ownCopy, wrongArgument } from '../arguments/arguments';
import type { Dialect } from './dialect';
import { documentDialect, type DocumentTarget } from './document';
import { relationalDialect, type RelationalTarget } from './relational';
import { typedDialect } from './typed';

/** Where the items are: a table with a column per field, or a `jsonb` column of whole items. */
export type SqlTarget = RelationalTarget | DocumentTarget;

/**
 * The dialect of a target of `toSql`, `sqlIndexes` or `sqlConstraints` (`fn`), its own
 * properties copied once: a property absent from what the caller passed is absent, whatever
 * `Object.prototype` holds.
 */
export function dialectOf(fn: string, target: SqlTarget): Dialect {
  if (typeof target !== 'object' || target === null) {
    wrongArgument(fn, 'the target', '{ columns, table?, arrays? } for a table, or { document, table?, typed? } for a jsonb column', target);
  }
  target = ownCopy(target);
  if (!('document' in target)) return relationalDialect(target);
  if (target.typed !== undefined && typeof target.typed !== 'boolean') wrongArgument(fn, 'the target\'s "typed"', 'true or false', target.typed);
  return target.typed === true ? typedDialect(target) : documentDialect(target);
}
