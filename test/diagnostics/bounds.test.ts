import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  catalog,
  check,
  formatDiagnostic,
  formatDiagnostics,
  invoices,
  parse,
  toProblemDetails,
  validate,
  vendors,
  type Diagnostic,
  type Result,
} from '../../src/index';

// reference §12: a query within the input limits never produces unbounded output. At most
// 100 diagnostics, the last saying how many more there were; user text in messages cut
// at 64 characters; rendering and problem+json bounded by that, whatever the query.

function errorsOf(result: Result<unknown>): readonly Diagnostic[] {
  if (result.ok) throw new Error('expected the query to be rejected');
  return result.errors;
}

/**
 * `n` problems within the default limits: parameters of 16 empty clauses (`;` × 15),
 * then one of fewer (a lone empty clause is an empty value).
 */
function emptyClauses(n: number): string {
  const params: string[] = [];
  for (let left = n; left > 0; left -= 16) params.push(`vendorName=${';'.repeat(Math.min(16, left) - 1)}`);
  return params.join('&');
}

describe('at most 100 diagnostics per query', () => {
  it('lists 99 problems and a LIMIT_EXCEEDED that counts the rest', () => {
    // 16 clauses of 132 invalid escapes: 2,112 problems in 4.2 KB (issue 14, item 2).
    const query = `vendorName=${Array.from({ length: 16 }, () => '\\q'.repeat(132)).join(';')}`;
    for (const errors of [errorsOf(check(query, vendors)), errorsOf(parse(query))]) {
      expect(errors).toHaveLength(100);
      expect(errors.slice(0, 99).every((d) => d.code === 'INVALID_ESCAPE')).toBe(true);
      expect(errors[99]).toEqual({
        code: 'LIMIT_EXCEEDED',
        message: 'The query has 2013 more problems, not listed: at most 100 diagnostics are reported at once.',
        hint: 'Fix the problems listed and send the query again to see the rest.',
        omitted: 2013,
      });
    }
  });

  it('lists exactly 100 problems whole, and cuts from 101', () => {
    expect(errorsOf(check(emptyClauses(100), vendors))).toHaveLength(100);
    expect(errorsOf(check(emptyClauses(100), vendors)).some((d) => d.omitted !== undefined)).toBe(false);
    const cut = errorsOf(check(emptyClauses(101), vendors));
    expect(cut).toHaveLength(100);
    expect(cut[99]).toMatchObject({ code: 'LIMIT_EXCEEDED', omitted: 2, message: expect.stringContaining('2 more problems') });
  });

  it('cuts type problems as well as syntax problems, in validate too', () => {
    const query = Array.from({ length: 64 }, () => `totalAmount=${Array(16).fill('x').join(';')}`).join('&');
    expect(errorsOf(check(query, invoices))[99]).toMatchObject({ code: 'LIMIT_EXCEEDED', omitted: 64 * 16 - 99 });
    const ast = parse(query);
    if (!ast.ok) throw new Error('parses');
    expect(errorsOf(validate(ast.value, invoices))[99]).toMatchObject({ code: 'LIMIT_EXCEEDED', omitted: 64 * 16 - 99 });
  });

  it('takes another bound from the maxDiagnostics limit, and refuses one below 1', () => {
    const errors = errorsOf(check(emptyClauses(10), vendors, { limits: { maxDiagnostics: 3 } }));
    expect(errors.map((d) => d.code)).toEqual(['EMPTY_CLAUSE', 'EMPTY_CLAUSE', 'LIMIT_EXCEEDED']);
    expect(errors[2]!.omitted).toBe(8);
    expect(errorsOf(check(emptyClauses(200), vendors, { limits: { maxDiagnostics: Infinity } }))).toHaveLength(200);
    expect(() => check('a=1', vendors, { limits: { maxDiagnostics: 0 } })).toThrow(/"maxDiagnostics" must be a positive integer/);
  });
});

describe('problem+json bodies are bounded', () => {
  it('cut the list as check does, and count what a cut list already left out', () => {
    const errors = errorsOf(check(emptyClauses(300), vendors));
    const body = toProblemDetails(errors, { maxDiagnostics: 10 });
    expect(body.errors).toHaveLength(10);
    expect(body.errors[9]).toMatchObject({ code: 'LIMIT_EXCEEDED', omitted: 291 });
    expect(body.detail).toMatch(/^The query has 300 problems, the first 9 listed in "errors"\. The first: /);
    expect(toProblemDetails(errors).detail).toMatch(/^The query has 300 problems, the first 99 listed in "errors"\./);
  });

  it('cut a long parameter at 64 characters, as messages do', () => {
    const key = 'k'.repeat(3900);
    const [error] = toProblemDetails(errorsOf(check(`${key}=1`, vendors))).errors;
    expect(error!.param).toBe(`${'k'.repeat(64)}…`);
    expect(error!.message).toBe(`Parameter "${'k'.repeat(64)}…" is not a filterable field of this resource.`);
  });

  it('stay small for the query of issue 14: 8 KB in, 8.85 MB out before', () => {
    const query = `${'a'.repeat(3900)}=${Array.from({ length: 16 }, () => '\\q'.repeat(132)).join(';')}`;
    const body = JSON.stringify(toProblemDetails(errorsOf(check(query, invoices))));
    expect(body.length).toBeLessThan(6 * query.length);
  });
});

describe('formatDiagnostic shows a long key or value around the span', () => {
  it('cuts the text 32 characters either side of the span, with "…" where text is left out', () => {
    const value = `${'a'.repeat(100)}\\q${'b'.repeat(100)}`;
    const [d] = errorsOf(check(`vendorName=${value}`, vendors));
    expect(formatDiagnostic(d!).split('\n').slice(1, 3)).toEqual([
      `  vendorName=…${'a'.repeat(32)}\\q${'b'.repeat(32)}…`,
      `  ${' '.repeat('vendorName=…'.length + 32)}^^`,
    ]);
  });

  it('shows at most 64 characters of a long span, then "…" after the carets', () => {
    const key = `${'a'.repeat(10)}-${'b'.repeat(200)}`;
    const d: Diagnostic = { code: 'INVALID_PATH', message: 'm', param: key, in: 'key', text: key, span: { start: 10, end: 211 } };
    expect(formatDiagnostic(d).split('\n').slice(1, 3)).toEqual([`  ${'a'.repeat(10)}-${'b'.repeat(63)}${'b'.repeat(32)}…`, `  ${' '.repeat(10)}${'^'.repeat(64)}…`]);
  });

  it('cuts the key before a value at 64 characters', () => {
    const [d] = errorsOf(check(`${'k'.repeat(100)}=`, vendors)).filter((e) => e.code === 'EMPTY_VALUE');
    expect(formatDiagnostic(d!).split('\n')[1]).toBe(`  ${'k'.repeat(64)}…=`);
  });

  it('never splits a surrogate pair at the edge of the window', () => {
    const value = `${'😀'.repeat(60)}\\q${'😀'.repeat(60)}`;
    const [d] = errorsOf(check(`vendorName=${value}`, vendors));
    expect(formatDiagnostic(d!).split('\n')[1]!.isWellFormed()).toBe(true);
  });
});

describe('messages and hints that repeat what was sent cut it at 64 characters', () => {
  const long = 'a'.repeat(5000);
  it.each([
    ['an empty value', `${long}=`, vendors],
    ['a stray %', `vendorName=${long}%`, vendors],
    ['an upper-case operator', `balance=GTE:${'1'.repeat(1000)}`, vendors],
    ['a + sent as a space', `balance=%20${'1'.repeat(1000)}`, vendors],
    ['thousands separators', `balance=${'1,000'.repeat(200).slice(0, 999)}`, vendors],
    ['a sort key with two -', `orderBy=--${long}`, invoices],
    ['a sort key after a space', `orderBy=%20${long}`, invoices],
    ['a sort direction as a word', `orderBy=${long}%20desc`, invoices],
    ['a page number after a space', `limit=%20${'1'.repeat(5000)}`, invoices],
  ])('%s', (_, query, schema) => {
    const errors = errorsOf(check(query, schema));
    for (const d of errors) {
      expect(d.message.length, d.message).toBeLessThan(300);
      expect((d.hint ?? '').length, d.hint).toBeLessThan(300);
    }
  });
});

// ---------------------------------------------------------------- the bound as a property

/** Pieces that each make one or more problems, or long text that messages might repeat. */
const hostilePiece = fc.oneof(
  fc.constant('\\q'),
  fc.constant(';'),
  fc.constant('gte:'),
  fc.constant('"a"b'),
  fc.constant('"open'),
  fc.constant('%'),
  fc.constant('%25'),
  fc.constant('%C3'),
  fc.constant('x'.repeat(300)),
  fc.constant('\u202e'),
  fc.constant('😀'),
  fc.constant('GTE:5'),
  fc.constant('1,000'),
  fc.constant('--'),
  fc.constant(' '),
  fc.constant(' desc'),
  fc.constant(','),
);
const hostileKey = fc.oneof(
  fc.constantFrom('totalAmount', 'vendorName', 'postedDate', 'customerRef.id', 'lines.amount', 'memo'),
  // The sort parameter and request parameters: their hints repeat what was sent too.
  fc.constantFrom('orderBy', 'limit', 'offset', 'businessName', 'startDate'),
  fc.constant('k'.repeat(2000)),
  fc.constant(`${'a'.repeat(1500)}-`),
  fc.constant('a..b'),
);
const hostileQuery = fc
  .array(fc.tuple(hostileKey, fc.array(hostilePiece, { maxLength: 40 })), { minLength: 1, maxLength: 64 })
  .map((params) => params.map(([key, pieces]) => `${key}=${pieces.join('')}`).join('&'))
  .filter((q) => q.length <= 8192);

describe('output bounded whatever the query (property)', () => {
  it('at most 100 diagnostics; each message, hint and rendered line of bounded size', () => {
    fc.assert(
      fc.property(hostileQuery, fc.constantFrom(...Object.values(catalog)), (query, schema) => {
        const result = check(query, schema);
        if (result.ok) return;
        expect(result.errors.length).toBeLessThanOrEqual(100);
        for (const d of result.errors) {
          // Fixed text, two quotes of at most 64 characters (each escaped character
          // at most 12), and for UNKNOWN_FIELD the schema's field list.
          expect(d.message.length).toBeLessThanOrEqual(1200);
          expect((d.hint ?? '').length).toBeLessThanOrEqual(1200);
          for (const line of formatDiagnostic(d).split('\n')) expect(line.length).toBeLessThanOrEqual(1300);
        }
        const body = JSON.stringify(toProblemDetails(result.errors));
        expect(body.length).toBeLessThanOrEqual(100 * 4000);
        expect(formatDiagnostics(result.errors).length).toBeLessThanOrEqual(100 * 4 * 1300);
      }),
      { numRuns: 200 },
    );
  });
});
