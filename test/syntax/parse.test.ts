import { describe, expect, it } from 'vitest';
import { parse, type Diagnostic, type FilterAst, type QueryInput } from '../../src/index';
import { summarize } from '../support/summary';

/** The errors of a parse that must fail. */
function errorsOf(input: QueryInput, options?: Parameters<typeof parse>[1]): readonly Diagnostic[] {
  const result = parse(input, options);
  if (result.ok) throw new Error(`expected ${JSON.stringify(input)} to fail, got ${JSON.stringify(summarize(result.value))}`);
  return result.errors;
}

/** The tree of a parse that must succeed. */
function astOf(input: QueryInput, options?: Parameters<typeof parse>[1]): FilterAst {
  const result = parse(input, options);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(input)} to parse, got ${JSON.stringify(result.errors)}`);
  return result.value;
}

describe('parse: one diagnostic per problem', () => {
  // Every code parse can report, with where it points. `text` is what `span` indexes:
  // the decoded key or value, or for MALFORMED_ENCODING the component as sent.
  it.each([
    { code: 'MALFORMED_ENCODING', input: 'vendorName=%acme%', param: 'vendorName', in: 'value', text: '%acme%', span: [0, 3], shows: '%ac' },
    { code: 'MALFORMED_ENCODING', input: '%zz=1', param: '%zz', in: 'key', text: '%zz', span: [0, 3], shows: '%zz' },
    { code: 'INVALID_PARAMETER', input: { 'customerRef': { id: '42' } }, param: 'customerRef', in: 'value', text: '', span: undefined, shows: undefined },
    { code: 'EMPTY_VALUE', input: 'totalAmount=', param: 'totalAmount', in: 'value', text: '', span: [0, 0], shows: '' },
    { code: 'EMPTY_VALUE', input: 'totalAmount', param: 'totalAmount', in: 'value', text: '', span: [0, 0], shows: '' },
    { code: 'EMPTY_CLAUSE', input: 'totalAmount=1;;2', param: 'totalAmount', in: 'value', text: '1;;2', span: [2, 2], shows: '' },
    { code: 'EMPTY_OPERAND', input: 'totalAmount=gte:', param: 'totalAmount', in: 'value', text: 'gte:', span: [0, 4], shows: 'gte:' },
    { code: 'UNTERMINATED_QUOTE', input: 'vendorName=%22Acme', param: 'vendorName', in: 'value', text: '"Acme', span: [0, 5], shows: '"Acme' },
    { code: 'UNEXPECTED_TEXT', input: 'vendorName=%22Acme%22%20Corp', param: 'vendorName', in: 'value', text: '"Acme" Corp', span: [6, 11], shows: ' Corp' },
    { code: 'INVALID_ESCAPE', input: 'vendorName=A%5CB', param: 'vendorName', in: 'value', text: 'A\\B', span: [1, 3], shows: '\\B' },
    { code: 'INVALID_PATH', input: 'customerRef..id=42', param: 'customerRef..id', in: 'key', text: 'customerRef..id', span: [12, 13], shows: '.' },
    { code: 'INVALID_PATH', input: 'customerRef.__proto__=1', param: 'customerRef.__proto__', in: 'key', text: 'customerRef.__proto__', span: [12, 21], shows: '__proto__' },
    { code: 'INVALID_PATH', input: '=42', param: '', in: 'key', text: '', span: [0, 0], shows: '' },
    { code: 'LIMIT_EXCEEDED', input: 'lines.a.b.c.d=1', param: 'lines.a.b.c.d', in: 'key', text: 'lines.a.b.c.d', span: [0, 13], shows: 'lines.a.b.c.d' },
    { code: 'LIMIT_EXCEEDED', input: `vendorName=${'%25x'.repeat(17)}`, param: 'vendorName', in: 'value', text: '%x'.repeat(17), span: [0, 34], shows: '%x'.repeat(17) },
  ] as const)('$code: $input', (row) => {
    const errors = errorsOf(row.input as QueryInput);
    expect(errors).toHaveLength(1);
    const d = errors[0]!;
    expect(d.code).toBe(row.code);
    expect(d.param).toBe(row.param);
    expect(d.in).toBe(row.in);
    expect(d.text).toBe(row.text);
    expect(d.span === undefined ? undefined : [d.span.start, d.span.end]).toEqual(row.span);
    if (d.span !== undefined) expect(row.text.slice(d.span.start, d.span.end)).toBe(row.shows);
    expect(d.message).toContain(`"${row.param}"`);
    expect(d.hint).toEqual(expect.stringMatching(/\S/));
  });

  it.each([
    { what: 'too many parameters', code: 'LIMIT_EXCEEDED', input: 'a=1&b=2&c=3', limits: { maxParams: 2 } },
    { what: 'query too long', code: 'LIMIT_EXCEEDED', input: 'a=12345', limits: { maxQueryLength: 6 } },
    { what: 'not a query at all', code: 'INVALID_PARAMETER', input: 42 as unknown as QueryInput, limits: {} },
  ])('a whole-query problem has no param: $what', ({ code, input, limits }) => {
    const errors = errorsOf(input, { limits });
    expect(errors).toHaveLength(1);
    const d = errors[0]!;
    expect(d.code).toBe(code);
    expect(d).not.toHaveProperty('param');
    expect(d).not.toHaveProperty('span');
    expect(d.message).toEqual(expect.stringMatching(/\S/));
    expect(d.hint).toEqual(expect.stringMatching(/\S/));
  });

  it('hints at %25 for a bare % and at quoting for an operator with nothing after it', () => {
    expect(errorsOf('vendorName=%acme%')[0]!.hint).toContain('%25');
    expect(errorsOf('name=gte:')[0]!.hint).toContain('"gte:"');
  });

  it('reports every problem of every parameter together', () => {
    const errors = errorsOf('totalAmount=gte:;lt:5;&customerRef..id=42&vendorName=%22Acme&memo=a%5Cb&issueDate=');
    expect(errors.map((d) => [d.code, d.param])).toEqual([
      ['EMPTY_OPERAND', 'totalAmount'],
      ['EMPTY_CLAUSE', 'totalAmount'],
      ['INVALID_PATH', 'customerRef..id'],
      ['UNTERMINATED_QUOTE', 'vendorName'],
      ['INVALID_ESCAPE', 'memo'],
      ['EMPTY_VALUE', 'issueDate'],
    ]);
  });

  it('reports a problem in the key and one in the value of the same parameter', () => {
    expect(errorsOf('a..b=x%5C').map((d) => [d.code, d.in])).toEqual([
      ['INVALID_PATH', 'key'],
      ['INVALID_ESCAPE', 'value'],
    ]);
  });
});

describe('parse: the tree', () => {
  it('gives every node a span in its decoded key or value', () => {
    const param = astOf('customerRef.id=gte:100;lte:%22a%20b%22').filters[0];
    expect(param).toEqual({
      type: 'Param',
      key: 'customerRef.id',
      value: 'gte:100;lte:"a b"',
      path: {
        type: 'Path',
        names: [
          { type: 'Name', value: 'customerRef', span: { start: 0, end: 11 } },
          { type: 'Name', value: 'id', span: { start: 12, end: 14 } },
        ],
        span: { start: 0, end: 14 },
      },
      clauses: [
        { type: 'Clause', operator: 'gte', operand: { type: 'Literal', value: '100', span: { start: 4, end: 7 } }, span: { start: 0, end: 7 } },
        // A quoted operand's span includes its quotes.
        { type: 'Clause', operator: 'lte', operand: { type: 'Literal', value: 'a b', span: { start: 12, end: 17 } }, span: { start: 8, end: 17 } },
      ],
      span: { start: 0, end: 17 },
    });
  });

  it('splits a pattern at its wildcards, with the span of the whole operand', () => {
    const clause = astOf('vendorName=%25ac\\%25me%25').filters[0]!.clauses[0];
    expect(clause).toEqual({
      type: 'Clause',
      operator: 'eq',
      operand: { type: 'Pattern', segments: ['', 'ac%me', ''], span: { start: 0, end: 8 } },
      span: { start: 0, end: 8 },
    });
  });

  it('keeps filters in query order, repeated keys included', () => {
    const ast = astOf('value=gte:1&vendorName=x&value=lte:5');
    expect(ast.filters.map((p) => [p.key, p.clauses[0]!.operator])).toEqual([
      ['value', 'gte'],
      ['vendorName', 'eq'],
      ['value', 'lte'],
    ]);
  });

  it('passes the declared request parameters through, from any iterable', () => {
    const ast = astOf('businessName=Acme&value=gt:1000&businessName=Acme%20UK&reportFrequency=month', {
      params: new Set(['businessName', 'reportFrequency']),
    });
    expect(ast.params).toEqual({ businessName: ['Acme', 'Acme UK'], reportFrequency: 'month' });
    expect(ast.filters.map((p) => p.key)).toEqual(['value']);
  });

  it('accepts a query with no filter at all', () => {
    expect(parse('')).toEqual({ ok: true, value: { type: 'Query', filters: [], params: {} } });
    expect(parse({})).toEqual({ ok: true, value: { type: 'Query', filters: [], params: {} } });
  });

  it('refuses a limit that is not a non-negative integer: a programmer error, thrown', () => {
    expect(() => parse('a=1', { limits: { maxParams: -1 } })).toThrow(TypeError);
    expect(() => parse('a=1', { limits: { maxParams: 1.5 } })).toThrow(TypeError);
    expect(() => parse('a=1', { limits: { maxParms: 1 } as never })).toThrow(/unknown limit "maxParms"; the limits are maxQueryLength/);
    expect(parse('a=1', { limits: { maxParams: Infinity } }).ok).toBe(true);
  });
});

describe('options that are programmer errors', () => {
  it('refuses pass-through keys given as a string, which would be read letter by letter', () => {
    expect(() => parse('a=1', { params: 'businessName' as unknown as string[] })).toThrow(TypeError);
  });

  it('refuses "__proto__" as a pass-through key, which no record can hold', () => {
    expect(() => parse('a=1', { params: ['__proto__'] })).toThrow(/__proto__/);
    expect(() => parse('a=1', { params: new Set(['__proto__']) })).toThrow(TypeError);
  });

  it('takes pass-through keys as an array or a Set alike', () => {
    const fromArray = parse('businessName=A&b=1', { params: ['businessName'] });
    const fromSet = parse('businessName=A&b=1', { params: new Set(['businessName']) });
    expect(fromSet).toEqual(fromArray);
    expect(fromArray.ok && fromArray.value.params).toEqual({ businessName: 'A' });
  });
});

describe('the stack traces of the parser', () => {
  // A refused clause costs Chevrotain an exception, caught again inside the parse; the
  // parse captures no stack trace for it, and leaves the process's setting as it found it.
  it('puts Error.stackTraceLimit back after a parse that refused clauses', () => {
    const before = Error.stackTraceLimit;
    try {
      Error.stackTraceLimit = 7;
      expect(parse('a="x"y;;gte:&orderBy=a,,-').ok).toBe(false);
      expect(Error.stackTraceLimit).toBe(7);
    } finally {
      Error.stackTraceLimit = before;
    }
  });

  it('parses as usual where the setting cannot be changed', () => {
    const descriptor = Object.getOwnPropertyDescriptor(Error, 'stackTraceLimit')!;
    try {
      Object.defineProperty(Error, 'stackTraceLimit', { ...descriptor, writable: false });
      const result = parse('a="x"y;;gte:');
      expect(result.ok ? [] : result.errors.map((d) => d.code)).toEqual(['UNEXPECTED_TEXT', 'EMPTY_CLAUSE', 'EMPTY_OPERAND']);
    } finally {
      Object.defineProperty(Error, 'stackTraceLimit', descriptor);
    }
  });
});

describe('refusing a query of thousands of problems, with the limits lifted', () => {
  // Chevrotain's recovery re-enters a repetition, one level of recursion deeper, for each
  // error it resyncs inside it: the lexer makes sure nothing but a separator follows a
  // clause or a sort key, and a key with junk is explained by it, not parsed.
  const LIFTED = { limits: { maxQueryLength: Infinity, maxParams: Infinity, maxClauses: Infinity, maxOperandLength: Infinity, maxWildcards: Infinity, maxPathDepth: Infinity } };
  it.each([
    ['text after quotes', `a=${'"a"b;'.repeat(5000)}`],
    ['operators with nothing after them', `a=${'gte:;'.repeat(5000)}`],
    ['empty clauses', `a=${';'.repeat(20000)}`],
    ['junk between the names of a key', `${'a-b.'.repeat(5000)}c=1`],
    ['sort keys with a - inside', `orderBy=${'a-b,'.repeat(5000)}c`],
    ['sort keys with junk', `orderBy=${'a b.c d,'.repeat(3000)}c`],
  ])('%s: a result, not a thrown error', (_name, query) => {
    const result = parse(query, LIFTED);
    expect(result.ok).toBe(false);
  });
});
