import type { CursorValue, SortField } from '../filter/filter';
import type { Dialect } from './dialect';
import { nullFlag } from './order';
import type { Parameters } from './parameters';
import type { TextComparison } from './text';

/**
 * The keyset predicate of a cursor page (reference §9): the rows that come after the
 * cursor in the order of `orderBy(sort, …)`, `pageItems`' rows. Each key is read as the
 * dialect reads it (`Dialect.orderKey`), the cursor's value through the same reading
 * (`Dialect.cursorKey`), so that the row the cursor was made from is found where the
 * order put it, whatever the data: a walk through the pages never returns a row twice.
 *
 * Keys of one direction in a row, their cursor values not NULL, are one row comparison,
 * `((k IS NULL), k, id) > (false, $1, $2)`: the first key's NULL flag (NULLs last), its
 * parts, then the next keys', each with its flag but the last (the cursor key, which a
 * cursor always holds). Where the first comparison does not cover the whole sort, it is
 * also written with `>=` (`<=` descending), the range an index on the first key, its
 * flag and the cursor key serves (`sqlIndexes`), so that a deep page reads from the
 * cursor on, not every row before it. A NULL cursor value is passed only by the rows
 * whose key is NULL too, which the next keys then order.
 */
export function keysetPredicate(sort: readonly SortField[], values: readonly CursorValue[], dialect: Dialect, text: TextComparison, params: Parameters): string {
  const keys = sort.map((field, i): Key => {
    const parts = dialect.orderKey(field, text);
    const bound = dialect.cursorKey(field, values[i] ?? null, text, params);
    const desc = field.direction === 'desc';
    // Every key but the last is flagged: a NULL inside a row comparison would make it NULL. The first always is: the index leads with its flag.
    const flagged = i === 0 || i < sort.length - 1;
    return { parts, bound, desc, flag: flagged ? nullFlag(parts[0]!, field.direction) : undefined };
  });
  return after(keys, true) ?? 'FALSE';
}

/** One sort key of the keyset: its parts, the cursor's (`undefined`: NULL), its direction and NULL flag. */
interface Key {
  readonly parts: readonly string[];
  readonly bound: readonly string[] | undefined;
  readonly desc: boolean;
  readonly flag: string | undefined;
}

/**
 * The rows after the cursor on these keys alone, or `undefined` when none can be: the
 * longest run of keys of one direction with cursor values is one row comparison; rows
 * tied with the cursor on it come after it when they do on the keys after the run. A NULL
 * cursor value passes only NULL keys. `first`: the run that starts the sort, which also
 * gives the index its range.
 */
function after(keys: readonly Key[], first: boolean): string | undefined {
  const [key, ...others] = keys;
  if (key === undefined) return undefined;
  if (key.bound === undefined) {
    const rest = after(others, false);
    // NULLs are last: after a NULL come only the other NULLs, which the next keys order
    // (`(k IS NOT NULL) = false` descending: the index's own flag).
    return rest === undefined ? undefined : `${key.flag === undefined ? `${key.parts[0]} IS NULL` : `(${key.flag}) = ${!key.desc}`} AND ${rest}`;
  }
  let end = 1;
  while (end < keys.length && keys[end]!.desc === key.desc && keys[end]!.bound !== undefined) end++;
  const run = keys.slice(0, end);
  const row = `(${run.flatMap((k) => (k.flag === undefined ? k.parts : [`(${k.flag})`, ...k.parts])).join(', ')})`;
  // A flag's value at the cursor: its key is not NULL (`IS NULL` false ascending, `IS NOT NULL` true descending).
  const cursor = `(${run.flatMap((k) => (k.flag === undefined ? k.bound! : [String(k.desc), ...k.bound!])).join(', ')})`;
  const past = key.desc ? '<' : '>';
  const rest = after(keys.slice(end), false);
  if (rest === undefined) return `${row} ${past} ${cursor}`;
  // Tied with the cursor on the run, a row comes after it on the next keys. Past the
  // range, a tie is told by the parts alone: a NULL key is distinct from the cursor's,
  // which is not NULL, as its flag would say; each key is written once less, which
  // Postgres plans the faster (the typed target's date key is long).
  if (first) return `${row} ${past}= ${cursor} AND ((${run.flatMap((k) => k.parts).join(', ')}) IS DISTINCT FROM (${run.flatMap((k) => k.bound!).join(', ')}) OR ${rest})`;
  return `(${row} ${past} ${cursor} OR ${row} = ${cursor} AND ${rest})`;
}
