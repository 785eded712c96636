import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { catalog, check, PROBLEM_CONTENT_TYPE, toProblemDetails, type Diagnostic } from '../../src/index';
import { rejected, specInvoices } from '../check/support';

// RFC 9457 §3: type (URI, default about:blank), title, status, detail, instance, and
// extension members; for about:blank the title is the status phrase (§4.2.1).

describe('toProblemDetails', () => {
  it('makes the body of a 400 from every diagnostic of a query', () => {
    const errors = rejected('totalAmout=1&vendorName=gt:a');
    expect(toProblemDetails(errors)).toStrictEqual({
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: `The query has 2 problems, each listed in "errors". The first: ${errors[0]!.message}`,
      errors: [
        {
          code: 'UNKNOWN_FIELD',
          param: 'totalAmout',
          message: errors[0]!.message,
          hint: 'Did you mean totalAmount?',
          in: 'key',
          span: { start: 0, end: 10 },
        },
        {
          code: 'OPERATOR_NOT_SUPPORTED',
          param: 'vendorName',
          message: errors[1]!.message,
          hint: errors[1]!.hint,
          in: 'value',
          span: { start: 0, end: 3 },
        },
      ],
    });
  });

  it('the detail of one problem is its message', () => {
    const errors = rejected('customerRef=42');
    expect(toProblemDetails(errors).detail).toBe(errors[0]!.message);
  });

  it('the detail of no problem is still a sentence', () => {
    expect(toProblemDetails([])).toStrictEqual({
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: 'The query was rejected.',
      errors: [],
    });
  });

  it('leaves out what a diagnostic does not know, rather than sending nulls', () => {
    const result = check('a=1', specInvoices, { limits: { maxQueryLength: 1 } });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const [entry] = toProblemDetails(result.errors).errors;
    expect(Object.keys(entry!).sort()).toEqual(['code', 'hint', 'message']);
  });

  it('does not send the decoded text the span indexes, only the span', () => {
    const [entry] = toProblemDetails(rejected('totalAmount=abc')).errors;
    expect(entry).not.toHaveProperty('text');
  });

  it('takes a problem type URI, its title, and the instance', () => {
    const body = toProblemDetails(rejected('foo=1'), {
      type: 'https://api.example.com/problems/invalid-query',
      instance: '/invoices?foo=1',
    });
    expect(body).toMatchObject({
      type: 'https://api.example.com/problems/invalid-query',
      title: 'Invalid query',
      status: 400,
      instance: '/invoices?foo=1',
    });
    expect(toProblemDetails([], { type: 'tag:example.com,2023:q', title: 'Filtre invalide' }).title).toBe('Filtre invalide');
    // A title for about:blank may be localized (RFC 9457 §4.2.1).
    expect(toProblemDetails([], { title: 'Requête incorrecte' })).toMatchObject({ type: 'about:blank', title: 'Requête incorrecte' });
    expect(toProblemDetails([])).not.toHaveProperty('instance');
  });

  it('is JSON: serializing and parsing it gives it back, for any diagnostics', () => {
    const schemas = Object.values(catalog);
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.constantFrom(...schemas), (query, schema) => {
        const result = check(query, schema);
        if (result.ok) return;
        const body = toProblemDetails(result.errors, { instance: query });
        expect(JSON.parse(JSON.stringify(body))).toStrictEqual(body);
      }),
      { numRuns: 300 },
    );
  });

  it('copies spans, so a body can be changed without changing the diagnostics', () => {
    const errors: Diagnostic[] = [{ code: 'EMPTY_CLAUSE', message: 'm', param: 'a', in: 'value', text: '1;', span: { start: 2, end: 2 } }];
    const body = toProblemDetails(errors);
    expect(body.errors[0]!.span).toEqual(errors[0]!.span);
    expect(body.errors[0]!.span).not.toBe(errors[0]!.span);
  });

  it('names the media type to send it with', () => {
    expect(PROBLEM_CONTENT_TYPE).toBe('application/problem+json');
  });
});
