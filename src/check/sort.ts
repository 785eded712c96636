import { diagnostic, type Diagnostic, type Location } from '../diagnostics/diagnostic';
import { nameList, quote } from '../text/quote';
import { sortableFields, type Field, type Schema } from '../spec/spec';
import type { Sort } from '../syntax/ast';
import { API_SORT_KEYS } from '../syntax/sort';
import type { SortField } from '../filter/filter';
import { closest } from './suggest';

/**
 * Checks the keys of a parsed sort against the schema (reference §9): each must name a field
 * the schema marks sortable. An unknown path is `UNKNOWN_FIELD` (with "did you mean"),
 * a known one that does not sort is `NOT_SORTABLE` (its hint lists what does), a
 * removed one `FIELD_REMOVED`. Returns the checked keys, in order.
 */
export function checkSort(sort: Sort, schema: Schema, errors: Diagnostic[]): SortField[] {
  const where: Location = { param: sort.key, in: 'value', text: sort.value };
  const fields: SortField[] = [];
  for (const key of sort.keys) {
    const path = key.path.names.map((n) => n.value).join('.');
    const field = schema.fields.get(path);
    if (field?.sortable === true) {
      fields.push({ key: field.path, path: field.names, direction: key.direction, type: field.type });
      continue;
    }
    // Only a key that does not sort needs the list of those that do.
    const sortable = sortableFields(schema).map((f) => f.path);
    const listed = sortable.length === 0 ? 'This resource cannot be sorted.' : `Sortable fields: ${nameList(sortable)}.`;
    const sortsBy = `Parameter ${quote(sort.key)} sorts by ${quote(path)}`;
    if (field?.removed !== undefined) {
      errors.push(diagnostic('FIELD_REMOVED', `${sortsBy}, a field that was removed.`, where, key.path.span, field.removed));
    } else if (field !== undefined || isObject(schema, path)) {
      errors.push(diagnostic('NOT_SORTABLE', `${sortsBy}, which this resource cannot sort by.`, where, key.path.span, notSortableHint(schema, path, field, listed)));
    } else {
      const suggestion = closest(path, sortable);
      const hint = suggestion === undefined ? listed : `Did you mean ${suggestion}?`;
      errors.push(diagnostic('UNKNOWN_FIELD', `${sortsBy}, which is not a field of this resource.`, where, key.path.span, hint));
    }
  }
  return fields;
}

/**
 * Two sortable paths of the schema for the examples of sort hints, a date first (the
 * newest first is the common order), or the API document's example when it sorts by
 * nothing.
 */
export function sortExample(schema: Schema): readonly string[] {
  const sortable = sortableFields(schema);
  const ordered = [...sortable.filter((f) => f.type === 'date'), ...sortable.filter((f) => f.type !== 'date')];
  return ordered.length === 0 ? API_SORT_KEYS : ordered.slice(0, 2).map((f) => f.path);
}

/** A ref or a child array named as a whole: known, but not one value. */
function isObject(schema: Schema, path: string): boolean {
  return schema.fields.has(`${path}.id`) || [...schema.fields.values()].some((f) => f.array === path);
}

function notSortableHint(schema: Schema, path: string, field: Field | undefined, listed: string): string {
  if (field?.array !== undefined) return `A field of the list ${quote(field.array)} has many values for one item, so nothing sorts by it. ${listed}`;
  if (field !== undefined) return listed;
  const id = schema.fields.get(`${path}.id`);
  if (id !== undefined) return id.sortable ? `Sort by its id: ${id.path}.` : `An object sorts only by its id, and this one does not sort. ${listed}`;
  return `A list has many values for one item, so nothing sorts by it. ${listed}`;
}

