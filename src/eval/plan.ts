import { resultHint } from '../check/arguments';
import { dateBounds, numberBounds } from '../check/bounds';
import type { Condition, DateTest, Filter, NumberTest, TextTest } from '../check/filter';
import { OPERATORS } from '../syntax/ast';
import { isFieldName } from '../syntax/path';
import { foldCase } from '../values/case';
import { likeForm, likeOperands, type LikeForm } from './like';

/**
 * A filter split in two, for both evaluators: its **shape**, everything that decides
 * what code runs (the conditions in the order they run, their field types and paths,
 * which tests each has and, for a pattern, where its wildcards are), and its
 * **values**, everything the query compares with (numbers, instants, texts), in the
 * order the tests take them. The code generator sees only the shape (reference §13): two
 * filters that differ only in their values have equal shapes and share generated code.
 */
export interface Plan {
  readonly shape: FilterShape;
  readonly values: readonly unknown[];
  /** The shape as a short string, equal for equal shapes: what generated code is cached by. */
  readonly key: string;
}

/** What decides the code of a filter; never a value of the query. */
export interface FilterShape {
  readonly caseInsensitive: boolean;
  /** In the order they run: cheapest first. */
  readonly conditions: readonly ConditionShape[];
}

/** One condition: where its value is read, and the tests it must pass. */
export interface ConditionShape {
  readonly type: Condition['type'];
  /** The child array whose elements are tested (`lines`), if any. */
  readonly array?: string;
  /** Property names to read, from the item or from each element of `array`. */
  readonly path: readonly string[];
  readonly tests: readonly TestShape[];
}

/**
 * One test, and the values it takes, in order:
 * - `range` (numbers): `lo ≤ n ≤ hi`, both closed (open ends are moved to the next double);
 * - `instant` (dates): `lo ≤ t < hi` in epoch milliseconds;
 * - `equal` (strings): the text; (ids) the text, and the number whose digits it is, or NaN;
 * - `like`: the operands of its form (see `likeOperands`).
 */
export type TestShape =
  | { readonly kind: 'range' }
  | { readonly kind: 'instant' }
  | { readonly kind: 'equal' }
  | { readonly kind: 'like'; readonly form: LikeForm };

/** How many values a test takes. */
export function valueCount(test: TestShape, type: Condition['type']): number {
  switch (test.kind) {
    case 'range':
    case 'instant':
      return 2;
    case 'equal':
      return type === 'id' ? 2 : 1;
    case 'like':
      return test.form === 'any' ? 0 : test.form === 'affix' ? 3 : 1;
  }
}

/**
 * The plan of a checked filter. The conditions run cheapest first, since AND does
 * not depend on order: plain comparisons of a scalar, then tests that scan text (dates,
 * patterns, folded case), then child-array scans; the query order otherwise.
 */
export function planFilter(filter: Filter, caseInsensitive: boolean): Plan {
  const planned = filter.conditions.map((condition, order) => {
    const tests = planTests(condition, caseInsensitive);
    return { shape: shapeOf(condition, tests.shapes), values: tests.values, cost: costOf(condition, tests.shapes, caseInsensitive), order };
  });
  planned.sort((a, b) => a.cost - b.cost || a.order - b.order);
  const conditions = planned.map((p) => p.shape);
  return { shape: { caseInsensitive, conditions }, values: planned.flatMap((p) => p.values), key: keyOf(caseInsensitive, conditions) };
}

/**
 * The key of a shape: `i` or `s` (case), then per condition its type, array, path and
 * tests. Field names hold no `.`, `:`, `,` or `;` (they are checked before planning),
 * so the separators cannot be confused with them. Cheaper than `JSON.stringify`,
 * which was half of a cached `compile`.
 */
function keyOf(caseInsensitive: boolean, conditions: readonly ConditionShape[]): string {
  let key = caseInsensitive ? 'i' : 's';
  for (const c of conditions) {
    key += `;${c.type}:${c.array ?? ''}:${c.path.join('.')}:`;
    for (const t of c.tests) key += t.kind === 'like' ? `${t.form},` : `${t.kind},`;
  }
  return key;
}

function shapeOf(condition: Condition, tests: TestShape[]): ConditionShape {
  const { type, array, path } = condition;
  return array === undefined ? { type, path: [...path], tests } : { type, array, path: [...path], tests };
}

/** 0: a comparison of a value read as it is; 1: a test that scans text; 2: a scan of a child array. */
function costOf(condition: Condition, tests: readonly TestShape[], caseInsensitive: boolean): number {
  const scansText =
    condition.type === 'date' ||
    ((condition.type === 'string' || condition.type === 'id') && (caseInsensitive || tests.some((t) => t.kind === 'like')));
  return (condition.array === undefined ? 0 : 2) + (scansText ? 1 : 0);
}

function planTests(condition: Condition, caseInsensitive: boolean): { shapes: TestShape[]; values: unknown[] } {
  switch (condition.type) {
    case 'number': {
      const bounds = numberBounds(condition.tests);
      // An empty interval is one that nothing is in, with the same code as any other.
      if (bounds === undefined) return { shapes: [RANGE], values: [Infinity, -Infinity] };
      const lo = bounds.loOpen ? nextUp(bounds.lo) : bounds.lo;
      const hi = bounds.hiOpen ? -nextUp(-bounds.hi) : bounds.hi;
      return { shapes: [RANGE], values: [lo, hi] };
    }
    case 'date': {
      const bounds = dateBounds(condition.tests);
      return { shapes: [INSTANT], values: bounds === undefined ? [Infinity, -Infinity] : [bounds.lo, bounds.hi] };
    }
    case 'string':
    case 'id': {
      const fold = caseInsensitive ? foldCase : (s: string) => s;
      // Equalities before patterns: one comparison each.
      const ordered = [...condition.tests].sort((a, b) => (a.op === 'eq' ? 0 : 1) - (b.op === 'eq' ? 0 : 1));
      const shapes: TestShape[] = [];
      const values: unknown[] = [];
      for (const test of ordered) {
        if (test.op === 'eq') {
          const text = internalize(fold(test.value));
          shapes.push(EQUAL);
          values.push(text);
          if (condition.type === 'id') values.push(idNumber(text));
        } else {
          const segments = test.segments.map(fold);
          const form = likeForm(segments);
          shapes.push({ kind: 'like', form });
          values.push(...likeOperands(form, segments));
        }
      }
      return { shapes, values };
    }
  }
}

/**
 * The same text, as V8's unique copy: a property name is always one. Data strings are
 * often unique copies too (literals, short JSON values), and two unique copies compare
 * by address, where a text cut out of a query would be compared character by
 * character on every item (measured: about 10% of a string equality test).
 */
function internalize(text: string): string {
  return Object.keys({ [text]: 0 })[0]!;
}

const RANGE: TestShape = { kind: 'range' };
const INSTANT: TestShape = { kind: 'instant' };
const EQUAL: TestShape = { kind: 'equal' };

/**
 * The number an id's text is the digits of (as `String(n)` prints it), or NaN: an id
 * equal to `"42"` is also the number 42, and one comparison with each finds both.
 */
function idNumber(text: string): number {
  const n = Number(text);
  return Number.isSafeInteger(n) && String(n) === text ? n : NaN;
}

/** One double and its 64 bits, over one buffer; made by a call marked pure, which a bundle that compiles nothing drops. */
const double = /* @__PURE__ */ doubleAndBits();

function doubleAndBits(): { readonly value: Float64Array; readonly bits: BigInt64Array } {
  const value = new Float64Array(1);
  return { value, bits: new BigInt64Array(value.buffer) };
}

/**
 * The least double above `x` (finite `x`): data holds doubles, so `n > x` is
 * `n >= nextUp(x)`, and every interval can be closed at both ends.
 */
export function nextUp(x: number): number {
  if (x === 0) return Number.MIN_VALUE;
  const { value, bits } = double;
  value[0] = x;
  bits[0] = bits[0]! + (x > 0 ? 1n : -1n);
  return value[0]!;
}

// ---------------------------------------------------------------- argument checks

/**
 * Throws a `TypeError` unless `filter` is a Filter as `validate` and `check` make them:
 * a programmer error (a hand-built filter, or something else passed), said in terms of
 * what was expected. Only what the evaluators read is checked; other fields (`params`,
 * and whatever later versions add) are left alone.
 */
export function assertFilter(filter: unknown, caller: string): asserts filter is Filter {
  const fail = (what: string): never => {
    const hint = resultHint(filter);
    throw new TypeError(`${caller}: expected a Filter (the value of a successful check() or validate()), but ${what}.${hint === undefined ? '' : ` ${hint}`}`);
  };
  if (typeof filter !== 'object' || filter === null) fail(`got ${describe(filter)}`);
  const f = filter as { type?: unknown; conditions?: unknown };
  if (f.type !== 'Filter') fail(`its "type" is ${describe(f.type)}, not "Filter"`);
  if (!Array.isArray(f.conditions)) fail('its "conditions" is not an array');
  (f.conditions as unknown[]).forEach((condition, i) => {
    const problem = conditionProblem(condition);
    if (problem !== undefined) fail(`condition ${i} ${problem}`);
  });
}

function conditionProblem(condition: unknown): string | undefined {
  if (typeof condition !== 'object' || condition === null) return `is ${describe(condition)}`;
  const { type, path, array, tests } = condition as Partial<Record<keyof Condition, unknown>>;
  if (type !== 'number' && type !== 'date' && type !== 'string' && type !== 'id') return `has the unknown type ${describe(type)}`;
  if (!Array.isArray(path) || path.length === 0) return 'has no "path" (an array of property names)';
  const names = array === undefined ? path : [array, ...path];
  const bad = names.findIndex((name) => !isFieldName(name));
  if (bad !== -1) return `has the property name ${describe(names[bad])}, which is not a field name`;
  if (!Array.isArray(tests) || tests.length === 0) return 'has no "tests"';
  const valid = type === 'number' ? isNumberTest : type === 'date' ? isDateTest : isTextTest;
  const index = tests.findIndex((t) => !valid(t));
  return index === -1 ? undefined : `has a test that is not a ${type} test: ${describe(tests[index])}`;
}

const isOperator = (op: unknown): boolean => (OPERATORS as readonly unknown[]).includes(op);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function isNumberTest(test: unknown): test is NumberTest {
  return isObject(test) && isOperator(test.op) && typeof test.value === 'number' && Number.isFinite(test.value);
}

function isDateTest(test: unknown): test is DateTest {
  if (!isObject(test) || !isOperator(test.op) || !isObject(test.value)) return false;
  const { start, end } = test.value;
  return typeof start === 'number' && typeof end === 'number' && Number.isFinite(start) && Number.isFinite(end) && start < end;
}

function isTextTest(test: unknown): test is TextTest {
  if (!isObject(test)) return false;
  if (test.op === 'eq') return typeof test.value === 'string';
  const segments = test.segments;
  return test.op === 'like' && Array.isArray(segments) && segments.length >= 2 && segments.every((s) => typeof s === 'string');
}

/** A short description of a value for a TypeError: its type, and the value when short. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.length <= 40 ? JSON.stringify(value) : `a string of ${value.length} characters`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'undefined') return String(value);
  return `a${typeof value === 'object' ? 'n' : ''} ${typeof value}`;
}
