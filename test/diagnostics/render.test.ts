import { describe, expect, it } from 'vitest';
import { ANSI_STYLE, check, formatDiagnostic, formatDiagnostics, vendors, type Diagnostic, type QueryInput, type Schema } from '../../src/index';
import { rejected, specInvoices } from '../check/support';

/** The rendering of the one diagnostic of `input` whose text is at `index`, as lines. */
function lines(input: QueryInput, index = 0, schema: Schema = specInvoices): string[] {
  return formatDiagnostic(rejected(input, schema)[index]!).split('\n');
}

/** A caret line: two spaces of indent, `column` spaces, `width` carets. */
const carets = (column: number, width = 1): string => `  ${' '.repeat(column)}${'^'.repeat(width)}`;

describe('formatDiagnostic', () => {
  it('shows code, message, the parameter as sent with a caret line under the span, and the hint', () => {
    expect(lines('totalAmount=gte:1;x')).toEqual([
      'error[INVALID_NUMBER]: Parameter "totalAmount" needs a number, not "x".',
      '  totalAmount=gte:1;x',
      carets('totalAmount=gte:1;'.length),
      expect.stringMatching(/^ {2}hint: Write a number/),
    ]);
  });

  it('a key diagnostic shows the key, with carets under the part that is wrong', () => {
    expect(lines('customerRef.name=Acme').slice(1, 3)).toEqual(['  customerRef.name', carets(12, 4)]);
  });

  it('a value diagnostic puts the carets under the operand, or the operator', () => {
    expect(lines('vendorName=acme;gt:b').slice(1, 3)).toEqual(['  vendorName=acme;gt:b', carets(16, 3)]);
    expect(lines('totalAmount=gte:1;lte:abc').slice(1, 3)).toEqual(['  totalAmount=gte:1;lte:abc', carets(22, 3)]);
  });

  it('a zero-width span gets one caret where it is', () => {
    expect(lines('totalAmount=gte:1;;lte:5').slice(1, 3)).toEqual(['  totalAmount=gte:1;;lte:5', carets(18)]);
  });

  it('a zero-width span at the end gets one caret after the text', () => {
    expect(lines('vendorName=').slice(1, 3)).toEqual(['  vendorName=', carets(11)]);
    const atEnd: Diagnostic = { code: 'EMPTY_CLAUSE', message: 'm', param: 'k', in: 'value', text: 'a;', span: { start: 2, end: 2 } };
    expect(formatDiagnostic(atEnd).split('\n')[2]).toBe(carets(4));
  });

  it('counts wide characters as two columns and combining marks as none', () => {
    // 日本 and 😀 take two columns each; é written as e + U+0301 takes one.
    expect(lines('totalAmount=%E6%97%A5%E6%9C%AC;gte:x', 1).slice(1, 3)).toEqual(['  totalAmount=日本;gte:x', carets(12 + 4 + 5)]);
    expect(lines('totalAmount=%F0%9F%98%80;x', 1).slice(1, 3)).toEqual(['  totalAmount=😀;x', carets(12 + 2 + 1)]);
    expect(lines('totalAmount=e%CC%81;x', 1).slice(1, 3)).toEqual(['  totalAmount=e\u0301;x', carets(12 + 1 + 1)]);
    expect(lines('totalAmount=%E6%97%A5').slice(1, 3)).toEqual(['  totalAmount=日', carets(12, 2)]);
  });

  it('shows control characters as control pictures, so a value stays on its line', () => {
    const rendered = formatDiagnostic(rejected('totalAmount=%09%0A;x')[1]!);
    expect(rendered.split('\n').slice(1, 3)).toEqual(['  totalAmount=␉␊;x', carets(12 + 3)]);
    expect(rendered.split('\n')).toHaveLength(4);
  });

  it('shows invisible and bidi characters as code points, and counts them as shown', () => {
    const zeroWidth = lines('totalAmount=x%E2%80%8By;z', 1);
    expect(zeroWidth.slice(1, 3)).toEqual(['  totalAmount=x<U+200B>y;z', carets(12 + 11)]);
    const override = lines('totalAmount=%E2%80%AE1', 0);
    // The message quotes the text with the override escaped, so it is inert wherever it is printed.
    expect(override[0]).toBe('error[INVALID_NUMBER]: Parameter "totalAmount" needs a number, not "\\u202e1".');
    expect(override.slice(1, 3)).toEqual(['  totalAmount=<U+202E>1', carets(12, 9)]);
  });

  it('never lets user text drive the terminal: no raw control character from the input reaches the output', () => {
    // The key is quoted in the message and repeated in the hint of EMPTY_VALUE.
    const errors = rejected({ 'x\u001b[2J\u009b31m': '' });
    const rendered = formatDiagnostics(errors);
    // eslint-disable-next-line no-control-regex
    expect(rendered).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    // The hint escapes it as a message does (the key is user text in both).
    expect(rendered).toContain('x\\u001b[2J\\u009b31m=""');
  });

  it('a lone surrogate is shown as its code point, under the carets', () => {
    const rendered = lines({ vendorName: 'ab\ud800c' }, 0, vendors);
    expect(rendered[0]).toMatch(/^error\[MALFORMED_ENCODING\]/);
    expect(rendered.slice(1, 3)).toEqual(['  vendorName=ab<U+D800>c', carets(11 + 2, 8)]);
  });

  it('MALFORMED_ENCODING shows the text as sent, with the carets under the bad escape', () => {
    expect(lines('vendorName=%25ok%acme%25', 0, vendors).slice(0, 3)).toEqual([
      'error[MALFORMED_ENCODING]: The value of parameter "vendorName" has "%ac", which is not valid UTF-8.',
      '  vendorName=%25ok%acme%25',
      carets(11 + 5, 3),
    ]);
    expect(lines('%zz=1', 0, vendors).slice(1, 3)).toEqual(['  %zz', carets(0, 3)]);
  });

  it('a problem of the whole query has no parameter line', () => {
    const result = check('a=1', specInvoices, { limits: { maxQueryLength: 2 } });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(formatDiagnostic(result.errors[0]!).split('\n')).toEqual([
      expect.stringMatching(/^error\[LIMIT_EXCEEDED\]: The query is 3 characters long/),
      expect.stringMatching(/^ {2}hint: /),
    ]);
  });

  it('a diagnostic without a span or hint has only the lines it can fill', () => {
    expect(formatDiagnostic({ code: 'INVALID_PARAMETER', message: 'Bad.' })).toBe('error[INVALID_PARAMETER]: Bad.');
    expect(formatDiagnostic({ code: 'INVALID_PARAMETER', message: 'Bad.', param: 'a', in: 'value', text: '' })).toBe(
      'error[INVALID_PARAMETER]: Bad.\n  a=',
    );
  });
});

describe('style', () => {
  const d = rejected('vendorName=gt:a')[0]!;

  it('is plain text unless the caller passes a style', () => {
    expect(formatDiagnostic(d)).not.toContain('\u001b');
    expect(formatDiagnostic(d, {})).toBe(formatDiagnostic(d));
  });

  it('applies each part of a style to its part only', () => {
    const tag = (name: string) => (t: string) => `<${name}>${t}</${name}>`;
    const styled = formatDiagnostic(d, { style: { code: tag('c'), caret: tag('k'), hint: tag('h') } }).split('\n');
    expect(styled[0]).toMatch(/^<c>error\[OPERATOR_NOT_SUPPORTED\]<\/c>: Parameter "vendorName"/);
    expect(styled[1]).toBe('  vendorName=gt:a');
    expect(styled[2]).toBe(`  ${' '.repeat(11)}<k>^^^</k>`);
    expect(styled[3]).toMatch(/^ {2}<h>hint:<\/h> Text supports/);
  });

  it('ANSI_STYLE colours the code, the carets and the hint label, and resets after each', () => {
    const styled = formatDiagnostic(d, { style: ANSI_STYLE }).split('\n');
    expect(styled[0]).toMatch(/^\u001b\[1;31merror\[OPERATOR_NOT_SUPPORTED\]\u001b\[0m: /);
    expect(styled[2]).toBe(`  ${' '.repeat(11)}\u001b[31m^^^\u001b[0m`);
    expect(styled[3]).toMatch(/^ {2}\u001b\[36mhint:\u001b\[0m /);
  });
});

describe('formatDiagnostics', () => {
  it('renders every diagnostic, separated by a blank line', () => {
    const errors = rejected('totalAmout=1&vendorName=gt:a');
    expect(formatDiagnostics(errors)).toBe(`${formatDiagnostic(errors[0]!)}\n\n${formatDiagnostic(errors[1]!)}`);
    expect(formatDiagnostics(errors, { style: ANSI_STYLE })).toBe(
      errors.map((e) => formatDiagnostic(e, { style: ANSI_STYLE })).join('\n\n'),
    );
  });

  it('renders nothing for no diagnostics', () => {
    expect(formatDiagnostics([])).toBe('');
  });
});
