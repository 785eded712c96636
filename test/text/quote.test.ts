import { describe, expect, it } from 'vitest';
import { quote } from '../../src/text/quote';
import { check, defineSchema } from '../../src/index';

describe('quote: user text in messages', () => {
  // Shown as typed: a user who typed \b reads "\b", not "\\b" (issue 14, item 13).
  it.each<[string, string, string]>([
    ['a backslash', 'a\\b', '"a\\b"'],
    ['a quote', 'say "hi"', '"say "hi""'],
    ['text that reads as an escape', '\\u0041\\n', '"\\u0041\\n"'],
  ])('keeps %s as typed', (_name, text, quoted) => {
    expect(quote(text)).toBe(quoted);
  });

  it.each<[string, string, string]>([
    ['C0 controls, as \\u escapes', 'a\nb\u001b[31m', '"a\\u000ab\\u001b[31m"'],
    ['C1 controls', 'a\u0085b\u009b', '"a\\u0085b\\u009b"'],
    ['bidi overrides and zero-width characters', 'a\u202eb\u200bc\ufeff', '"a\\u202eb\\u200bc\\ufeff"'],
    ['line and paragraph separators', 'a\u2028b\u2029', '"a\\u2028b\\u2029"'],
    ['an astral format character, both halves', 'a\u{e0001}', '"a\\udb40\\udc01"'],
    ['ordinary non-ASCII text, untouched', 'Café Zoë 😀', '"Café Zoë 😀"'],
  ])('escapes %s', (_name, text, quoted) => {
    expect(quote(text)).toBe(quoted);
  });

  it('cuts text at 64 characters (reference §12) without cutting a character in two', () => {
    expect(quote('x'.repeat(64))).toBe(`"${'x'.repeat(64)}"`);
    expect(quote('x'.repeat(65))).toBe(`"${'x'.repeat(64)}…"`);
    expect(quote(`${'x'.repeat(63)}😀tail`)).toBe(`"${'x'.repeat(63)}…"`);
  });

  it('escapes a lone surrogate', () => {
    expect(quote('a\ud800b')).toBe('"a\\ud800b"');
  });

  it('keeps hostile keys out of messages as raw characters', () => {
    const result = check('a\u202e=1', defineSchema({ fields: { a: 'number' } }));
    expect(result.ok).toBe(false);
    if (!result.ok) for (const d of result.errors) expect(d.message).not.toMatch(/[\u202e]/);
  });
});

describe('pass-through parameters named like Object.prototype members', () => {
  it('are kept as own values, repeated or not', () => {
    const schema = defineSchema({ fields: { a: 'number' }, params: ['toString', 'valueOf', 'hasOwnProperty'] });
    const result = check('toString=1&toString=2&valueOf=3&hasOwnProperty=x&a=1', schema);
    expect(result).toMatchObject({ ok: true, value: { params: { toString: ['1', '2'], valueOf: '3', hasOwnProperty: 'x' } } });
  });
});
