import type { CursorValue, SortField } from '../filter/filter';
import type { DocumentTarget } from './document';
import { doubleRank, nullFlag, sortKey } from './order';
import type { Parameters } from './parameters';
import { timestamptz, type RelationalTarget } from './relational';
import { textKey, type TextComparison } from './text';

/**
 * The keyset predicate of a cursor page (reference §9): the rows that come after the
 * cursor in the order of `orderBy(sort, …)`, `pageItems`' rows. First where the page
 * starts in the order of the first key (`keysetStart`: at or after its cursor value, or
 * NULL), which an index on the sort's keys serves as a range, so that a deep page reads
 * from the cursor on, not every row before it; then, of the rows tied with the cursor
 * on that key, those after it on the next keys (`afterKeys`). Each side reads as the
 * sort key does (`sortKey`), the cursor value through the same conversion, so that
 * equal means equal in the order. Each value is bound once.
 */
export function keysetPredicate(sort: readonly SortField[], values: readonly CursorValue[], target: RelationalTarget | DocumentTarget, text: TextComparison, params: Parameters): string {
  const [first, ...rest] = sort;
  if (first === undefined) return 'FALSE';
  const key = sortKey(target, first, text);
  const value = values[0] ?? null;
  const desc = first.direction === 'desc';
  if (value === null) {
    // Nothing sorts after a NULL in the first key but the other NULLs: only the next keys can decide.
    const after = afterKeys(rest, values.slice(1), target, text, params);
    return after === undefined ? 'FALSE' : `((${nullFlag(key, first.direction)}) = ${!desc} AND ${after})`;
  }
  const { lo, hi } = bound(target, first, value, text, params);
  const start = keysetStart(key, first.direction, desc ? hi() : lo());
  const after = afterKeys(rest, values.slice(1), target, text, params);
  // Past the start, a row not tied with the cursor on the first key (NULL included) comes after it.
  return `(${start} AND ((${equalTo(key, lo, hi)}) IS NOT TRUE${after === undefined ? '' : ` OR ${after}`}))`;
}

/**
 * The rows after the cursor on these keys alone, or `undefined` when none can be: an OR
 * of one term per key i, "keys 1 … i−1 equal the cursor's, key i comes after it", where a
 * key comes after a value when it is past it in the key's direction or NULL (NULLs are
 * last both ways), and nothing comes after a NULL but the next keys.
 */
function afterKeys(sort: readonly SortField[], values: readonly CursorValue[], target: RelationalTarget | DocumentTarget, text: TextComparison, params: Parameters): string | undefined {
  const terms: string[] = [];
  // Thunks: a value is bound only when a term reads it (a bound value never read is an error in Postgres).
  const equal: (() => string)[] = [];
  for (const [i, field] of sort.entries()) {
    const key = sortKey(target, field, text);
    const value = values[i] ?? null;
    if (value === null) {
      equal.push(() => `${key} IS NULL`);
      continue;
    }
    const { lo, hi } = bound(target, field, value, text, params);
    const after = field.direction === 'desc' ? `${key} < ${lo()}` : `${key} > ${hi()}`;
    terms.push([...equal.map((term) => term()), `(${after} OR ${key} IS NULL)`].join(' AND '));
    equal.push(() => equalTo(key, lo, hi));
  }
  return terms.length === 0 ? undefined : `(${terms.map((term) => `(${term})`).join(' OR ')})`;
}

/** A key equal to a cursor value in the order: the one key, or the range of keys, it stands for (see `bound`). */
function equalTo(key: string, lo: () => string, hi: () => string): string {
  return lo() === hi() ? `${key} = ${lo()}` : `(${key}) BETWEEN ${lo()} AND ${hi()}`;
}

/**
 * The rows at or after a value `v` of the first key, NULLs last: `((k IS NULL), k) >=
 * (false, v)`, or `((k IS NOT NULL), k) <= (true, v)` descending. A row comparison
 * decides at its first unequal pair, so a NULL key passes on its flag alone; it is one
 * range of an index that begins with the same two (`leadingKey`).
 */
function keysetStart(key: string, direction: SortField['direction'], value: string): string {
  const desc = direction === 'desc';
  return `((${nullFlag(key, direction)}), ${key}) ${desc ? '<=' : '>='} (${desc}, ${value})`;
}

/**
 * A cursor value as the sort key of its field on the target reads a row's value: the
 * least and the greatest key it stands for (the same but for the typed target's dates,
 * whose key is their text: every canonical text of the instant).
 */
function bound(target: RelationalTarget | DocumentTarget, field: SortField, value: number | string, text: TextComparison, params: Parameters): { lo: () => string; hi: () => string } {
  // Bound when first read, once.
  const once = (make: () => string) => {
    let sql: string | undefined;
    return () => (sql ??= make());
  };
  const same = (sql: string) => ({ lo: () => sql, hi: () => sql });
  if (field.type === 'string' || field.type === 'id') return same(textKey(params.add(value, 'text'), text));
  const document = 'document' in target;
  if (field.type === 'number') {
    if (!document) return same(params.add(value, 'numeric'));
    return same(target.typed === true ? params.add(JSON.stringify(value), 'jsonb') : doubleRank(params.add(value, 'numeric')));
  }
  if (!document) return same(params.add(timestamptz(value as number), 'timestamptz'));
  if (target.typed !== true) return same(params.add(value, 'bigint'));
  const [lo, hi] = canonicalTexts(value as number);
  return { lo: once(() => `(${params.add(lo, 'text')} COLLATE "C")`), hi: once(() => `(${params.add(hi, 'text')} COLLATE "C")`) };
}

/**
 * The least and the greatest canonical text of an instant (docs/postgres.md's typed
 * dates: `YYYY-MM-DD`, or with `Thh:mm:ss` and 1 to 9 fraction digits, read to the
 * millisecond): every text between them, in code-point order, is of that instant.
 */
function canonicalTexts(ms: number): [string, string] {
  const iso = new Date(ms).toISOString();
  const [date, time, milli] = [iso.slice(0, 10), iso.slice(11, 19), iso.slice(20, 23)];
  const least = milli === '000' ? (time === '00:00:00' ? date : `${date}T${time}`) : `${date}T${time}.${milli.replace(/0+$/, '')}`;
  return [least, `${date}T${time}.${milli}999999`];
}
