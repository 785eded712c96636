import { ownField } from '../arguments/arguments';
import { dateBounds, numberBounds } from '../filter/bounds';
import type { Condition, Filter } from '../filter/filter';
import { foldCase } from '../values/case';
import { nextDouble } from '../values/number';
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
  /** The child array whose elements are tested (`lines`), if any: always an own property, read by every evaluator. */
  readonly array: string | undefined;
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
  const { type, path } = condition;
  // Own property only: `array` on a polluted Object.prototype is no condition's.
  return { type, array: ownField(condition, 'array'), path: [...path], tests };
}

/** 0: a comparison of a value read as it is; 1: a test that scans text; 2: a scan of a child array. */
function costOf(condition: Condition, tests: readonly TestShape[], caseInsensitive: boolean): number {
  const scansText =
    condition.type === 'date' ||
    ((condition.type === 'string' || condition.type === 'id') && (caseInsensitive || tests.some((t) => t.kind === 'like')));
  return (ownField(condition, 'array') === undefined ? 0 : 2) + (scansText ? 1 : 0);
}

function planTests(condition: Condition, caseInsensitive: boolean): { shapes: TestShape[]; values: unknown[] } {
  switch (condition.type) {
    case 'number': {
      const bounds = numberBounds(condition.tests);
      // An empty interval is one that nothing is in, with the same code as any other.
      if (bounds === undefined) return { shapes: [RANGE], values: [Infinity, -Infinity] };
      const lo = bounds.loOpen ? nextDouble(bounds.lo, 1) : bounds.lo;
      const hi = bounds.hiOpen ? nextDouble(bounds.hi, -1) : bounds.hi;
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
