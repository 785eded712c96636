import type { Predicate } from './closures';
import { isFieldName } from '../values/name';
import { valueCount, type ConditionShape, type FilterShape, type Plan, type TestShape } from './plan';
import {
  ARRAY_PROTOTYPE,
  foldCase,
  getPrototypeOf,
  hasOwn,
  HOLE_SLACK,
  idText,
  instantOf,
  isArray,
  matchSegments,
  numberOf,
  OBJECT_PROTOTYPE,
  someExisting,
} from './runtime';

/**
 * The one form of code generation reference §13 allows: a filter's shape becomes the source
 * of one function, assembled from the fixed templates of this file and nothing else.
 *
 * - The generator takes a `FilterShape`, which holds no value of the query: every
 *   value is read from the array `v` the generated factory is called with, by an index
 *   this file computes. So the source depends only on the shape, and two filters of
 *   the same shape share one generated factory (cached below, and V8 compiles it once).
 * - Schema names enter the source only through `literal`, as JSON string literals,
 *   after `isFieldName` has checked them against the name grammar of reference §3.
 *
 * Why generate at all: each generated function has its own property reads and calls,
 * so V8's feedback for them sees one filter shape and the data's shapes, and inlines
 * everything, where shared closures go megamorphic once a server has compiled several
 * filters (bench/RESULTS.md). The generated code follows runtime.ts step by step; the
 * closure evaluator (closures.ts) has the same meaning without generating anything.
 */

/** A generated factory: given a filter's values, its predicate. */
type Factory = (values: readonly unknown[]) => Predicate;

/**
 * The source of the factory of a shape: the body of `function (h)`, where `h` holds the
 * helpers of runtime.ts; it returns `bind(v)`, which takes a filter's values and
 * returns the filter's predicate.
 */
export function generate(shape: FilterShape): string {
  const out = new Writer();
  out.line('"use strict";');
  out.line(`const { ${HELPERS.join(', ')} } = h;`);
  // Called once per shape with the helpers: what follows is called once per filter.
  out.open('return function bind(v) {');
  let at = 0;
  const conditions = shape.conditions.map((condition, index) => {
    const first = at;
    at += condition.tests.reduce((n, t) => n + valueCount(t, condition.type), 0);
    return { condition, index, first };
  });
  // The values, as constants of the factory: `v` holds them, in the order the tests take them.
  // By index, not by destructuring, which would go through Array.prototype's iterator.
  if (at > 0) out.line(`const ${Array.from({ length: at }, (_, i) => `v${i} = v[${i}]`).join(', ')};`);
  // The child-array scans: a loop and an element test per condition, each with its own feedback.
  for (const { condition, index, first } of conditions) {
    if (condition.array === undefined) continue;
    writeElementTest(out, condition, index, first, shape.caseInsensitive);
    writeScan(out, index);
  }
  out.open('return function matches(item) {');
  if (conditions.length === 0) {
    out.line('return true;');
  } else {
    out.open('try {');
    out.line('if (typeof item !== "object" || item === null) return false;');
    for (const { condition, index, first } of conditions) {
      out.open(`{ // condition ${index}: ${describeCondition(condition)}`);
      if (condition.array === undefined) {
        writeTests(out, condition, 'item', first, shape.caseInsensitive);
      } else {
        writeOwnRead(out, 'list', 'item', condition.array);
        out.line(`if (!isArray(list) || !some${index}(list)) return false;`);
      }
      out.close('}');
    }
    out.line('return true;');
    out.close('} catch {');
    out.indented('// Only a getter or a proxy in the data can throw; such an item does not match.');
    out.indented('return false;');
    out.line('}');
  }
  out.close('};');
  out.close('};');
  return out.text();
}

/**
 * The helpers the generated code uses, all from runtime.ts, as a plain object: reading
 * a module namespace object is slower, and this is read once per shape. Named imports
 * and a call marked pure, not `import * as runtime`: a bundle materialises a namespace
 * read as a value at the top of the module, and keeps it, and all of runtime.ts, in
 * every app that imports anything from the main entry.
 */
const HELPER_VALUES = /* @__PURE__ */ Object.freeze({
  OBJECT_PROTOTYPE,
  ARRAY_PROTOTYPE,
  getPrototypeOf,
  hasOwn,
  isArray,
  numberOf,
  idText,
  instantOf,
  foldCase,
  matchSegments,
  someExisting,
  HOLE_SLACK,
});

/** Their names, as the generated code declares them. */
const HELPERS = /* @__PURE__ */ Object.keys(HELPER_VALUES);

/** A property name as it may appear in the source: a JSON string literal of a checked name. */
function literal(name: string): string {
  if (!isFieldName(name)) throw new TypeError(`compile: ${JSON.stringify(name)} is not a field name`);
  return JSON.stringify(name);
}

/**
 * `runtime.own` inlined, as statements declaring `target`: the own property `name` of
 * `object`, or undefined, by the steps of `runtime.isOwn`. The `in` test first (it calls
 * no getter) lets the optimizer know the object's map, and with it fold the prototype
 * checks that follow to nothing; its "no" goes to `hasOwn`, as a proxy's `has` trap can
 * hide an own property.
 */
function writeOwnRead(out: Writer, target: string, object: string, name: string): void {
  const key = literal(name);
  out.line(`let ${target};`);
  out.open(`if (${key} in ${object}) {`);
  out.line(`const p = getPrototypeOf(${object});`);
  out.line(`if ((p === OBJECT_PROTOTYPE ? !(${key} in OBJECT_PROTOTYPE) : p === null) || hasOwn(${object}, ${key})) ${target} = ${object}[${key}];`);
  out.close(`} else if (hasOwn(${object}, ${key})) {`);
  out.indented(`${target} = ${object}[${key}];`);
  out.line('}');
}

function describeCondition(condition: ConditionShape): string {
  const tests = condition.tests.map((t) => (t.kind === 'like' ? `like ${t.form}` : t.kind)).join(', ');
  return `${condition.type}${condition.array === undefined ? '' : ' in each element'}, ${condition.path.length} name(s), ${tests}`;
}

/** The function testing one element of a child array: as the item's tests, on the element. */
function writeElementTest(out: Writer, condition: ConditionShape, index: number, first: number, caseInsensitive: boolean): void {
  out.open(`function element${index}(e) {`);
  out.line('if (typeof e !== "object" || e === null) return false;');
  writeTests(out, condition, 'e', first, caseInsensitive);
  out.line('return true;');
  out.close('}');
}

/** `runtime.someElement` inlined, calling its own element test. */
function writeScan(out: Writer, index: number): void {
  out.open(`function some${index}(list) {`);
  out.line('const n = list.length;');
  out.line('const plain = getPrototypeOf(list) === ARRAY_PROTOTYPE;');
  out.line('let holes = 0;');
  out.open('for (let i = 0; i < n; i++) {');
  out.open('try {');
  out.open('for (; i < n; i++) {');
  out.line('const e = (plain && !(i in ARRAY_PROTOTYPE)) || hasOwn(list, i) ? list[i] : undefined;');
  out.open('if (e !== undefined) {');
  out.line(`if (element${index}(e)) return true;`);
  out.close('} else if (++holes > HOLE_SLACK && holes > i + 1 - holes) {');
  out.indented(`return someExisting(list, i + 1, n, element${index});`);
  out.line('}');
  out.close('}');
  out.close('} catch {');
  out.indented('// Element i could not be read or tested: it does not match, and the scan goes on after it.');
  out.line('}');
  out.close('}');
  out.line('return false;');
  out.close('}');
}

/**
 * The tests of a condition on the object its path starts from (`object`): walk the
 * path, read the leaf, `return false` unless every test holds.
 */
function writeTests(out: Writer, condition: ConditionShape, object: string, first: number, caseInsensitive: boolean): void {
  const path = condition.path;
  for (let i = 0; i < path.length - 1; i++) {
    const next = `o${i}`;
    writeOwnRead(out, next, object, path[i]!);
    out.line(`if (typeof ${next} !== "object" || ${next} === null) return false;`);
    object = next;
  }
  writeOwnRead(out, 'x', object, path[path.length - 1]!);
  const v = (k: number): string => `v${first + k}`;
  switch (condition.type) {
    case 'number':
      out.line('const n = typeof x === "number" ? x : numberOf(x);');
      out.line(`if (!(n >= ${v(0)} && n <= ${v(1)})) return false;`);
      return;
    case 'date':
      out.line('const t = instantOf(x);');
      out.line(`if (!(t >= ${v(0)} && t < ${v(1)})) return false;`);
      return;
    case 'string':
    case 'id':
      writeTextTests(out, condition, first, caseInsensitive);
  }
}

function writeTextTests(out: Writer, condition: ConditionShape, first: number, caseInsensitive: boolean): void {
  const isId = condition.type === 'id';
  const tests = condition.tests;
  // One equality without folding: the value itself is compared, no text is made.
  if (tests.length === 1 && tests[0]!.kind === 'equal' && !caseInsensitive) {
    out.line(isId ? `if (!(x === v${first} || x === v${first + 1})) return false;` : `if (x !== v${first}) return false;`);
    return;
  }
  if (isId) {
    out.line('const raw = idText(x);');
    out.line('if (raw === undefined) return false;');
  } else {
    out.line('if (typeof x !== "string") return false;');
  }
  out.line(`const s = ${caseInsensitive ? `foldCase(${isId ? 'raw' : 'x'})` : isId ? 'raw' : 'x'};`);
  let at = first;
  for (const test of tests) {
    const check = textCheck(test, at);
    if (check !== undefined) out.line(`if (!(${check})) return false;`);
    at += valueCount(test, condition.type);
  }
}

/** The test of one text condition on `s`, or nothing for a pattern that matches any text. */
function textCheck(test: TestShape, at: number): string | undefined {
  const v = (k: number): string => `v${at + k}`;
  if (test.kind === 'equal') return `s === ${v(0)}`;
  if (test.kind !== 'like') throw new TypeError(`compile: a text condition has a ${test.kind} test`);
  switch (test.form) {
    case 'any':
      return undefined;
    case 'prefix':
      return `s.startsWith(${v(0)})`;
    case 'suffix':
      return `s.endsWith(${v(0)})`;
    case 'affix':
      return `s.length >= ${v(2)} && s.startsWith(${v(0)}) && s.endsWith(${v(1)})`;
    case 'contains':
      return `s.includes(${v(0)})`;
    case 'general':
      return `matchSegments(s, ${v(0)})`;
  }
}

/** Indented lines of source. */
class Writer {
  private readonly lines: string[] = [];
  private depth = 0;

  line(text: string): void {
    this.lines.push('  '.repeat(this.depth) + text);
  }

  /** A line one level deeper than the current one, without changing the level. */
  indented(text: string): void {
    this.lines.push('  '.repeat(this.depth + 1) + text);
  }

  open(text: string): void {
    this.line(text);
    this.depth++;
  }

  close(text: string): void {
    this.depth--;
    this.line(text);
  }

  text(): string {
    return this.lines.join('\n') + '\n';
  }
}

// ---------------------------------------------------------------- factories, cached by shape

/**
 * How many factories are kept. A server meets as many shapes as its clients send
 * different filter structures; the cache keeps those used most recently (a `Map` in
 * order of use: a hit moves its shape to the end, the first one goes), so a shape in
 * constant use stays whatever else comes and goes, and a shape dropped from it is
 * generated again when it comes back.
 */
const CACHE_SIZE = 256;
const factories = new Map<string, Factory>();

/** Whether `new Function` works here; false once it was refused (a CSP without `unsafe-eval`). */
let available = true;

/**
 * The predicate of a plan by generated code, or `undefined` where code cannot be
 * generated: then the caller falls back to the closures.
 */
export function generatedPredicate(plan: Plan): Predicate | undefined {
  if (!available) return undefined;
  const key = plan.key;
  let factory = factories.get(key);
  if (factory !== undefined) {
    factories.delete(key);
    factories.set(key, factory);
  } else {
    try {
      // eslint-disable-next-line @typescript-eslint/no-implied-eval -- reference §13: a fixed template, values bound.
      factory = (new Function('h', generate(plan.shape)) as (helpers: typeof HELPER_VALUES) => Factory)(HELPER_VALUES);
    } catch (error) {
      // EvalError: code generation from strings is disallowed. Anything else is a bug here.
      if (!(error instanceof EvalError)) throw error;
      available = false;
      return undefined;
    }
    if (factories.size >= CACHE_SIZE) factories.delete(factories.keys().next().value!);
    factories.set(key, factory);
  }
  return factory(plan.values);
}
