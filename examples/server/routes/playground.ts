import type { FastifyInstance } from 'fastify';

/**
 * The page's own Content-Security-Policy: its script and styles are inline, and it talks
 * to this server only. A page that tried to load anything from elsewhere (a CDN) would
 * be refused by the browser, which the playground's browser test would see.
 */
export const PLAYGROUND_CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'";

/** `GET /`: the playground (examples/playground), built once by the caller. */
export function playgroundRoute(app: FastifyInstance, html: string): void {
  app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').header('content-security-policy', PLAYGROUND_CSP).send(html));
}
