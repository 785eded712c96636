import type { FastifyInstance } from 'fastify';
import { isStorableText, problem, sendProblem, splitUrl, type BodyError } from '../http';
import type { Store } from '../store/store';

/** The longest business name accepted. */
export const MAX_NAME_LENGTH = 200;

/**
 * `POST /businesses` and `DELETE /businesses/{businessName}` (`GET /businesses` is a
 * collection route). A name may hold any text (`&`, `%`, `/`, `;`, quotes, `+`,
 * emoji…): a client sends it in the path encoded with `encodeURIComponent`. The router
 * decodes that segment strictly, as `decodeURIComponent` does: a `+` stays a plus (it
 * means a space only in a query string), `%2F` is a slash inside the name, and a
 * malformed escape never reaches this code (the app answers it with a 400 problem).
 * The name must then equal a business's name exactly: "businesses with special
 * characters can be deleted", the fix of the 2023-01-09 release.
 */
export function businessRoutes(app: FastifyInstance, store: Store): void {
  app.post('/businesses', async (request, reply) => {
    const { path } = splitUrl(request.url);
    const name = readName(request.body);
    if (typeof name !== 'string') return sendProblem(reply, problem(400, name.detail, path, { errors: [name] }));
    const business = { businessName: name, createdAt: new Date().toISOString() };
    // The store refuses a taken name in the same step as it stores: a check before the
    // insert would let two requests creating the same business at once both succeed.
    if (!(await store.insert('businesses', business))) {
      return sendProblem(reply, problem(409, `A business named ${JSON.stringify(name)} already exists.`, path));
    }
    return reply.code(201).header('location', `/businesses/${encodeURIComponent(name)}`).send({ data: business });
  });

  app.delete<{ Params: { businessName: string } }>('/businesses/:businessName', async (request, reply) => {
    const name = request.params.businessName;
    // A name no business can have (%00 in the path): a 400, not a query that fails.
    const wrong = nameProblem(name);
    if (wrong !== undefined) return sendProblem(reply, problem(400, `No business can be named ${JSON.stringify(name)}: ${wrong}`, splitUrl(request.url).path));
    const removed = await store.remove('businesses', { businessName: name });
    if (removed === 0) {
      return sendProblem(reply, problem(404, `No business is named ${JSON.stringify(name)}.`, splitUrl(request.url).path));
    }
    return reply.code(204).send();
  });
}

/** The `businessName` of a posted body, or what is wrong with it. */
function readName(body: unknown): string | BodyError {
  const name = typeof body === 'object' && body !== null && Object.hasOwn(body, 'businessName') ? (body as { businessName: unknown }).businessName : undefined;
  if (typeof name !== 'string') return { pointer: '/businessName', detail: 'Send { "businessName": "…" }, the name as a string.' };
  const wrong = nameProblem(name);
  return wrong === undefined ? name : { pointer: '/businessName', detail: wrong };
}

/**
 * What makes a text no business's name, if anything: the same rule for creating one,
 * naming one to delete, and pushing a deposit to one.
 */
export function nameProblem(name: string): string | undefined {
  if (name === '' || name.length > MAX_NAME_LENGTH) return `businessName must have 1 to ${MAX_NAME_LENGTH} characters.`;
  // JSON and percent-encoding can carry lone surrogates and control characters, which are not a name.
  // eslint-disable-next-line no-control-regex
  if (!isStorableText(name) || /[\u0000-\u001f\u007f-\u009f]/.test(name)) return 'businessName must be Unicode text without control characters.';
  // Refused rather than encoded: a URL client (fetch, a browser, curl) resolves the path
  // segment "." or ".." away before sending, and the URL standard reads "%2E%2E" as ".."
  // too, so no encoding of such a name would reach DELETE /businesses/{businessName}.
  if (name === '.' || name === '..') return 'businessName cannot be "." or "..": a URL path reads those as "this folder" and "the folder above", so the business could never be deleted.';
  return undefined;
}
