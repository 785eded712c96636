import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFilterLexer } from '../../src/syntax/grammar';
import { SEPARATOR } from '../../src/syntax/tokens';

const lexer = createFilterLexer(true);

/** The token names and lexing errors of one `key NUL value NUL` parameter. */
function lex(key: string, value: string): { tokens: string[]; errors: { offset: number; length: number }[] } {
  const result = lexer.tokenize(key + SEPARATOR + value + SEPARATOR);
  return {
    tokens: result.tokens.map((t) => t.tokenType.name),
    errors: result.errors.map((e) => ({ offset: e.offset, length: e.length })),
  };
}

describe('the lexer on input it refuses', () => {
  // Chevrotain recovers from a lexing error by retrying every pattern one character
  // further on. A key that is not a path used to be such an error, and the whole-key
  // pattern then rescanned the rest of the key at every offset: quadratic. A key that is
  // not a path is now one token, whatever its length, and the parser refuses it.
  it.each([
    ['letters then a hyphen', `${'a'.repeat(5000)}-`],
    ['a trailing dot', `${'a'.repeat(5000)}.`],
    ['letters then é', `${'a'.repeat(5000)}é`],
    ['a digit first', `1${'a'.repeat(5000)}`],
    ['empty names', `a..${'b'.repeat(5000)}`],
    ['names and bad characters alternating', 'a-'.repeat(2500)],
  ])('takes a key that is not a path as one BadKey token, without a lexing error: %s', (_, key) => {
    expect(lex(key, '1')).toEqual({ tokens: ['BadKey', 'KeyEnd', 'Text', 'ValueEnd'], errors: [] });
  });

  it('takes a path as one Key token', () => {
    expect(lex('customerRef.id', '42')).toEqual({ tokens: ['Key', 'Text', 'ValueEnd'], errors: [] });
  });

  // An invalid escape is a token too: a lexing error would cost an error object, a
  // message and a retry of every pattern, for each of thousands of backslashes.
  it.each([
    ['bare', '\\q'.repeat(1000), ['BadEscape', 'Text']],
    ['quoted', `"${'\\q'.repeat(1000)}`, ['BadEscape', 'QuotedText']],
  ])('takes each invalid escape in a %s operand as a BadEscape token, without a lexing error', (_, value, pair) => {
    const { tokens, errors } = lex('vendorName', value);
    expect(errors).toEqual([]);
    const escapes = tokens.slice(tokens.indexOf('BadEscape'), -1);
    expect(escapes).toEqual(Array.from({ length: 1000 }, () => pair).flat());
  });

  it('lexes every character of every mode: no input is a lexing error', () => {
    const samples = ['a\\', '\\', '"\\', '"a"\\q', 'gte:\\', '\\gte:5', '%\\%', '"\\😀"'];
    for (const value of samples) expect(lex('vendorName', value).errors, value).toEqual([]);
    const noNul = fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !s.includes(SEPARATOR));
    const pieces = fc.array(fc.constantFrom('\\', '"', ';', '%', 'gte:', 'a', '.', '-', 'é'), { maxLength: 30 }).map((a) => a.join(''));
    fc.assert(
      fc.property(fc.oneof(noNul, pieces), fc.oneof(noNul, pieces), (key, value) => {
        expect(lex(key, value).errors).toEqual([]);
      }),
    );
  });
});
