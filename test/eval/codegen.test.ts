import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { check, compile, defineSchema, generatedSource, type Filter } from '../../src/index';
import { invoices } from '../support/invoices';

function filterOf(query: string): Filter {
  const result = check(query, invoices);
  if (!result.ok) throw new Error(`${query}: ${JSON.stringify(result.errors)}`);
  return result.value;
}

describe('generatedSource: the code compile generates, printable', () => {
  it('prints readable source: the helpers, then per filter its values as constants, then the predicate', () => {
    const source = generatedSource(filterOf('totalAmount=gte:100;lt:200&customerRef.id=42'));
    expect(source).toBe(
      [
        '"use strict";',
        'const { OBJECT_PROTOTYPE, ARRAY_PROTOTYPE, getPrototypeOf, hasOwn, isArray, numberOf, idText, instantOf, foldCase, matchSegments, someExisting, HOLE_SLACK } = h;',
        'return function bind(v) {',
        '  const v0 = v[0], v1 = v[1], v2 = v[2], v3 = v[3];',
        '  return function matches(item) {',
        '    try {',
        '      if (typeof item !== "object" || item === null) return false;',
        '      { // condition 0: number, 1 name(s), range',
        '        let x;',
        '        if ("totalAmount" in item) {',
        '          const p = getPrototypeOf(item);',
        '          if ((p === OBJECT_PROTOTYPE ? !("totalAmount" in OBJECT_PROTOTYPE) : p === null) || hasOwn(item, "totalAmount")) x = item["totalAmount"];',
        '        } else if (hasOwn(item, "totalAmount")) {',
        '          x = item["totalAmount"];',
        '        }',
        '        const n = typeof x === "number" ? x : numberOf(x);',
        '        if (!(n >= v0 && n <= v1)) return false;',
        '      }',
        '      { // condition 1: id, 2 name(s), equal',
        '        let o0;',
        '        if ("customerRef" in item) {',
        '          const p = getPrototypeOf(item);',
        '          if ((p === OBJECT_PROTOTYPE ? !("customerRef" in OBJECT_PROTOTYPE) : p === null) || hasOwn(item, "customerRef")) o0 = item["customerRef"];',
        '        } else if (hasOwn(item, "customerRef")) {',
        '          o0 = item["customerRef"];',
        '        }',
        '        if (typeof o0 !== "object" || o0 === null) return false;',
        '        let x;',
        '        if ("id" in o0) {',
        '          const p = getPrototypeOf(o0);',
        '          if ((p === OBJECT_PROTOTYPE ? !("id" in OBJECT_PROTOTYPE) : p === null) || hasOwn(o0, "id")) x = o0["id"];',
        '        } else if (hasOwn(o0, "id")) {',
        '          x = o0["id"];',
        '        }',
        '        if (!(x === v2 || x === v3)) return false;',
        '      }',
        '      return true;',
        '    } catch {',
        '      // Only a getter or a proxy in the data can throw; such an item does not match.',
        '      return false;',
        '    }',
        '  };',
        '};',
        '',
      ].join('\n'),
    );
  });

  it('is the same source for the same shape, whatever the values', () => {
    const a = generatedSource(filterOf('totalAmount=gt:1&lines.description=%25fee%25'));
    expect(generatedSource(filterOf('totalAmount=lte:99.5&lines.description=%25travel%25'))).toBe(a);
    // Another shape is another source: a prefix instead of "contains", folded case.
    expect(generatedSource(filterOf('totalAmount=gt:1&lines.description=fee%25'))).not.toBe(a);
    expect(generatedSource(filterOf('totalAmount=gt:1&lines.description=%25fee%25'), { caseInsensitive: true })).not.toBe(a);
  });

  it('has one form for an empty filter: everything matches', () => {
    expect(generatedSource(filterOf(''))).toContain('return true;');
    expect(compile(filterOf(''))(null)).toBe(true);
  });
});

describe('conditions run cheapest first', () => {
  it('puts scalar comparisons before text scans, and both before child-array scans', () => {
    const source = generatedSource(filterOf('lines.amount=5&issueDate=2023-01-09&docNumber=%25A%25&currency=EUR&totalAmount=5'));
    const order = [...source.matchAll(/\/\/ condition \d+: (.*)/g)].map((m) => m[1]);
    expect(order).toEqual([
      'string, 1 name(s), equal',
      'number, 1 name(s), range',
      'date, 1 name(s), instant',
      'string, 1 name(s), like contains',
      'number in each element, 1 name(s), range',
    ]);
  });

  it.each([true, false])('never scans the array of an item whose scalar test fails (codegen: %s)', (codegen) => {
    let scans = 0;
    const item = { totalAmount: 1 };
    Object.defineProperty(item, 'lines', { enumerable: true, get: () => (scans++, [{ amount: 5 }]) });
    const matches = compile(filterOf('lines.amount=5&totalAmount=2'), { codegen });
    expect(matches(item)).toBe(false);
    expect(scans).toBe(0);
    item.totalAmount = 2;
    expect(matches(item)).toBe(true);
    expect(scans).toBe(1);
  });

  it('tests equality before patterns within one parameter', () => {
    const source = generatedSource(filterOf('docNumber=%25A%25;INV-A'));
    expect(source.indexOf('s === v')).toBeLessThan(source.indexOf('s.includes('));
  });
});

describe('the cache of generated code, by shape', () => {
  // Fields no other test filters on, so that every shape here is new to the module's cache.
  const many = defineSchema({ fields: Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`cached${i}`, 'number' as const])) });
  const shape = (i: number, low = 1): Filter => {
    const result = check(`cached${i}=gte:${low};lte:${low + 4}`, many);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    return result.value;
  };

  /** Runs `work` and counts the functions it generated (`new Function` calls). */
  function generated(work: () => void): number {
    const original = globalThis.Function;
    let count = 0;
    globalThis.Function = new Proxy(original, {
      construct(target, args: unknown[]) {
        count++;
        return Reflect.construct(target, args) as object;
      },
    });
    try {
      work();
    } finally {
      globalThis.Function = original;
    }
    return count;
  }

  it('generates a shape once: the same shape with other values reuses it', () => {
    expect(generated(() => compile(shape(0)))).toBe(1);
    expect(generated(() => compile(shape(0, 100)))).toBe(0);
    expect(compile(shape(0, 100))({ cached0: 102 })).toBe(true);
    expect(compile(shape(0))({ cached0: 102 })).toBe(false);
  });

  it('keeps the shapes used most recently: one in constant use survives any number of new ones', () => {
    expect(generated(() => compile(shape(1)))).toBe(1);
    // 256 shapes fill the cache; shape 1, used every 100 new shapes, is never the oldest in use.
    const made = generated(() => {
      for (let i = 2; i < 600; i++) {
        compile(shape(i));
        if (i % 100 === 0) compile(shape(1, i));
      }
    });
    expect(made).toBe(598);
    expect(generated(() => compile(shape(1, 7)))).toBe(0);
    // The least recently used ones went: shape 2 is generated again.
    expect(generated(() => compile(shape(2)))).toBe(1);
  });
});

describe('without code generation', () => {
  const queries = ['totalAmount=gte:100;lt:200', 'customerRef.id=42', 'lines.description=%25fee%25&currency=EUR', 'issueDate=2023-01-09'];
  const items: unknown[] = [
    { totalAmount: 150, customerRef: { id: 42 }, currency: 'EUR', lines: [{ description: 'a fee' }], issueDate: '2023-01-09T10:00:00Z' },
    { totalAmount: '199.99', customerRef: { id: '42' }, currency: 'USD', lines: [], issueDate: '2023-01-10' },
    { totalAmount: 200, customerRef: { id: 7 }, currency: 'EUR', lines: [, { description: 'fee' }], issueDate: '2023-01-09' }, // eslint-disable-line no-sparse-arrays
    null,
  ];
  const expected = queries.map((q) => {
    const predicate = compile(filterOf(q));
    return items.flatMap((item, i) => (predicate(item) ? [i] : []));
  });

  it('runs the closures where new Function is refused, as under a CSP without unsafe-eval', () => {
    const child = fileURLToPath(new URL('../support/no-eval-child.ts', import.meta.url));
    const out = execFileSync(process.execPath, ['--disallow-code-generation-from-strings', '--import', 'tsx', child, JSON.stringify({ queries, items })], {
      encoding: 'utf8',
    });
    expect(JSON.parse(out)).toEqual({ refused: true, accepted: expected });
    expect(expected.flat().length).toBeGreaterThan(4);
  });

  it('runs the closures with { codegen: false }, with the same answers', () => {
    const accepted = queries.map((q) => {
      const predicate = compile(filterOf(q), { codegen: false });
      return items.flatMap((item, i) => (predicate(item) ? [i] : []));
    });
    expect(accepted).toEqual(expected);
  });
});

describe('compile: wrong arguments are TypeErrors that say what was expected', () => {
  const filter = filterOf('totalAmount=5');
  const condition = filter.conditions[0]!;
  const withCondition = (c: Record<string, unknown>): unknown => ({ type: 'Filter', conditions: [{ ...condition, ...c }], params: {} });
  it.each<[string, unknown, unknown, RegExp]>([
    ['no filter', undefined, undefined, /^compile: the filter must be a Filter \(the value of a successful check\(\) or validate\(\)\), not undefined\.$/],
    ['a query string', 'totalAmount=5', undefined, /the filter must be a Filter \(the value of a successful check\(\) or validate\(\)\), not the string "totalAmount=5"\.$/],
    ['a Result, not its value', check('totalAmount=5', invoices), undefined, /the filter must be a Filter \(the value of a successful check\(\) or validate\(\)\), not an object\. This is a Result: check result\.ok, then pass result\.value\.$/],
    ['an AST', { type: 'Query', filters: [], params: {} }, undefined, /the filter must be a Filter \(the value of a successful check\(\) or validate\(\)\), not an object\. This is a syntax tree: validate\(ast, schema\) makes its Filter\.$/],
    ['no conditions', { type: 'Filter' }, undefined, /the "conditions" of the filter must be an array, not undefined\.$/],
    ['an unknown type', withCondition({ type: 'money' }), undefined, /the type of the condition on "totalAmount" must be one of "number", "string", "date", "id", not the string "money"\.$/],
    ['a path that is no array', withCondition({ path: 'totalAmount' }), undefined, /the path of the condition on "totalAmount" must be a non-empty array of field names, not the string "totalAmount"\.$/],
    ['a reserved name', withCondition({ path: ['__proto__'] }), undefined, /each name in the path of the condition on "totalAmount" must be a field name \(reference §3\), not the string "__proto__"\.$/],
    ['a name that is no name', withCondition({ path: ['a"]; alert(1); //'] }), undefined, /each name in the path of the condition on "totalAmount" must be a field name \(reference §3\), not the string "a"\]; alert\(1\); \/\/"\.$/],
    ['an array name that is no name', withCondition({ array: 'a b' }), undefined, /the array of the condition on "totalAmount" must be a field name \(reference §3\), not the string "a b"\.$/],
    ['no tests', withCondition({ tests: [] }), undefined, /the tests of the condition on "totalAmount" must be a non-empty array, not an empty array\.$/],
    ['a test of another type', withCondition({ tests: [{ op: 'eq', value: '5' }] }), undefined, /test 0 of the condition on "totalAmount" must be \{ op, value \} with an operator \(eq, gt, gte, lt, lte\) and a finite number, not an object\.$/],
    ['an unknown operator', withCondition({ tests: [{ op: 'ne', value: 5 }] }), undefined, /test 0 of the condition on "totalAmount" must be \{ op, value \} with an operator/],
    ['options that are no object', filter, true, /^compile: the options must be an object \(caseInsensitive, codegen\), not the boolean true\.$/],
    ['options of the wrong type', filter, { caseInsensitive: 'yes' }, /^compile: "caseInsensitive" must be true or false, not the string "yes"\.$/],
    ['codegen of the wrong type', filter, { codegen: 0 }, /^compile: "codegen" must be true or false, not the number 0\.$/],
    ['a misspelt option', filter, { caseInsensitve: true }, /^compile: unknown option "caseInsensitve"; the options are caseInsensitive, codegen\.$/],
  ])('%s', (_what, badFilter, options, message) => {
    expect(() => compile(badFilter as Filter, options as never)).toThrow(TypeError);
    expect(() => compile(badFilter as Filter, options as never)).toThrow(message);
  });

  it('generatedSource takes caseInsensitive only: it generates whatever codegen says', () => {
    expect(() => generatedSource(filter, { codegen: false } as never)).toThrow(/^generatedSource: unknown option "codegen"; the options are caseInsensitive\.$/);
  });

  it('ignores the fields it does not read (params, sort, page, and what a later version adds)', () => {
    const extended = { ...filter, sort: [{ path: 'totalAmount', direction: 'desc' }], page: { limit: 10, offset: 0 }, later: true } as unknown as Filter;
    expect(compile(extended)({ totalAmount: 5 })).toBe(true);
    expect(compile(filter, { caseInsensitive: undefined, codegen: undefined } as never)({ totalAmount: 5 })).toBe(true);
  });
});
