import type { Condition, DateTest, Filter, NumberTest, TextTest } from '../check/filter';
import { foldCase } from '../values/case';
import { instantFromData } from '../values/date';
import { numberFromData } from '../values/number';
import { compileLike } from './like';

/** Options of `compile` (and of every back end that follows SPEC §5). */
export interface CompileOptions {
  /**
   * Compare strings and ids, for equality and for `%` patterns, by their lower-case forms:
   * the simple lower case of each code point (see `foldCase`), as Postgres's `lower()`
   * under `pg_c_utf8` computes them, so the SQL back end means the same.
   */
  readonly caseInsensitive?: boolean;
}

/** A compiled filter: true when the item satisfies every condition. Never throws. */
export type Predicate = (item: unknown) => boolean;

type Test = (value: unknown) => boolean;

const never = (): boolean => false;
const always = (): boolean => true;
const hasOwn = Object.hasOwn;

/**
 * Compiles a checked filter into a predicate over plain objects, with the meaning of
 * SPEC §5. All decisions are taken here, once: each condition becomes one closure
 * that reads its path (own properties only) and runs one combined test. No code is
 * generated from text.
 */
export function compile(filter: Filter, options?: CompileOptions): Predicate {
  const caseInsensitive = options?.caseInsensitive === true;
  const predicate = allOf(filter.conditions.map((c) => compileCondition(c, caseInsensitive)));
  return (item) => {
    try {
      return predicate(item);
    } catch {
      // Only a getter or a proxy in the data can throw; such an item does not match.
      return false;
    }
  };
}

/** The conjunction of tests, without a loop for the common small counts. */
function allOf<T>(tests: ((value: T) => boolean)[]): (value: T) => boolean {
  const [a, b, c] = tests;
  switch (tests.length) {
    case 0:
      return always;
    case 1:
      return a!;
    case 2:
      return (value) => a!(value) && b!(value);
    case 3:
      return (value) => a!(value) && b!(value) && c!(value);
    default:
      return (value) => {
        for (const test of tests) if (!test(value)) return false;
        return true;
      };
  }
}

function compileCondition(condition: Condition, caseInsensitive: boolean): Predicate {
  const test = valueTest(condition, caseInsensitive);
  if (test === never) return never;
  const read = reader(condition.path);
  const array = condition.array;
  if (array === undefined) return (item) => test(read(item));
  // All tests of one parameter must hold for the same element.
  return (item) => {
    const list = own(item, array);
    if (!Array.isArray(list)) return false;
    for (let i = 0; i < list.length; i++) {
      const element: unknown = list[i];
      if (element !== undefined && hasOwn(list, i) && test(read(element))) return true;
    }
    return false;
  };
}

/** An own property of an object, or `undefined` for anything else. */
function own(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && hasOwn(value, name) ? (value as Record<string, unknown>)[name] : undefined;
}

function reader(path: readonly string[]): (value: unknown) => unknown {
  const [a, b] = path;
  if (path.length === 1) return (value) => own(value, a!);
  if (path.length === 2) return (value) => own(own(value, a!), b!);
  return (value) => path.reduce(own, value);
}

function valueTest(condition: Condition, caseInsensitive: boolean): Test {
  switch (condition.type) {
    case 'number':
      return numberTest(condition.tests);
    case 'date':
      return dateTest(condition.tests);
    case 'string':
      return textTest(condition.tests, caseInsensitive, asString);
    case 'id':
      return textTest(condition.tests, caseInsensitive, idText);
  }
}

// ---------------------------------------------------------------- numbers

/** All comparisons of one number condition, folded into one interval. */
function numberTest(tests: readonly NumberTest[]): Test {
  let lo = -Infinity;
  let loOpen = false;
  let hi = Infinity;
  let hiOpen = false;
  for (const { op, value } of tests) {
    if (op === 'eq' || op === 'gt' || op === 'gte') {
      const open = op === 'gt';
      if (value > lo || (value === lo && open)) [lo, loOpen] = [value, open];
    }
    if (op === 'eq' || op === 'lt' || op === 'lte') {
      const open = op === 'lt';
      if (value < hi || (value === hi && open)) [hi, hiOpen] = [value, open];
    }
  }
  if (lo > hi || (lo === hi && (loOpen || hiOpen))) return never;
  if (lo === hi) return (v) => toNumber(v) === lo;
  const above = lo === -Infinity ? undefined : loOpen ? (n: number) => n > lo : (n: number) => n >= lo;
  const below = hi === Infinity ? undefined : hiOpen ? (n: number) => n < hi : (n: number) => n <= hi;
  if (above !== undefined && below !== undefined) return (v) => {
    const n = toNumber(v);
    return above(n) && below(n);
  };
  if (above !== undefined) return (v) => above(toNumber(v));
  if (below !== undefined) return (v) => below(toNumber(v));
  return (v) => !Number.isNaN(toNumber(v));
}

/** A number from data, or NaN (which fails every comparison) for anything that is not one. */
function toNumber(value: unknown): number {
  return typeof value === 'number' ? (Number.isFinite(value) ? value : NaN) : (numberFromData(value) ?? NaN);
}

// ---------------------------------------------------------------- dates

/** All comparisons of one date condition, folded into one half-open interval of instants. */
function dateTest(tests: readonly DateTest[]): Test {
  let lo = -Infinity;
  let hi = Infinity;
  for (const { op, value } of tests) {
    // See DateRange: every operator is a bound on [start, end).
    if (op === 'eq' || op === 'gte') lo = Math.max(lo, value.start);
    if (op === 'gt') lo = Math.max(lo, value.end);
    if (op === 'eq' || op === 'lte') hi = Math.min(hi, value.end);
    if (op === 'lt') hi = Math.min(hi, value.start);
  }
  if (lo >= hi) return never;
  return (v) => {
    const t = instantFromData(v) ?? NaN;
    return t >= lo && t < hi;
  };
}

// ---------------------------------------------------------------- strings and ids

function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Ref ids compare as strings: a string as it is, an integer as its decimal digits. */
function idText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : undefined;
}

function textTest(tests: readonly TextTest[], caseInsensitive: boolean, text: (value: unknown) => string | undefined): Test {
  const fold = caseInsensitive ? foldCase : (s: string) => s;
  let equal: string | undefined;
  const patterns: ((s: string) => boolean)[] = [];
  for (const t of tests) {
    if (t.op === 'like') {
      patterns.push(compileLike(t.segments.map(fold)));
      continue;
    }
    const value = fold(t.value);
    if (equal !== undefined && equal !== value) return never;
    equal = value;
  }
  const matches = allOf(patterns);
  const target = equal;
  if (target !== undefined && patterns.length === 0) {
    return caseInsensitive
      ? (v) => {
          const raw = text(v);
          return raw !== undefined && foldCase(raw) === target;
        }
      : (v) => text(v) === target;
  }
  return (v) => {
    const raw = text(v);
    if (raw === undefined) return false;
    const s = caseInsensitive ? foldCase(raw) : raw;
    return (target === undefined || s === target) && matches(s);
  };
}
