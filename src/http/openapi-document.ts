import fastifySwagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { API_VERSION } from '../version.js';
import { documentServiceHeaders } from './documented-headers.js';
import { documentNodeRefusals } from './documented-node-refusals.js';
import { ERROR_ENVELOPE_ID, errorEnvelopeJsonSchema, sharedAnswerSchemas } from './response-schemas.js';

/**
 * The one inline style Swagger UI writes: the <style> inside its own SVG logo (its two colours), by its SHA-256 as
 * CSP takes it. @fastify/swagger-ui puts its logo in that one's place as soon as it is drawn, so the style changes
 * nothing on screen; allowed by hash, it is simply not reported as a violation. React sets every other style through
 * element.style (the CSSOM), which style-src does not govern, so 'unsafe-inline', which would also let injected
 * markup restyle the page (hide it, overlay it, read it out through attribute selectors), is not needed. A Swagger UI
 * whose logo style differs is reported by test/web/docs-page.test.ts, with the new hash in Chromium's message.
 */
const SWAGGER_UI_LOGO_STYLE = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";

/**
 * Swagger UI's own policy: its files only (no inline script, no inline style but its logo's), never framed. It shares
 * the page's origin, whose API key sits in sessionStorage: without a policy, any hole in Swagger UI could read it.
 * Not @fastify/swagger-ui's `staticCSP: true`, whose `upgrade-insecure-requests` breaks the docs of a service reached
 * over plain HTTP by another name than localhost, and whose `frame-ancestors 'self'` lets the service frame them.
 */
const SWAGGER_UI_CSP = [
  "default-src 'self'",
  "base-uri 'none'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
  "script-src 'self'",
  "script-src-attr 'none'",
  `style-src 'self' ${SWAGGER_UI_LOGO_STYLE}`,
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
].join('; ');

/** The two ways to send an API key (http/access-control.ts accepts both). */
const SECURITY_SCHEMES = {
  bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key>' },
  apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'X-API-Key: <API key>' },
} as const;

/**
 * The document's frame; paths come from the routes themselves. The security schemes are always documented,
 * so Swagger UI shows its Authorize button; they are required of every route (probes excepted) only when the
 * service runs with API keys, as the running service then does.
 */
function openApiOptions(keysRequired: boolean): FastifyDynamicSwaggerOptions['openapi'] {
  return {
    openapi: '3.0.3',
    info: {
      title: 'fedsearch',
      version: API_VERSION,
      description: 'Parallel federated search: many providers asked at once, one merged and ranked answer.',
      // package.json's licence: generators copy it into the client package they write.
      license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
    },
    tags: [
      { name: 'search', description: 'Federated search' },
      { name: 'operations', description: 'Every operation of the registry (also served over MCP)' },
      { name: 'providers', description: 'Provider catalogue' },
      { name: 'health', description: 'Liveness and readiness' },
    ],
    components: { securitySchemes: SECURITY_SCHEMES },
    ...(keysRequired ? { security: [{ bearerAuth: [] }, { apiKeyHeader: [] }] } : {}),
  };
}

/**
 * The OpenAPI document (GET /openapi.json) and Swagger UI (/docs). Call before any route: the shared error
 * envelope and answer shapes must be known when routes refer to them.
 */
export async function registerOpenApi(app: FastifyInstance, keysRequired: boolean): Promise<void> {
  // One error envelope under components.schemas, referred to by every error response, not copied into each.
  app.addSchema({ $id: ERROR_ENVELOPE_ID, ...errorEnvelopeJsonSchema });
  // So are the answer shapes several routes share: a generated client then has one type of each.
  for (const schema of sharedAnswerSchemas()) app.addSchema(schema);
  await app.register(fastifySwagger, {
    openapi: openApiOptions(keysRequired),
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => (typeof json.$id === 'string' ? json.$id : `def-${index}`) },
    // The headers every route's answers carry (request id, rate limit, Retry-After), which no route schema states, and
    // the refusals Node gives before any route.
    transformObject: (documents) => ('openapiObject' in documents ? documentNodeRefusals(documentServiceHeaders(documents.openapiObject)) : documents.swaggerObject),
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs', staticCSP: SWAGGER_UI_CSP });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
