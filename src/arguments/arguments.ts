import { quote } from '../text/quote';

/**
 * The arguments of the public functions. A wrong argument is a programmer error, not bad
 * input: it throws a `TypeError` that names the function and the argument, says what
 * was expected and what came instead. (A bad query is never thrown: it is a diagnostic.)
 */

/**
 * What a value is, for a message: `undefined`, `null`, `the number -1`, `the boolean true`,
 * `the string "abc"`, `a function`, `an array`, `a Date`, `a Map`, `an instance of Vendor`,
 * `an object`.
 */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'number' || typeof value === 'boolean') return `the ${typeof value} ${String(value)}`;
  if (typeof value === 'bigint') return `the bigint ${value}n`;
  if (typeof value === 'string') return `the string ${quote(value)}`;
  if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : 'an array';
  if (typeof value !== 'object') return withArticle(typeof value);
  // A proxy's getPrototypeOf may throw too: describing a wrong argument must not.
  try {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto === Object.prototype || proto === null) return 'an object';
    const tag = Object.prototype.toString.call(value).slice(8, -1);
    if (tag === 'Date') return Number.isNaN(Date.prototype.getTime.call(value)) ? 'an invalid Date' : 'a Date';
    if (tag !== 'Object') return withArticle(tag);
    const name: unknown = (proto as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === 'string' && name !== '' ? `an instance of ${name}` : 'an object with a prototype';
  } catch {
    return 'an object that cannot be read';
  }
}

function withArticle(noun: string): string {
  // "a URL", "a Uint8Array", "a symbol", "an Int8Array", "an Error".
  return `${/^[aeio]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

/** Throws `TypeError("fn: what must be expected, not …")`, with a hint when one helps. */
export function wrongArgument(fn: string, what: string, expected: string, value: unknown, hint?: string): never {
  throw new TypeError(`${fn}: ${what} must be ${expected}, not ${describe(value)}.${hint === undefined ? '' : ` ${hint}`}`);
}

/** True for a value that can hold named options: an object that is not an array. */
export function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks an options argument: `undefined`, or an object whose own keys are all known (a
 * misspelt option would otherwise be ignored without a word: `{ limit: … }`). Returns its
 * own properties alone, in an object without a prototype, for the caller to read instead:
 * an option absent from what was passed is absent, whatever `Object.prototype` holds
 * (`Object.prototype.caseInsensitive = true` by a polluted dependency changes nothing).
 */
export function ownOptions<T>(fn: string, options: T | undefined, known: readonly string[]): T | undefined {
  if (options === undefined) return undefined;
  if (!isObject(options)) wrongArgument(fn, 'the options', `an object (${known.join(', ')})`, options);
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new TypeError(`${fn}: unknown option ${JSON.stringify(key)}; the options are ${known.join(', ')}.`);
    }
  }
  // Already without a prototype (an adapter's options, copied once): nothing to copy per call.
  return Object.getPrototypeOf(options) === null ? options : ownCopy(options as T & object);
}

/**
 * An object's own enumerable properties in an object without a prototype: for an
 * argument of ours (options, a SQL target) whose optional properties are read, and whose
 * absent ones must not be found on `Object.prototype`.
 */
export function ownCopy<T extends object>(value: T): T {
  // Fast properties, unlike Object.create(null)'s dictionary (see spec/spec.ts's ownCopy).
  return Object.assign(Object.setPrototypeOf({}, null) as T, value);
}

/** `object[key]` when `object` has it as its own property, else `undefined` (an optional field of a hand-built Filter). */
export function ownField<T extends object, K extends keyof T>(object: T, key: K): T[K] | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/**
 * `array.every(test)`, holes included. `every` and `forEach` skip the holes of a sparse
 * array, which the code that then reads the array sees as `undefined`; iterating sees
 * them too. Every test here refuses `undefined`, so the first hole ends the loop: linear
 * in the elements the array holds, whatever its `length`.
 */
export function everyElement(array: readonly unknown[], test: (element: unknown) => boolean): boolean {
  for (const element of array) if (!test(element)) return false;
  return true;
}

/** What a caller who passed a `Result` meant: its value, once `ok` was checked. */
const RESULT_HINT = 'This is a Result: check result.ok, then pass result.value.';

/** The hint for a `Result` passed where its value belongs (`compile(check(q, schema))`), or nothing. */
export function resultHint(value: unknown): string | undefined {
  return isObject(value) && typeof value.ok === 'boolean' ? RESULT_HINT : undefined;
}

/**
 * Checks a `params` option of `fn`: an array or Set of names. A pass-through value is
 * stored under its key, where "__proto__" would not be stored at all.
 */
export function checkParamsOption(fn: string, keys: unknown): void {
  if (keys === undefined) return;
  if (!Array.isArray(keys) && !(keys instanceof Set)) wrongArgument(fn, '"params"', 'an array or Set of parameter names', keys);
  for (const key of keys as Iterable<unknown>) {
    if (typeof key !== 'string') wrongArgument(fn, 'each of "params"', 'a parameter name', key);
    if (key === '__proto__') throw new TypeError(`${fn}: "__proto__" cannot be a pass-through parameter.`);
  }
}
