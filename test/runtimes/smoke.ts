/**
 * The smoke suite (reference §15, issue 34): on each runtime, `app.ts` served over real
 * loopback HTTP from the packed package answers as it does here, on the Node that runs the
 * tests. What the package computes there (`/self-check`: check, its refusals, compile,
 * toSql, paging by cursor, the client builder) equals what it computes here, where code
 * generation is allowed; on workerd `new Function` is refused and the closures serve.
 * Through `qsfilter/hono`: a valid query is 200 with its page, an invalid one 400
 * problem+json, `%fee%` is MALFORMED_ENCODING, and a client follows the cursors to the
 * last page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, selfCheck } from './self-check';
import { RUNTIME_PACKAGES, runtimeBinary, scratchApp, serve, type Runtime, type ScratchApp, type Served } from './runtimes';

/**
 * That `selfCheck()` computed elsewhere (`there`) equals what it computes here, where code
 * generation is allowed, but for whether code generation was (`codeGeneration`).
 */
export function expectSameAsHere(there: unknown, codeGeneration: 'allowed' | 'EvalError'): void {
  const here = selfCheck();
  // What here is, so that "the same" says something.
  expect(here).toMatchObject({
    codeGeneration: 'allowed',
    canonical: 'orderBy=-balance&vendorName=%25acme%25&balance=gte:100',
    matched: ['a1', 'a4'],
    matchedByClosures: ['a1', 'a4'],
    refused: ['INVALID_NUMBER balance', 'UNKNOWN_FIELD vendorNme', 'MALFORMED_ENCODING vendorName'],
    pages: [['a5', 'a3'], ['a1', 'a4'], ['a2']],
    dates: ['a1', 'a2', 'a4'],
  });
  expect(there).toEqual({ ...here, codeGeneration });
}

/** The scratch app of a test file, made once before its runtimes start. */
export function useScratchApp(): () => ScratchApp {
  let app: ScratchApp | undefined;
  beforeAll(async () => {
    app = await scratchApp();
  });
  afterAll(() => app?.remove());
  return () => app!;
}

/** Runs the smoke suite on `runtime`, serving the scratch app that `app` returns. */
export function describeSmoke(runtime: Runtime, app: () => ScratchApp): void {
  describe(`on ${runtime}`, () => {
    let served: Served;

    beforeAll(async () => {
      let binary: string | undefined;
      if (runtime !== 'node') {
        const found = await runtimeBinary(runtime);
        // Only where npm has no build of the runtime for this machine; never in CI.
        if ('missing' in found) throw new Error(`The smoke suite cannot run on ${runtime}: ${found.missing}.`);
        binary = found.path;
      }
      served = await serve(runtime, app(), binary);
      const version = runtime === 'node' ? process.version : `${RUNTIME_PACKAGES[runtime]} (npm's ${runtime}, ${binary})`;
      console.log(`The smoke suite runs on ${runtime} ${version}, at ${served.base}.`);
    });

    afterAll(async () => {
      await served?.stop();
    });

    const get = (path: string): Promise<Response> => fetch(`${served.base}${path}`);

    it('computes what the package computes here: check, compile, toSql, paging by cursor, the client builder', async () => {
      const response = await get('/self-check');
      expect(response.status, served.stderr()).toBe(200);
      expectSameAsHere(await response.json(), runtime === 'workerd' ? 'EvalError' : 'allowed');
    });

    it('serves a valid query through qsfilter/hono: 200 with the page it selects', async () => {
      const response = await get('/accounts?vendorName=%25acme%25&orderBy=balance&limit=10');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      // Case-sensitive here (the app's choice): acme fees, not Acme & Sons nor ACME Logistics.
      expect(await response.json()).toEqual({ data: [ACCOUNTS[3]], next: null });
    });

    it('answers an invalid query 400 application/problem+json, naming each problem', async () => {
      const response = await get('/accounts?balance=GTE:100&orderBy=vendorName');
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      const problem = (await response.json()) as { status: number; errors: { code: string; param: string }[] };
      expect(problem.status).toBe(400);
      expect(problem.errors.map((e) => [e.code, e.param])).toEqual([
        ['INVALID_NUMBER', 'balance'],
        ['NOT_SORTABLE', 'orderBy'],
      ]);
    });

    it('reads the query as sent: %fee% is MALFORMED_ENCODING', async () => {
      const response = await get('/accounts?vendorName=%fee%');
      expect(response.status).toBe(400);
      const problem = (await response.json()) as { errors: { code: string; param: string; hint: string }[] };
      expect(problem.errors).toMatchObject([{ code: 'MALFORMED_ENCODING', param: 'vendorName' }]);
      expect(problem.errors[0]!.hint).toContain('vendorName=%25fee%25');
    });

    it('pages by cursor over HTTP, each page from the cursor of the last', async () => {
      const pages: string[][] = [];
      let path = '/accounts?orderBy=-balance&limit=2';
      for (;;) {
        const response = await get(path);
        expect(response.status).toBe(200);
        const { data, next } = (await response.json()) as { data: { id: string }[]; next: string | null };
        pages.push(data.map((item) => item.id));
        if (next === null || pages.length > ACCOUNTS.length) break;
        path = `/accounts?orderBy=-balance&limit=2&after=${next}`;
      }
      expect(pages).toEqual([['a5', 'a3'], ['a1', 'a4'], ['a2']]);
    });
  });
}
