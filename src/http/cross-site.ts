import type { FastifyInstance } from 'fastify';
import { isOpenPath } from './access-control.js';
import { errorEnvelope } from './error-handler.js';

/**
 * Refuses what a browser says another site's page made it send (`Sec-Fetch-Site: cross-site`), unless that page's
 * origin is in CORS_ORIGINS. Without it, any page the user opened could drive a keyless service on localhost or
 * the private network with requests that need no preflight (`<img src>`, `<script src>`, `fetch(…, {mode:
 * 'no-cors'})`): each a search or a paper fetch, run on the operator's provider keys and quotas, unseen by the
 * user. It cannot read the answers, but need not. Probes, docs and the search page stay open to links from
 * anywhere; the MCP routes check Origin themselves (mcp/host-guard.ts), admitting pages from this machine.
 * Clients outside a browser send no Sec-Fetch-Site and are not affected. A link to an API address followed from
 * another site (a GET the user sees open as the page itself) is let through: shared links keep working, and a page
 * cannot make one unseen.
 */
export function registerCrossSiteCheck(app: FastifyInstance, corsOrigins: readonly string[], mcpRoutes: ReadonlySet<string>): void {
  if (corsOrigins.includes('*')) return;
  const allowed = new Set(corsOrigins.map((entry) => new URL(entry).origin));
  app.addHook('onRequest', (request, reply, done) => {
    if (request.headers['sec-fetch-site'] !== 'cross-site' || isLinkFollowed(request.headers)) return done();
    const origin = request.headers.origin;
    if ((origin !== undefined && allowed.has(origin)) || isOpenPath(request.url) || mcpRoutes.has(request.routeOptions.url ?? '')) return done();
    // Cut in the log line too: its length is the caller's choice, and each refusal is a line at warn.
    const shown = origin?.slice(0, 100);
    const message = `a request another site's page made the browser send is not allowed${
      shown === undefined ? '' : ` (origin ${JSON.stringify(shown)})`
    }: add the page's origin to CORS_ORIGINS to let it call the API`;
    request.log.warn({ origin: shown }, 'request refused: cross-site');
    void reply.code(403).send(errorEnvelope(request, 403, 'CROSS_SITE_REQUEST', message));
  });
}

/**
 * A top-level navigation by GET: the user followed a link or typed over another site's page, and the answer opens
 * as the page. Frames (`iframe` destination), images, scripts and fetches are not that; a form's POST is not a GET.
 */
function isLinkFollowed(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['sec-fetch-mode'] === 'navigate' && headers['sec-fetch-dest'] === 'document';
}
