import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFilterLexer } from '../../src/syntax/grammar';
import { JUNK, SEPARATOR } from '../../src/syntax/tokens';

const lexer = createFilterLexer(true);

/** The token names (junk apart) and lexing errors of one parameter, lexed as `lexFilters` writes it. */
function lex(key: string, value: string): { tokens: string[]; junk: string[]; errors: { offset: number; length: number }[] } {
  const result = lexer.tokenize(SEPARATOR + key + SEPARATOR + value + SEPARATOR);
  return {
    tokens: result.tokens.map((t) => `${t.tokenType.name}${t.image === SEPARATOR ? '' : `(${t.image})`}`),
    junk: (result.groups[JUNK] ?? []).map((t) => t.image),
    errors: result.errors.map((e) => ({ offset: e.offset, length: e.length })),
  };
}

describe('the lexer', () => {
  it('makes a token of each lexical unit: a name, a dot, an operator with its colon, an operand, a ;', () => {
    expect(lex('customerRef.id', '42').tokens).toEqual(['Start', 'Name(customerRef)', 'Dot(.)', 'Name(id)', 'Equals', 'Bare(42)', 'End']);
    expect(lex('totalAmount', 'gte:100;lte:200').tokens).toEqual(['Start', 'Name(totalAmount)', 'Equals', 'Operator(gte:)', 'Bare(100)', 'Semi(;)', 'Operator(lte:)', 'Bare(200)', 'End']);
    // An operand is one token, its quotes, escapes and wildcards included.
    expect(lex('vendorName', '"%a;\\"b\\%%";x\\;y').tokens).toEqual(['Start', 'Name(vendorName)', 'Equals', 'Quoted("%a;\\"b\\%%")', 'Semi(;)', 'Bare(x\\;y)', 'End']);
  });

  it('reads an operator only where a clause starts', () => {
    expect(lex('a', 'gte:gte:5').tokens).toEqual(['Start', 'Name(a)', 'Equals', 'Operator(gte:)', 'Bare(gte:5)', 'End']);
    expect(lex('a', 'gte').tokens).toEqual(['Start', 'Name(a)', 'Equals', 'Bare(gte)', 'End']);
    // Text after a closing quote is one token with it, which no rule takes.
    expect(lex('a', '"x"gt:1').tokens).toEqual(['Start', 'Name(a)', 'Equals', 'QuotedThenText("x"gt:1)', 'End']);
  });

  it('takes a quote that never closes to the end of its value, ; included', () => {
    expect(lex('a', '1;"x;y').tokens).toEqual(['Start', 'Name(a)', 'Equals', 'Bare(1)', 'Semi(;)', 'Unterminated("x;y)', 'End']);
  });

  // Chevrotain recovers from a lexing error by retrying every pattern one character
  // further on, and builds an error with a message for each. A run of characters no
  // name holds is a token instead, set apart from the parser's (the `junk` group): one
  // per run, whatever its length, and never a lexing error.
  it.each([
    ['letters then a hyphen', `${'a'.repeat(5000)}-`, ['-']],
    ['letters then é', `${'a'.repeat(5000)}é`, ['é']],
    ['a digit first', `1${'a'.repeat(5000)}`, ['1']],
    ['a run of junk', `a${'-'.repeat(5000)}`, ['-'.repeat(5000)]],
    ['names and bad characters alternating', 'a-'.repeat(2500), Array(2500).fill('-')],
  ])('sets a run of characters no name holds apart as one junk token: %s', (_, key, junk) => {
    const lexed = lex(key, '1');
    expect(lexed.errors).toEqual([]);
    expect(lexed.junk).toEqual(junk);
    expect(lexed.tokens.every((t) => !t.startsWith('KeyJunk'))).toBe(true);
  });

  it('lexes every character of every mode: no input is a lexing error', () => {
    const samples = ['a\\', '\\', '"\\', '"a"\\q', 'gte:\\', '\\gte:5', '%\\%', '"\\😀"'];
    for (const value of samples) expect(lex('vendorName', value).errors, value).toEqual([]);
    const noNul = fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !s.includes(SEPARATOR));
    const pieces = fc.array(fc.constantFrom('\\', '"', ';', '%', 'gte:', 'a', '.', '-', 'é', ','), { maxLength: 30 }).map((a) => a.join(''));
    fc.assert(
      fc.property(fc.oneof(noNul, pieces), fc.oneof(noNul, pieces), (key, value) => {
        expect(lex(key, value).errors).toEqual([]);
        expect(lexer.tokenize(value, 'sort').errors).toEqual([]);
      }),
    );
  });
});
