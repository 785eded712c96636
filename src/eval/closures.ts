import { likeMatcher } from './like';
import type { ConditionShape, Plan, TestShape } from './plan';
import { valueCount } from './plan';
import { foldCase, idText, instantOf, isArray, isOwn, numberOf, own, someElement } from './runtime';

/** A compiled filter: true when the item satisfies every condition. Never throws. */
export type Predicate = (item: unknown) => boolean;

const never = (): boolean => false;
const always = (): boolean => true;

/**
 * The evaluator without code generation (reference §13): the plan's conditions as closures,
 * with the meaning of the generated code. `compile` uses it with `{ codegen: false }`
 * and where `new Function` is refused (a Content-Security-Policy without
 * `unsafe-eval`).
 *
 * Shaped for V8: each condition is one closure that reads its path and tests the value
 * in place, through small module functions (`own`, `numberOf`, `instantOf`…) that the
 * optimizer inlines. Closures calling closures would not be inlined: closures made at
 * one source site share their type feedback, so once a server has compiled a few
 * filters every such call is megamorphic (bench/RESULTS.md measures the cost, and the
 * generated code is the way out of it).
 */
export function closurePredicate(plan: Plan): Predicate {
  const { shape, values } = plan;
  let at = 0;
  const tests = shape.conditions.map((condition) => {
    const test = conditionTest(condition, values, at, shape.caseInsensitive);
    at += condition.tests.reduce((n, t) => n + valueCount(t, condition.type), 0);
    return test;
  });
  const predicate = allOf(tests);
  if (predicate === always) return always;
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

function conditionTest(condition: ConditionShape, values: readonly unknown[], at: number, caseInsensitive: boolean): Predicate {
  const test = holderTest(condition, values, at, caseInsensitive);
  const array = condition.array;
  if (array === undefined) return test;
  // All tests of one parameter must hold for the same element.
  return (item) => {
    const list = own(item, array);
    return isArray(list) && someElement(list, test);
  };
}

/**
 * The object that holds the last name of a path (own properties at every step), or
 * `undefined`. The leaf itself is read by the condition's closure: a number field is
 * stored unboxed, and returning it from here as "a number or undefined" would box it,
 * allocating for every item.
 */
function holderOf(value: unknown, path: readonly string[]): object | undefined {
  let current = value;
  for (let i = 0; i < path.length - 1 && current !== undefined; i++) current = own(current, path[i]!);
  return typeof current === 'object' && current !== null ? current : undefined;
}

/** The tests of one condition on the object its path starts from: the item, or an element of its array. */
function holderTest(condition: ConditionShape, values: readonly unknown[], at: number, caseInsensitive: boolean): Predicate {
  const path = condition.path;
  const last = path[path.length - 1]!;
  switch (condition.type) {
    case 'number': {
      const lo = values[at] as number;
      const hi = values[at + 1] as number;
      if (!(lo <= hi)) return never;
      // The comparisons stay in this closure: a double passed to or returned from a
      // call that is not inlined is boxed, which would allocate for every item.
      return (item) => {
        const holder = holderOf(item, path);
        if (holder === undefined) return false;
        // The leaf is read here, not in \`own\`: this read site sees number fields only.
        const value = isOwn(holder, last) ? (holder as Record<string, unknown>)[last] : undefined;
        const n = typeof value === 'number' ? value : numberOf(value);
        return n >= lo && n <= hi;
      };
    }
    case 'date': {
      const lo = values[at] as number;
      const hi = values[at + 1] as number;
      if (!(lo < hi)) return never;
      return (item) => {
        const holder = holderOf(item, path);
        if (holder === undefined) return false;
        const t = instantOf(isOwn(holder, last) ? (holder as Record<string, unknown>)[last] : undefined);
        return t >= lo && t < hi;
      };
    }
    case 'string':
    case 'id':
      return textTest(condition, values, at, caseInsensitive);
  }
}

function textTest(condition: ConditionShape, values: readonly unknown[], at: number, caseInsensitive: boolean): Predicate {
  const { path, tests } = condition;
  const isId = condition.type === 'id';
  const last = path[path.length - 1]!;
  // The commonest test, one equality without folding, is one or two comparisons.
  if (tests.length === 1 && tests[0]!.kind === 'equal' && !caseInsensitive) {
    const text = values[at];
    const number = isId ? values[at + 1] : text;
    return (item) => {
      const holder = holderOf(item, path);
      if (holder === undefined) return false;
      const value = isOwn(holder, last) ? (holder as Record<string, unknown>)[last] : undefined;
      return value === text || value === number;
    };
  }
  const matchers: ((s: string) => boolean)[] = [];
  for (const test of tests) {
    matchers.push(textMatcher(test, values, at));
    at += valueCount(test, condition.type);
  }
  const matches = allOf(matchers);
  return (item) => {
    const holder = holderOf(item, path);
    if (holder === undefined) return false;
    const value = isOwn(holder, last) ? (holder as Record<string, unknown>)[last] : undefined;
    const raw = isId ? idText(value) : typeof value === 'string' ? value : undefined;
    if (raw === undefined) return false;
    return matches(caseInsensitive ? foldCase(raw) : raw);
  };
}

/** One test of a (folded) text, from its shape and values. */
function textMatcher(test: TestShape, values: readonly unknown[], at: number): (s: string) => boolean {
  if (test.kind === 'like') return likeMatcher(test.form, values.slice(at, at + valueCount(test, 'string')));
  const text = values[at] as string;
  return (s) => s === text;
}
