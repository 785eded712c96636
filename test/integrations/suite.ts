import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, invoices, vendors, type ProblemDetails, type Schema } from '../../src/index';
import { quotedOperand } from '../support/operand';
import { HARD_NAME, type AdapterOptions, type Answer, type RunningServer } from './servers';

/** A request that must reach the handler: its answer. */
export async function getAnswer(server: RunningServer, path: string): Promise<Answer> {
  const response = await fetch(`${server.base}${path}`);
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Answer;
}

/**
 * The `content-type` of every adapter's problem answer, the same on every framework: what
 * Fastify and Express send for a JSON media type (they add the charset whatever they are
 * given), which the Hono adapter must then send too.
 */
export const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';

/** A request that must be refused with a problem: its status and body, the content type checked to the letter. */
export async function getProblem(server: RunningServer, path: string, init?: RequestInit): Promise<{ status: number; body: ProblemDetails }> {
  const response = await fetch(`${server.base}${path}`, init);
  const type = response.headers.get('content-type') ?? '';
  if (type !== PROBLEM_TYPE) throw new Error(`${path}: ${response.status} with ${type}: ${await response.text()}`);
  return { status: response.status, body: (await response.json()) as ProblemDetails };
}

/** The Filter `check` makes of a query, as it travels in JSON: what the handler must have been handed. */
export function expected(query: string, schema: Schema): unknown {
  const result = check(query, schema);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return JSON.parse(JSON.stringify(result.value));
}

/**
 * What reference §10 asks of every adapter, over real HTTP: the raw query is checked, a bad
 * one is a 400 problem, a good one reaches the handler as the right Filter.
 */
export function adapterSuite(name: string, start: (options?: AdapterOptions) => Promise<RunningServer>): void {
  describe(`${name}: the query as sent, over real HTTP`, () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await start();
    });
    afterAll(() => server.close());

    it('answers a bare "%" 400 application/problem+json, where the framework\'s own query would have filtered', async () => {
      const { status, body } = await getProblem(server, '/vendors?vendorName=%acme%');
      expect(status).toBe(400);
      expect(body).toMatchObject({ type: 'about:blank', title: 'Bad Request', status: 400, instance: '/vendors' });
      expect(body.errors).toEqual([
        expect.objectContaining({ code: 'MALFORMED_ENCODING', param: 'vendorName', in: 'value', span: { start: 0, end: 3 } }),
      ]);
      expect(body.detail).toBe(body.errors[0]!.message);
      // The same text, once decoded by URLSearchParams, is a valid filter on "\uFFFDme%".
      expect(new URLSearchParams('vendorName=%acme%').get('vendorName')).toBe('\uFFFDme%');
      expect(check(new URLSearchParams('vendorName=%acme%'), vendors).ok).toBe(true);
    });

    it(`sends the problem as ${PROBLEM_TYPE}, as every adapter does`, async () => {
      const response = await fetch(`${server.base}/invoices?totalAmount=x`);
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toBe(PROBLEM_TYPE);
      // The charset is true: a name beyond ASCII comes back in the body as sent.
      const body = (await response.json()) as ProblemDetails;
      expect(body.errors[0]).toMatchObject({ code: 'INVALID_NUMBER', param: 'totalAmount' });
      const named = await getProblem(server, `/invoices?${encodeURIComponent('tötalÄmount')}=1`);
      expect(named.body.errors[0]).toMatchObject({ code: 'INVALID_PATH', param: 'tötalÄmount' });
    });

    it('hands a good query to the handler as the Filter check makes of it', async () => {
      const query = 'customerRef.id=42&totalAmount=gte:100;lte:200&postedDate=2023-01-09&orderBy=-postedDate,totalAmount&limit=5&businessName=Acme';
      const got = await getAnswer(server, `/invoices?${query}`);
      expect(got.filter).toEqual(expected(query, invoices));
      expect(got.filter.sort.map((s) => [s.key, s.direction])).toEqual([
        ['postedDate', 'desc'],
        ['totalAmount', 'asc'],
      ]);
      expect(got.filter.page).toEqual({ limit: 5, offset: 0 });
      expect(got.filter.params).toEqual({ orderBy: '-postedDate,totalAmount', limit: '5', businessName: 'Acme' });
      expect(got.ids).toEqual(['i2']);
    });

    it('hints at %2B when the "+" of a date offset arrived as a space', async () => {
      const { status, body } = await getProblem(server, '/invoices?postedDate=gte:2023-01-09T09:00:00+01:00');
      expect(status).toBe(400);
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]).toMatchObject({ code: 'INVALID_DATE', param: 'postedDate' });
      expect(body.errors[0]!.hint).toContain('%2B');
      // Encoded, the same offset is a valid instant: 08:00 UTC, which both invoices of that day are at or after.
      expect((await getAnswer(server, '/invoices?postedDate=gte:2023-01-09T09:00:00%2B01:00')).ids).toEqual(['i1', 'i2', 'i3']);
    });

    it('takes a repeated key as one more condition, all of them ANDed', async () => {
      const query = 'totalAmount=gte:100&totalAmount=lte:200';
      const got = await getAnswer(server, `/invoices?${query}`);
      expect(got.filter).toEqual(expected(query, invoices));
      expect(got.filter.conditions.map((c) => c.key)).toEqual(['totalAmount', 'totalAmount']);
      expect(got.ids).toEqual(['i2']);
    });

    it('round-trips a business name with &, ;, %, ", \\ and + as a parameter and as a filter operand', async () => {
      const query = `businessName=${encodeURIComponent(HARD_NAME)}&vendorName=${quotedOperand(HARD_NAME)}`;
      const got = await getAnswer(server, `/vendors?${query}`);
      expect(got.filter.params).toEqual({ businessName: HARD_NAME });
      expect(got.filter.conditions).toEqual([expect.objectContaining({ key: 'vendorName', tests: [{ op: 'eq', value: HARD_NAME }] })]);
      expect(got.ids).toEqual(['v1']);
      // The wildcard still works beside it: every name that starts with "Acme".
      expect((await getAnswer(server, '/vendors?vendorName=Acme%25')).ids).toEqual(['v1', 'v2']);
    });

    it('reports every problem of a query at once, in query order', async () => {
      const { body } = await getProblem(server, '/invoices?totalAmout=5&customerRef.name=x&orderBy=-nope');
      expect(body.errors.map((e) => e.code)).toEqual(['UNKNOWN_FIELD', 'SUBPROPERTY_NOT_FILTERABLE', 'UNKNOWN_FIELD']);
    });

    it('refuses bracket syntax, whatever a query parser would have nested', async () => {
      const { body } = await getProblem(server, '/invoices?customerRef[id]=42');
      expect(body.errors.map((e) => [e.code, e.param])).toEqual([['INVALID_PATH', 'customerRef[id]']]);
    });

    it('takes no option and no onError from Object.prototype: a polluted one neither answers nor labels', async () => {
      const proto = Object.prototype as Record<string, unknown>;
      const polluted = { onError: () => { throw new Error('hijacked'); }, problem: { type: 'https://evil.example' }, caseInsensitive: true };
      Object.assign(proto, polluted);
      let own: RunningServer;
      try {
        own = await start({});
      } finally {
        for (const key of Object.keys(polluted)) delete proto[key];
      }
      try {
        const { status, body } = await getProblem(own, '/vendors?vendorName=%acme%');
        expect([status, body.type]).toEqual([400, 'about:blank']);
      } finally {
        await own.close();
      }
    });

    it('labels the problem with the options\' type and title, and applies their limits', async () => {
      const labelled = await start({ problem: { type: 'https://api.example/problems/invalid-query', title: 'Invalid query' }, limits: { maxParams: 2 } });
      try {
        const { body } = await getProblem(labelled, '/invoices?totalAmount=1&totalAmount=2&totalAmount=3');
        expect(body).toMatchObject({ type: 'https://api.example/problems/invalid-query', title: 'Invalid query', instance: '/invoices' });
        expect(body.errors.map((e) => e.code)).toEqual(['LIMIT_EXCEEDED']);
        expect((await getAnswer(labelled, '/invoices?totalAmount=gt:100&totalAmount=lt:200')).ids).toEqual(['i2']);
      } finally {
        await labelled.close();
      }
    });

    it('hands over a filter that carries the server\'s caseInsensitive, which compile then follows', async () => {
      const folding = await start({ caseInsensitive: true });
      try {
        const got = await getAnswer(folding, '/vendors?vendorName=ACME%25');
        expect(got.filter).toEqual({ ...(expected('vendorName=ACME%25', vendors) as object), caseInsensitive: true });
        expect(got.ids).toEqual(['v1', 'v2']);
        // The same query, case-sensitively: nothing starts with "ACME".
        expect((await getAnswer(server, '/vendors?vendorName=ACME%25')).ids).toEqual([]);
      } finally {
        await folding.close();
      }
    });
  });
}
