import { CURSOR_CODEC } from '../check/cursor';
import { checkSpec, indexSpec, ownCopy, withCursor, type SchemaSpec } from '../spec/spec';
import { faced, type StandardSchema } from '../standard/standard';

/**
 * Checks a schema spec and indexes its filterable paths, its request parameters, its
 * paging and its sort parameter (`spec/spec.ts`), as a schema that is also a Standard
 * Schema v1 validator (`standard/standard.ts`): `schema['~standard'].validate(query)` is
 * `check`. The same function from the main entry and from `qsfilter/client`. A malformed
 * spec is a programmer error: it throws a `TypeError` that says what is wrong.
 */
export function defineSchema<const S extends SchemaSpec>(spec: S): StandardSchema<S> {
  // Read once: what is checked is what is indexed (a getter that answers twice cannot
  // slip a type past the checks), and only own properties count.
  const own = ownCopy(spec);
  checkSpec(own);
  // Cursor paging's code goes with the schemas that page by cursor (`CursorPaging`).
  return faced(withCursor(indexSpec(own), CURSOR_CODEC));
}
