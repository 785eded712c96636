import { describe, expect, it } from 'vitest';
import { createFilterLexer } from '../../src/syntax/parser';
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

  // An invalid escape is the one lexing error left: recovery resumes one character on,
  // where the rest of the operand lexes at once, so each costs a constant.
  it.each([
    ['bare', '\\q'.repeat(1000), 'Text'],
    ['quoted', `"${'\\q'.repeat(1000)}"`, 'QuotedText'],
  ])('recovers from each invalid escape in a %s operand after its backslash alone', (_, value, text) => {
    const { tokens, errors } = lex('vendorName', value);
    expect(errors).toHaveLength(1000);
    for (const e of errors) expect(e.length).toBe(1);
    expect(tokens.filter((t) => t === text)).toHaveLength(1000);
  });
});
