import { dateBounds, numberBounds } from '../check/bounds';
import type { Condition, Filter, TextTest } from '../check/filter';
import { foldCase } from '../values/case';
import { instantOf } from '../values/date';
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

const never = (): boolean => false;
const always = (): boolean => true;
const hasOwn = Object.hasOwn;
const OBJECT_PROTOTYPE = Object.prototype;
const ARRAY_PROTOTYPE = Array.prototype;

/**
 * Compiles a checked filter into a predicate over plain objects, with the meaning of
 * SPEC §5. All decisions are taken here, once, and no code is generated from text.
 *
 * Shaped for V8: each condition is one closure that reads its path and tests the value
 * in place, through plain module functions (`own`, `between`, `instantOf`…) that the
 * optimizer inlines. Closures calling closures would not be inlined: closures made at
 * one source site share their type feedback, so once a server has compiled a few
 * filters every such call is megamorphic (bench/RESULTS.md measures the cost).
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
  if (tests.includes(never)) return never;
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
  const test = holderTest(condition, caseInsensitive);
  const array = condition.array;
  if (array === undefined || test === never) return test;
  // All tests of one parameter must hold for the same element.
  return (item) => {
    const list = own(item, array);
    if (!Array.isArray(list)) return false;
    for (let i = 0; i < list.length; i++) {
      const element: unknown = list[i];
      if (element !== undefined && isOwnElement(list, i) && test(element)) return true;
    }
    return false;
  };
}

/**
 * Whether `object[name]`, already read and not `undefined`, is an own property. A plain
 * object whose prototype lacks the name can only hold it as its own, so
 * `Object.hasOwn` (a call the optimizer does not inline) is only needed for other
 * prototypes, or when `Object.prototype` itself has the name (polluted, or a built-in
 * such as `toString`).
 */
function isOwn(object: object, name: string): boolean {
  const proto: unknown = Object.getPrototypeOf(object);
  return proto === null || (proto === OBJECT_PROTOTYPE && !(name in OBJECT_PROTOTYPE)) || hasOwn(object, name);
}

/** Whether `list[i]`, already read, is an element of the array itself, not of a polluted prototype: as `isOwn`, for indexes. */
function isOwnElement(list: unknown[], i: number): boolean {
  const proto: unknown = Object.getPrototypeOf(list);
  return (proto === ARRAY_PROTOTYPE && !(i in ARRAY_PROTOTYPE)) || hasOwn(list, i);
}

/** An own property of an object, or `undefined` for anything else. */
function own(value: unknown, name: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  const found = (value as Record<string, unknown>)[name];
  return found !== undefined && isOwn(value, name) ? found : undefined;
}

/**
 * The object that holds the last name of a path (own properties at every step), or
 * `undefined`. The leaf itself is read by the condition's closure: a number field is
 * stored unboxed, and returning it from here as "a number or undefined" would box it,
 * allocating for every item.
 */
function holderOf(value: unknown, path: readonly string[]): Record<string, unknown> | undefined {
  let current = value;
  for (let i = 0; i < path.length - 1 && current !== undefined; i++) current = own(current, path[i]!);
  return typeof current === 'object' && current !== null ? (current as Record<string, unknown>) : undefined;
}

/** The test of one condition on the object its path starts from: the item, or an element of its array. */
function holderTest(condition: Condition, caseInsensitive: boolean): Predicate {
  const path = condition.path;
  const last = path[path.length - 1]!;
  switch (condition.type) {
    case 'number': {
      const bounds = numberBounds(condition.tests);
      if (bounds === undefined) return never;
      const { lo, loOpen, hi, hiOpen } = bounds;
      // The comparisons stay in this closure: a double passed to or returned from a
      // call that is not inlined is boxed, which would allocate for every item.
      return (item) => {
        const holder = holderOf(item, path);
        if (holder === undefined) return false;
        const value = holder[last];
        const n = typeof value === 'number' ? value : numberFromText(value);
        return (loOpen ? n > lo : n >= lo) && (hiOpen ? n < hi : n <= hi) && isOwn(holder, last);
      };
    }
    case 'date': {
      const bounds = dateBounds(condition.tests);
      if (bounds === undefined) return never;
      const { lo, hi } = bounds;
      return (item) => {
        const holder = holderOf(item, path);
        if (holder === undefined) return false;
        const t = instantOf(holder[last]);
        return t >= lo && t < hi && isOwn(holder, last);
      };
    }
    case 'string':
    case 'id':
      return textTest(condition.tests, path, condition.type === 'id', caseInsensitive);
  }
}

// ---------------------------------------------------------------- numbers

/** A number from a data value that is not a JS number: a string in the number syntax, or NaN (which fails every comparison). */
function numberFromText(value: unknown): number {
  return numberFromData(value) ?? NaN;
}

// ---------------------------------------------------------------- strings and ids

/** The text of a string field, or of a ref id: a string as it is, a safe integer as its decimal digits. */
function textOf(value: unknown, isId: boolean): string | undefined {
  if (typeof value === 'string') return value;
  return isId && typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : undefined;
}

function textTest(tests: readonly TextTest[], path: readonly string[], isId: boolean, caseInsensitive: boolean): Predicate {
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
  const target = equal;
  // The commonest test, equality without folding, is one comparison.
  const last = path[path.length - 1]!;
  if (target !== undefined && patterns.length === 0 && !caseInsensitive) {
    return (item) => {
      const holder = holderOf(item, path);
      return holder !== undefined && textOf(holder[last], isId) === target && isOwn(holder, last);
    };
  }
  const matches = allOf(patterns);
  return (item) => {
    const holder = holderOf(item, path);
    const raw = holder === undefined ? undefined : textOf(holder[last], isId);
    if (raw === undefined) return false;
    const s = caseInsensitive ? foldCase(raw) : raw;
    return (target === undefined || s === target) && matches(s) && isOwn(holder!, last);
  };
}
