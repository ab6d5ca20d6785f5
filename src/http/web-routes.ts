import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { fileURLToPath } from 'node:url';
import { PAGE_CONTENT_SECURITY_POLICY } from './protection.js';
import { routeSecurityHeaders } from './security-headers.js';

/** public/ beside src/ and dist/ alike: `npm start` and the Docker image both run from the project root. */
export const PUBLIC_DIR = fileURLToPath(new URL('../../public/', import.meta.url));

/**
 * The search page at `/`: plain HTML, CSS and ES modules from public/, no build step and nothing from a CDN.
 * The page gets a strict CSP (its own scripts and styles only); the JSON API keeps helmet's defaults. Every
 * file below /web/ gets that CSP too: the static files include index.html itself, which /web/index.html
 * served under the API's headers, without any CSP.
 */
export async function registerWebPage(app: FastifyInstance): Promise<void> {
  const pageHeaders = routeSecurityHeaders({ contentSecurityPolicy: { useDefaults: false, directives: PAGE_CONTENT_SECURITY_POLICY } });
  // A scope of its own, so its hook reaches the page's routes and no other.
  await app.register(async (page) => {
    page.addHook('onRequest', pageHeaders);
    // wildcard: false serves exactly the files present at start-up, one route each, and nothing else below /web/.
    await page.register(fastifyStatic, { root: PUBLIC_DIR, prefix: '/web/', wildcard: false, index: false });
    page.get('/', { schema: { hide: true } }, (_request, reply) => reply.sendFile('index.html'));
  });
}
