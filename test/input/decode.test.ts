import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { parse, type Diagnostic, type QueryInput } from '../../src/index';
import { decodeComponent, findEncodingError } from '../../src/input/decode';
import { summarize, type AstSummary } from '../support/summary';

function summaryOf(input: QueryInput, params?: string[]): AstSummary {
  const result = parse(input, params === undefined ? undefined : { params });
  if (!result.ok) throw new Error(`expected ${String(input)} to parse, got ${JSON.stringify(result.errors)}`);
  return summarize(result.value);
}

function errorsOf(input: QueryInput, options?: Parameters<typeof parse>[1]): readonly Diagnostic[] {
  const result = parse(input, options);
  if (result.ok) throw new Error(`expected ${String(input)} to fail`);
  return result.errors;
}

/** `customerRef.id=42&vendorName=%acme%` (a contains filter), in every form of reference §2. */
const EXPECTED: AstSummary = {
  filters: [
    { key: 'customerRef.id', path: ['customerRef', 'id'], clauses: [['eq', '42']] },
    { key: 'vendorName', path: ['vendorName'], clauses: [['eq', ['', 'acme', '']]] },
  ],
  params: {},
};

describe('input forms (reference §2)', () => {
  it.each<[string, () => QueryInput]>([
    ['raw query string', () => 'customerRef.id=42&vendorName=%25acme%25'],
    ['raw query string with ?', () => '?customerRef.id=42&vendorName=%25acme%25'],
    ['full URL string, fragment ignored', () => 'https://api.example.com/invoices?customerRef.id=42&vendorName=%25acme%25#page=2'],
    ['absolute path', () => '/invoices?customerRef.id=42&vendorName=%25acme%25'],
    ['URL', () => new URL('https://api.example.com/invoices?customerRef.id=42&vendorName=%25acme%25#page=2')],
    ['URLSearchParams', () => new URLSearchParams('customerRef.id=42&vendorName=%25acme%25')],
    ['record of strings', () => ({ 'customerRef.id': '42', vendorName: '%acme%' })],
    ['record of string lists', () => ({ 'customerRef.id': ['42'], vendorName: ['%acme%'] })],
    ['record without a prototype', () => Object.assign(Object.create(null) as object, { 'customerRef.id': '42', vendorName: '%acme%' })],
    ['record with an undefined value', () => ({ 'customerRef.id': '42', vendorName: '%acme%', sort: undefined })],
  ])('%s', (_name, input) => {
    expect(summaryOf(input())).toEqual(EXPECTED);
  });

  it('takes a repeated key from a record as a list', () => {
    expect(summaryOf({ value: ['gte:1', 'lte:5'] }).filters.map((f) => f.clauses)).toEqual([[['gte', '1']], [['lte', '5']]]);
  });

  it('decodes a URL from its encoded search, strictly', () => {
    // URL keeps "%acme%" as written, so the bare % is found; URLSearchParams cannot tell.
    expect(errorsOf(new URL('https://x.example/?vendorName=%acme%')).map((d) => d.code)).toEqual(['MALFORMED_ENCODING']);
    expect(summaryOf(new URL('https://x.example/?vendorName=Caf%C3%A9+%26+co')).filters[0]!.clauses).toEqual([['eq', 'Café & co']]);
  });

  it('takes URLSearchParams values as already decoded', () => {
    expect(summaryOf(new URLSearchParams({ a: '%25' })).filters[0]!.clauses).toEqual([['eq', ['', '25']]]);
  });

  it('refuses a record value that is an object, as qs makes of a[b]=1', () => {
    const [d, ...rest] = errorsOf({ a: { b: '1' }, vendorName: 'x' } as unknown as QueryInput);
    expect(rest).toEqual([]);
    expect(d).toMatchObject({ code: 'INVALID_PARAMETER', param: 'a', in: 'value' });
    expect(d!.message).toContain('"a"');
    expect(d!.hint).toContain('customerRef.id');
  });

  it.each<[string, unknown]>([
    ['a number', 5],
    ['null', null],
    ['a boolean', true],
    ['a list with a number', ['1', 2]],
    ['a list with an object', [{}]],
    // eslint-disable-next-line no-sparse-arrays
    ['a list with a hole', [, '1']],
  ])('refuses a record value that is %s', (_name, value) => {
    const errors = errorsOf({ a: value } as unknown as QueryInput);
    expect(errors.map((d) => [d.code, d.param])).toEqual([['INVALID_PARAMETER', 'a']]);
    expect(errors[0]!.hint).toEqual(expect.stringMatching(/\S/));
  });

  // Found by the parse property (seed -1039309078): the key of a value that is no string
  // went unchecked, and its NUL, the lexer's separator, gave a wildcard limit a span of -1.
  it('checks the key of a record value that is no string, as of any other', () => {
    const errors = errorsOf({ '\u0000%00': 0 } as unknown as QueryInput, { limits: { maxWildcards: 0 } });
    expect(errors.map((d) => [d.code, d.in])).toEqual([
      ['MALFORMED_ENCODING', 'key'],
      ['INVALID_PARAMETER', 'value'],
    ]);
    expect(errors[0]!.span).toEqual({ start: 0, end: 1 });
  });

  it.each<[string, unknown]>([
    ['a number', 42],
    ['null', null],
    ['undefined', undefined],
    ['a boolean', false],
    ['an array', ['a=1']],
    ['a function', () => 'a=1'],
  ])('refuses an input that is %s', (_name, input) => {
    const errors = errorsOf(input as QueryInput);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'INVALID_PARAMETER' });
    expect(errors[0]).not.toHaveProperty('param');
    expect(errors[0]!.hint).toEqual(expect.stringMatching(/\S/));
  });

  it.each<[string, unknown, string]>([
    ['a Map', new Map([['totalAmount', 'gte:5']]), 'a Map'],
    ['a class instance', new (class Query { totalAmount = 'gte:5'; })(), 'an instance of Query'],
    ['a Date', new Date(0), 'a Date'],
  ])('refuses %s, which is not a plain record and would otherwise match everything', (_name, input, named) => {
    const errors = errorsOf(input as QueryInput);
    expect(errors.map((d) => d.code)).toEqual(['INVALID_PARAMETER']);
    expect(errors[0]!.message).toContain(named);
  });

  it('reports an object whose properties cannot be read instead of throwing', () => {
    const hostile = new Proxy({}, { ownKeys: () => { throw new Error('no'); } });
    expect(errorsOf(hostile).map((d) => d.code)).toEqual(['INVALID_PARAMETER']);
    // Nor its prototype, nor anything at all: a revoked proxy, or a URLSearchParams whose entries throw.
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();
    const prototypeless = new Proxy({}, { getPrototypeOf: () => { throw new Error('no'); } });
    const entries = new (class extends URLSearchParams {
      override entries(): never {
        throw new Error('no');
      }
    })('a=1');
    for (const input of [revoked, prototypeless, entries]) {
      expect(errorsOf(input as QueryInput)).toEqual([{ code: 'INVALID_PARAMETER', message: 'The query object could not be read.', hint: 'Pass a plain object of strings.' }]);
    }
  });

  it('takes a plain object of another realm as the record it is', () => {
    const record = runInNewContext('({ vendorName: "Acme", lines: ["a", "b"] })') as QueryInput;
    expect(parse(record)).toMatchObject({ ok: true, value: { filters: [{ key: 'vendorName' }, { key: 'lines' }, { key: 'lines' }] } });
    expect(errorsOf(runInNewContext('new Map([["a", "1"]])') as QueryInput)[0]!.message).toContain('not a Map');
  });
});

describe('records are never decoded twice', () => {
  it.each<[string, string, AstSummary['filters'][number]['clauses'][number]]>([
    // The record holds the decoded text: its "%" is the wildcard, "25" is text after it.
    ['%25', 'a=%25', ['eq', ['', '25']]],
    ['%zz', 'a=%zz', ['eq', ['', 'zz']]],
    ['1+2', 'a=1+2', ['eq', '1+2']],
    ['%2B', 'a=%2B', ['eq', ['', '2B']]],
    ['Caf%C3%A9', 'a=Caf%C3%A9', ['eq', ['Caf', 'C3', 'A9']]],
  ])('{ a: %j } is that text, not %s', (value, _query, clause) => {
    expect(summaryOf({ a: value }).filters[0]!.clauses).toEqual([clause]);
  });

  it('while the same text in a query string is decoded once', () => {
    expect(summaryOf('a=%25').filters[0]!.clauses).toEqual([['eq', ['', '']]]);
    expect(summaryOf('a=1+2').filters[0]!.clauses).toEqual([['eq', '1 2']]);
  });

  it('still refuses text no back end can store: NUL and lone surrogates', () => {
    expect(errorsOf({ a: 'x\0' })[0]).toMatchObject({ code: 'MALFORMED_ENCODING', param: 'a', in: 'value', span: { start: 1, end: 2 } });
    expect(errorsOf({ a: 'x\uD800y' })[0]).toMatchObject({ code: 'MALFORMED_ENCODING', param: 'a', in: 'value', span: { start: 1, end: 2 } });
    expect(errorsOf({ '\uDC00': '1' })[0]).toMatchObject({ code: 'MALFORMED_ENCODING', param: '\uDC00', in: 'key', span: { start: 0, end: 1 } });
  });
});

describe('splitting a raw query', () => {
  it('skips empty parts and splits each part on its first =', () => {
    expect(summaryOf('a=1&&b==2&').filters.map((f) => [f.key, f.clauses])).toEqual([
      ['a', [['eq', '1']]],
      ['b', [['eq', '=2']]],
    ]);
  });

  it('reads a ? in a URL fragment as part of the fragment', () => {
    expect(summaryOf('https://api.example.com/invoices#top?a=1')).toEqual({ filters: [], params: {} });
  });

  it('refuses a raw lone surrogate, which no URL can carry', () => {
    expect(errorsOf('a=x\uD83D')[0]).toMatchObject({ code: 'MALFORMED_ENCODING', param: 'a', in: 'value', span: { start: 1, end: 2 } });
  });

  it('refuses a 1 MB query with LIMIT_EXCEEDED and nothing else', () => {
    const huge = `vendorName=${'%25x'.repeat(1 << 18)}&a=%zz`;
    expect(huge.length).toBeGreaterThan(1 << 20);
    const errors = errorsOf(huge);
    expect(errors.map((d) => d.code)).toEqual(['LIMIT_EXCEEDED']);
    expect(errors[0]!.message).toContain(String(huge.length));
  });

  it('refuses a 1 MB record value the same way', () => {
    expect(errorsOf({ vendorName: 'x'.repeat(1 << 20) }).map((d) => d.code)).toEqual(['LIMIT_EXCEEDED']);
    expect(errorsOf({ vendorName: Array.from({ length: 1 << 20 }, () => 'x') }).map((d) => d.code)).toEqual(['LIMIT_EXCEEDED']);
  });
});

describe('decodeComponent: strict application/x-www-form-urlencoded', () => {
  it.each([
    ['Acme', 'Acme'],
    ['Acme+Corp', 'Acme Corp'],
    ['A%2BB', 'A+B'],
    ['%25acme%25', '%acme%'],
    ['Caf%C3%A9', 'Café'],
    ['caf%c3%a9', 'café'],
    ['%F0%9F%98%80', '😀'],
    ['%EF%BB%BF', '\uFEFF'],
    ['%F4%8F%BF%BF', '\u{10FFFF}'],
    ['Café', 'Café'],
    ['', ''],
  ])('%j is %j', (raw, decoded) => {
    expect(decodeComponent(raw)).toBe(decoded);
  });

  // Each is undecodable; the span is where findEncodingError points.
  it.each<[string, string, [number, number]]>([
    ['lone % at the end', 'acme%', [4, 5]],
    ['% and one hex digit', 'a%2', [1, 3]],
    ['% and non-hex', '%acme%', [0, 3]],
    ['% and a space', '% 5', [0, 3]],
    ['truncated sequence', '%E2%82', [0, 6]],
    ['sequence cut by ASCII', '%E2%82x', [0, 6]],
    ['overlong /', '%C0%AF', [0, 3]],
    ['overlong NUL', '%C0%80', [0, 3]],
    ['overlong three bytes', '%E0%80%AF', [0, 3]],
    ['overlong four bytes', '%F0%80%80%AF', [0, 3]],
    ['encoded high surrogate', '%ED%A0%80', [0, 3]],
    ['encoded low surrogate', '%ED%B0%80', [0, 3]],
    ['above U+10FFFF', '%F4%90%80%80', [0, 3]],
    ['lead byte F5', '%F5%80%80%80', [0, 3]],
    ['byte FE', 'x%FE', [1, 4]],
    ['lone continuation byte', '%80', [0, 3]],
    ['%00', 'a%00', [1, 4]],
    ['raw NUL', 'a\0', [1, 2]],
    ['raw lone high surrogate', '\uD800a', [0, 1]],
    ['raw lone low surrogate', 'a\uDC00', [1, 2]],
  ])('refuses %s', (_name, raw, span) => {
    expect(decodeComponent(raw)).toBeUndefined();
    const found = findEncodingError(raw);
    expect([found.span.start, found.span.end]).toEqual(span);
  });
});

describe('decoded text is never scanned for escapes', () => {
  it('points a record value with a lone surrogate at the surrogate, not at a "%" wildcard before it', () => {
    const errors = errorsOf({ name: '"ax%b%";"%\ud801%\udc00"' });
    expect(errors.map((d) => [d.code, d.span])).toEqual([['MALFORMED_ENCODING', { start: 10, end: 11 }]]);
    expect(errors[0]!.message).toContain('lone surrogate');
  });
});
