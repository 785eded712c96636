import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getProblem, startServer, type TestServer } from '../../support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** The connection the data requests read, as the API requires it: only the filter is wrong in these requests. */
const ACME = 'businessName=Acme%20%26%20Sons&serviceName=quickbooks';

/** The one error of a bad query, after checking the problem's envelope. */
async function oneError(path: string) {
  const { status, body } = await getProblem(server, path);
  expect(status).toBe(400);
  expect(body).toMatchObject({ type: 'about:blank', title: 'Bad Request', status: 400, instance: path.slice(0, path.indexOf('?')) });
  expect(body.errors).toHaveLength(1);
  expect(body.detail).toBe(body.errors[0]!.message);
  return body.errors[0]!;
}

describe('a bad filter is a 400 application/problem+json', () => {
  it.each([
    [`/invoices?${ACME}&totalAmount=gte:1;;lte:5`, 'EMPTY_CLAUSE', 'totalAmount'],
    [`/vendors?${ACME}&vendorName=%22acme`, 'UNTERMINATED_QUOTE', 'vendorName'],
    [`/vendors?${ACME}&vendorName=a%5Cb`, 'INVALID_ESCAPE', 'vendorName'],
    [`/vendors?${ACME}&vendorName=`, 'EMPTY_VALUE', 'vendorName'],
    [`/invoices?${ACME}&customerRef.name=x`, 'SUBPROPERTY_NOT_FILTERABLE', 'customerRef.name'],
    [`/invoices?${ACME}&customerRef=42`, 'INVALID_PATH', 'customerRef'],
    [`/vendors?${ACME}&vendorName=gt:m`, 'OPERATOR_NOT_SUPPORTED', 'vendorName'],
    [`/invoices?${ACME}&totalAmount=1%25`, 'WILDCARD_NOT_SUPPORTED', 'totalAmount'],
  ])('%s: %s', async (path, code, param) => {
    expect(await oneError(path)).toMatchObject({ code, param });
  });

  it('UNKNOWN_FIELD, with a "did you mean" hint', async () => {
    expect(await oneError(`/invoices?${ACME}&totalAmout=5`)).toMatchObject({ code: 'UNKNOWN_FIELD', param: 'totalAmout', hint: 'Did you mean totalAmount?' });
  });

  it('INVALID_NUMBER, with a hint that operators are lower case', async () => {
    const error = await oneError(`/invoices?${ACME}&totalAmount=GTE:100`);
    expect(error).toMatchObject({ code: 'INVALID_NUMBER', in: 'value', span: { start: 0, end: 7 } });
    expect(error.hint).toContain('lower case');
  });

  it('INVALID_NUMBER for an OR attempt, with a hint that there is no OR', async () => {
    const error = await oneError(`/invoices?${ACME}&totalAmount=1%7C2`);
    expect(error.code).toBe('INVALID_NUMBER');
    expect(error.hint).toContain('no OR');
  });

  it('INVALID_DATE when an offset\'s "+" was sent raw and arrived as a space, with the %2B hint', async () => {
    const error = await oneError(`/invoices?${ACME}&postedDate=2023-01-09T10:00:00+01:00`);
    expect(error.code).toBe('INVALID_DATE');
    expect(error.hint).toContain('%2B');
    // The same instant with the plus encoded is fine.
    expect((await server.request(`/invoices?${ACME}&postedDate=2023-01-09T10:00:00%2B01:00`)).status).toBe(200);
  });

  it('FIELD_REMOVED for lines.memo on deposits, pointing at the deposit\'s own memo', async () => {
    const error = await oneError(`/deposits?${ACME}&lines.memo=%25cash%25`);
    expect(error).toMatchObject({ code: 'FIELD_REMOVED', param: 'lines.memo', in: 'key' });
    expect(error.hint).toContain('2023-01-09');
    expect(error.hint).toContain('memo=');
  });

  it('MALFORMED_ENCODING for a bare "%" wildcard, with the %25 hint: the raw query reaches check', async () => {
    const error = await oneError(`/vendors?${ACME}&vendorName=%acme%`);
    expect(error).toMatchObject({ code: 'MALFORMED_ENCODING', param: 'vendorName', in: 'value' });
    expect(error.hint).toContain('%25');
  });

  it('MALFORMED_ENCODING for bytes that are not UTF-8', async () => {
    expect(await oneError(`/vendors?${ACME}&vendorName=%C3%28`)).toMatchObject({ code: 'MALFORMED_ENCODING' });
  });

  it('LIMIT_EXCEEDED past 64 parameters, and nothing else', async () => {
    const query = Array.from({ length: 65 }, (_, i) => `totalAmount=${i}`).join('&');
    expect(await oneError(`/invoices?${ACME}&${query}`)).toMatchObject({ code: 'LIMIT_EXCEEDED' });
  });

  it('reports every problem of the query at once', async () => {
    const { body } = await getProblem(server, `/invoices?${ACME}&totalAmount=abc&postedDate=2023-02-30&status=gt:open`);
    expect(body.errors.map((e) => [e.code, e.param])).toEqual([
      ['INVALID_NUMBER', 'totalAmount'],
      ['INVALID_DATE', 'postedDate'],
      ['OPERATOR_NOT_SUPPORTED', 'status'],
    ]);
    expect(body.detail).toContain('3 problems');
  });

  it('reports a bad filter and a bad page together, the filter first', async () => {
    const { body } = await getProblem(server, `/invoices?${ACME}&totalAmount=abc&limit=-1`);
    expect(body.errors.map((e) => e.code)).toEqual(['INVALID_NUMBER', 'INVALID_PAGING']);
  });
});

describe('other problems', () => {
  it('an unknown path is a 404 problem', async () => {
    const { status, body } = await getProblem(server, '/nothing?x=1');
    expect(status).toBe(404);
    expect(body).toMatchObject({ title: 'Not Found', status: 404, instance: '/nothing' });
  });

  it.each<[string, string, string]>([
    ['PUT', '/invoices?x=1', 'GET, HEAD'],
    ['POST', '/invoices', 'GET, HEAD'],
    ['DELETE', '/openapi.json', 'GET, HEAD'],
    ['GET', '/Deposit', 'POST'],
    ['PATCH', '/businesses', 'GET, HEAD, POST'],
    ['GET', '/businesses/Acme%20%26%20Sons', 'DELETE'],
  ])('%s %s, a path that takes other methods, is a 405 problem with an allow header', async (method, path, allow) => {
    const response = await server.request(path, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    const instance = path.split('?')[0];
    expect(await response.json()).toMatchObject({ title: 'Method Not Allowed', status: 405, instance, detail: `${instance} takes ${allow}, not ${method}.` });
  });

  it('a path no route has under any method stays a 404, however close to one', async () => {
    for (const path of ['/businesses/a/b', '/invoices/1', '/openapi.json/x']) {
      const { status } = await getProblem(server, path, { method: 'DELETE' });
      expect(status, path).toBe(404);
    }
  });
});
