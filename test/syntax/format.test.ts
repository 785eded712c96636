import { describe, expect, it } from 'vitest';
import { format, parse, type Clause, type FilterAst, type Operator, type Param, type PassThroughParams } from '../../src/index';
import { encodeComponent } from '../../src/syntax/format';
import { summarize } from '../support/summary';

const NO_SPAN = { start: 0, end: 0 };

/** A clause: a string operand is a Literal, a list is a Pattern's segments. */
function clause(operator: Operator, operand: string | string[]): Clause {
  return {
    type: 'Clause',
    operator,
    operand: typeof operand === 'string' ? { type: 'Literal', value: operand, span: NO_SPAN } : { type: 'Pattern', segments: operand, span: NO_SPAN },
    span: NO_SPAN,
  };
}

function param(key: string, ...clauses: Clause[]): Param {
  const names = key.split('.').map((value) => ({ type: 'Name' as const, value, span: NO_SPAN }));
  return { type: 'Param', key, value: '', path: { type: 'Path', names, span: NO_SPAN }, clauses, span: NO_SPAN };
}

function query(filters: Param[], params: PassThroughParams = {}): FilterAst {
  return { type: 'Query', filters, params };
}

describe('format: canonical query strings', () => {
  it.each<[string, FilterAst, string]>([
    ['leaves : and ; readable', query([param('totalAmount', clause('gte', '100'), clause('lte', '200'))]), 'totalAmount=gte:100;lte:200'],
    ['leaves the dots of a path readable', query([param('customerRef.id', clause('eq', '42'))]), 'customerRef.id=42'],
    ['writes a space as %20, never +', query([param('a', clause('eq', 'Consulting fee'))]), 'a=Consulting%20fee'],
    ['encodes a plus sign', query([param('a', clause('eq', 'A+B'))]), 'a=A%2BB'],
    ['encodes & = # and the quote', query([param('a', clause('eq', 'A&B=C#"'))]), 'a=A%26B%3DC%23%22'],
    ['encodes non-ASCII as UTF-8', query([param('a', clause('eq', 'Café 😀'))]), 'a=Caf%C3%A9%20%F0%9F%98%80'],
    ['writes a wildcard as %25', query([param('vendorName', clause('eq', ['', 'acme', '']))]), 'vendorName=%25acme%25'],
    ['escapes a literal percent sign', query([param('a', clause('eq', '100%'))]), 'a=100%5C%25'],
    ['escapes a literal percent sign at the start', query([param('a', clause('eq', '%'))]), 'a=%5C%25'],
    ['escapes a literal percent sign inside a pattern', query([param('a', clause('eq', ['50%', '']))]), 'a=50%5C%25%25'],
    ['escapes a semicolon, leaving it readable', query([param('a', clause('eq', 'a;b'))]), 'a=a%5C;b'],
    ['escapes a semicolon at the start', query([param('a', clause('eq', ';'))]), 'a=%5C;'],
    ['escapes a backslash', query([param('a', clause('eq', 'a\\b'))]), 'a=a%5C%5Cb'],
    ['escapes a quote that starts a bare operand', query([param('a', clause('eq', '"x'))]), 'a=%5C%22x'],
    ['leaves a quote inside a bare operand alone', query([param('a', clause('eq', 'x"y'))]), 'a=x%22y'],
    ['quotes the empty string', query([param('a', clause('eq', ''))]), 'a=%22%22'],
    ['quotes the empty string after an operator', query([param('a', clause('gt', ''))]), 'a=gt:%22%22'],
    ['quotes text that would read as an operator', query([param('a', clause('eq', 'gte:5'))]), 'a=%22gte:5%22'],
    ['quotes operator text that starts a pattern', query([param('a', clause('eq', ['lt:', '']))]), 'a=%22lt:%25%22'],
    ['inside quotes escapes the quote but not the semicolon', query([param('a', clause('eq', 'gt:"a;b"'))]), 'a=%22gt:%5C%22a;b%5C%22%22'],
    ['does not quote operator text after an operator', query([param('a', clause('gte', 'gte:5'))]), 'a=gte:gte:5'],
    ['does not quote an operator name without its colon', query([param('a', clause('eq', 'gte'))]), 'a=gte'],
    ['does not quote upper-case operator text', query([param('a', clause('eq', 'GTE:5'))]), 'a=GTE:5'],
    ['writes a lone wildcard bare', query([param('a', clause('eq', ['', '']))]), 'a=%25'],
    ['writes pass-through parameters first', query([param('a', clause('eq', '1'))], { businessName: 'Acme & Co' }), 'businessName=Acme%20%26%20Co&a=1'],
    ['repeats a pass-through key for each value', query([], { businessName: ['A', 'B'] }), 'businessName=A&businessName=B'],
    ['writes a repeated filter key once per parameter', query([param('value', clause('gte', '1')), param('value', clause('lte', '5'))]), 'value=gte:1&value=lte:5'],
    ['writes nothing for an empty query', query([]), ''],
    ['encodes a first key that would read as a path', query([], { '/x': '1' }), '%2Fx=1'],
    ['encodes a first key that would read as a leading ?', query([], { '?x': '1' }), '%3Fx=1'],
    ['encodes a first key that would read as a URL', query([], { 'a://b': '1' }), 'a:%2F%2Fb=1'],
  ])('%s', (_name, ast, expected) => {
    expect(format(ast)).toBe(expected);
    // Canonical means it also reads back as the same tree.
    const reparsed = parse(expected, { params: Object.keys(ast.params) });
    expect(reparsed.ok && summarize(reparsed.value)).toEqual(summarize(ast));
  });

  it('is a fixed point on what parse gives: format(parse(format(parse(q)))) is format(parse(q))', () => {
    for (const q of ['vendorName=%25acme%25', 'a=\\%25;"x";gte:"gte:"', 'a=x"y;\\;;%22;%22']) {
      const first = parse(q);
      expect(first.ok).toBe(true);
      if (!first.ok) continue;
      const once = format(first.value);
      const second = parse(once);
      expect(second.ok && format(second.value)).toBe(once);
    }
  });
});

// Internal since the client builder: percent-encoding a value is not writing an operand (see literal).
describe('encodeComponent', () => {
  it.each([
    ['Acme', 'Acme'],
    ["-._~!$'()*,;:@", "-._~!$'()*,;:@"],
    // Readable in a query, but at its start parse would take them for a URL or a "?".
    ['/?', '%2F%3F'],
    [' +&=#%"\\', '%20%2B%26%3D%23%25%22%5C'],
    ['\u007f', '%7F'],
    ['é', '%C3%A9'],
    ['😀', '%F0%9F%98%80'],
    // A lone surrogate has no UTF-8 form: it becomes U+FFFD, as in every URL encoder.
    ['a\uD800b', 'a%EF%BF%BDb'],
  ])('%j is %j', (text, encoded) => {
    expect(encodeComponent(text)).toBe(encoded);
  });
});
