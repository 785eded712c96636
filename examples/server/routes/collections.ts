import type { FastifyInstance } from 'fastify';
import { check, toProblemDetails, type Diagnostic } from 'qsfilter';
import { splitUrl, sendProblem } from '../http';
import { readPage, readSelector } from '../params';
import { collections, selectorParams, type Resource } from '../resources';
import type { Store } from '../store/store';

/**
 * `GET /<collection>` for every collection: the raw query string is checked against the
 * collection's schema; a bad query is a 400 problem and nothing else happens. Otherwise
 * the answer is one page of the matches: `{ data, pagination: { offset, limit, count } }`,
 * where `count` is the number of all matches.
 */
export function collectionRoutes(app: FastifyInstance, store: Store): void {
  for (const resource of Object.keys(collections) as Resource[]) {
    const schema = collections[resource];
    const selectors = selectorParams(resource);
    app.get(`/${resource}`, async (request, reply) => {
      const { path, query } = splitUrl(request.url);
      const checked = check(query, schema);
      if (!checked.ok) return sendProblem(reply, toProblemDetails(checked.errors, { instance: path }));
      const page = readPage(checked.value.params);
      const select = readSelector(checked.value.params, selectors);
      if (!page.ok || !select.ok) {
        const errors: Diagnostic[] = [...(page.ok ? [] : page.errors), ...(select.ok ? [] : select.errors)];
        return sendProblem(reply, toProblemDetails(errors, { instance: path }));
      }
      const { data, count } = await store.find(resource, { filter: checked.value, select: select.value, page: page.value });
      return { data, pagination: { offset: page.value.offset, limit: page.value.limit, count } };
    });
  }
}
