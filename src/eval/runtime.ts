import { instantOf } from '../values/date';
import { foldCase } from '../values/case';
import { numberFromData } from '../values/number';
import { idText } from '../values/order';
import { matchSegments } from './like';

/**
 * What both evaluators call for every item: reading own properties only (reference §5), the
 * values of each field type from data, and the scan of a child array. The generated
 * code inlines the reads and the element loop (see codegen.ts, which follows these
 * functions step by step) and calls the rest.
 */

// The built-ins the checks use, taken when the module loads: code that later replaces
// `Object.hasOwn` or `Array.isArray` on the global objects cannot change what they do.
/** `Object.prototype`, as it was when the module loaded. */
export const OBJECT_PROTOTYPE: object = Object.prototype;
/** `Array.prototype`, as it was when the module loaded. */
export const ARRAY_PROTOTYPE: object = Array.prototype;
/** `Object.getPrototypeOf`. */
export const getPrototypeOf = Object.getPrototypeOf;
/** `Object.hasOwn`. */
export const hasOwn = Object.hasOwn;
/** `Array.isArray`. */
export const isArray = Array.isArray;

/**
 * Whether `name` may be read from `object` as an own property, asked before reading, so
 * that a getter on a prototype is never called. Own means what `Object.hasOwn` says (a
 * proxy's `getOwnPropertyDescriptor` trap), and the steps below are the one meaning
 * that both evaluators follow, trap for trap (codegen.ts inlines them):
 *
 * - `name in object` first: for a plain object it costs nothing (it tells the optimizer
 *   the object's map), and a name not `in` an ordinary object is not its own. Its "no"
 *   is not trusted, though: a proxy's `has` trap may hide an own property, so
 *   `Object.hasOwn` decides then.
 * - A name `in` an object whose prototype is `Object.prototype` is its own unless
 *   `Object.prototype` has it (polluted, or a built-in such as `toString`); one in an
 *   object without a prototype is its own. `Object.hasOwn`, a call the optimizer does
 *   not inline, is left for other objects.
 *
 * For every ordinary object this is exactly `Object.hasOwn`; a proxy is taken at its
 * traps' word in this order.
 */
export function isOwn(object: object, name: string): boolean {
  if (!(name in object)) return hasOwn(object, name);
  const proto: unknown = getPrototypeOf(object);
  return (proto === OBJECT_PROTOTYPE ? !(name in OBJECT_PROTOTYPE) : proto === null) || hasOwn(object, name);
}

/** An own property of a value, or `undefined` (for a primitive too). */
export function own(value: unknown, name: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  return isOwn(value, name) ? (value as Record<string, unknown>)[name] : undefined;
}

/** A number field's value as a number: NaN (which fails every comparison) unless it is a number or a numeric string. */
export function numberOf(value: unknown): number {
  return typeof value === 'number' ? value : (numberFromData(value) ?? NaN);
}

/** The value readers and the pattern matcher that generated code calls, from their own modules (`idText`: the order's, values/order.ts). */
export { foldCase, idText, instantOf, matchSegments };

/**
 * How many more holes than elements a child array may show before its scan switches
 * to the indexes that exist: the bound that keeps `new Array(2 ** 32 - 1)` from
 * costing four billion steps, while a dense array is scanned by index as usual.
 */
export const HOLE_SLACK = 32;

/**
 * Whether `test` holds for some element of `list`, as both evaluators scan: only the
 * array's own elements are read (a hole is not an element, and a polluted
 * `Array.prototype` is never looked at through one); an element whose read or test
 * throws does not match, and the others are still tried. The work is linear in the
 * elements that exist, whatever `length` says.
 */
export function someElement(list: readonly unknown[], test: (element: unknown) => boolean): boolean {
  const n = list.length;
  const plain = getPrototypeOf(list) === ARRAY_PROTOTYPE;
  let holes = 0;
  // One try for the whole scan rather than one per element: when element i throws, the
  // outer loop resumes after it.
  for (let i = 0; i < n; i++) {
    try {
      for (; i < n; i++) {
        const element = (plain && !(i in ARRAY_PROTOTYPE)) || hasOwn(list, i) ? list[i] : undefined;
        if (element !== undefined) {
          if (test(element)) return true;
        } else if (++holes > HOLE_SLACK && holes > i + 1 - holes) {
          return someExisting(list, i + 1, n, test);
        }
      }
    } catch {
      // Element i could not be read or tested: it does not match.
    }
  }
  return false;
}

/**
 * The rest of a scan that met mostly holes, from index `from`: the own index keys
 * come in ascending order (for an array, the language says so), so the work is the
 * number of elements that exist.
 */
export function someExisting(list: readonly unknown[], from: number, n: number, test: (element: unknown) => boolean): boolean {
  let keys: string[];
  try {
    keys = Object.getOwnPropertyNames(list);
  } catch {
    // A proxy that cannot list its keys: no further element can be found. This never
    // throws, so that a scan's catch cannot send it back to the holes.
    return false;
  }
  for (const key of keys) {
    const i = Number(key);
    // Own keys that are not indexes (length, or a name someone set) are no elements.
    if (!(i >= from && i < n) || String(i) !== key) continue;
    try {
      if (hasOwn(list, key) && test(list[i])) return true;
    } catch {
      // One element that cannot be read or tested fails alone.
    }
  }
  return false;
}

/**
 * The own elements of a list, in index order, as `sortItems` takes its items: read as a
 * scan reads them (a hole is not an element, and a polluted `Array.prototype` is never
 * read through one; an element whose read throws is left out), with the work linear in
 * the elements that exist, whatever `length` says. An element that is `undefined` is
 * one. Never throws: a list whose length cannot be read has no elements.
 */
export function ownElements(list: readonly unknown[]): unknown[] {
  const elements: unknown[] = [];
  let n: number;
  try {
    // Made a number here, once: a proxy's length may be an object whose valueOf throws,
    // which `i < n` would call, outside any catch, on every step.
    n = Number(list.length);
  } catch {
    return elements;
  }
  const take = (element: unknown): boolean => {
    elements.push(element);
    return false;
  };
  let holes = 0;
  for (let i = 0; i < n; i++) {
    try {
      for (; i < n; i++) {
        if (hasOwn(list, i)) elements.push(list[i]);
        else if (++holes > HOLE_SLACK && holes > i + 1 - holes) {
          someExisting(list, i + 1, n, take);
          return elements;
        }
      }
    } catch {
      // Element i could not be read: it is left out, and the others are still taken.
    }
  }
  return elements;
}
