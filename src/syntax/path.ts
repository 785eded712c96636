import { diagnostic, type Diagnostic, type Location } from '../diagnostics/diagnostic';
import { RESERVED_NAMES } from '../values/name';
import { quote } from '../text/quote';
import type { Path } from './ast';

/** The hint of every diagnostic about a text that is not a path. */
export const PATH_HINT =
  'A path is names joined by dots (customerRef.id); a name starts with a letter or "_" and holds letters, digits and "_".';

/** The length of the shortest reserved name: a name shorter than it (most are) needs no look-up. */
const SHORTEST_RESERVED = /* @__PURE__ */ shortest(RESERVED_NAMES);

function shortest(names: ReadonlySet<string>): number {
  let length = Infinity;
  for (const name of names) length = Math.min(length, name.length);
  return length;
}

/** Whether a path holds a name that is never a field. */
export function hasReservedName(path: Path): boolean {
  for (const name of path.names) if (name.value.length >= SHORTEST_RESERVED && RESERVED_NAMES.has(name.value)) return true;
  return false;
}

/**
 * One `INVALID_PATH` per reserved name in a path (`__proto__.x`), for a filter key and a
 * sort key alike, in parameter `param`'s key or value `text`; `use` says what the hint
 * suggests instead. `undefined` when there is none.
 */
export function reservedNames(path: Path, param: string, part: 'key' | 'value', text: string, use: 'Filter on' | 'Sort by'): Diagnostic[] | undefined {
  let problems: Diagnostic[] | undefined;
  for (const name of path.names) {
    if (!RESERVED_NAMES.has(name.value)) continue;
    const where: Location = { param, in: part, text };
    (problems ??= []).push(
      diagnostic(
        'INVALID_PATH',
        `Parameter ${quote(param)} uses the name ${quote(name.value)}, which is never a field.`,
        where,
        name.span,
        `${use} the fields of the resource; "__proto__", "constructor" and "prototype" are refused everywhere.`,
      ),
    );
  }
  return problems;
}
