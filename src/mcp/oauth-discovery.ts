import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Where an MCP client looks for OAuth after a 401 (RFC 9728 protected-resource metadata, RFC 8414 /
 * OpenID authorization-server metadata, then dynamic client registration at /register).
 */
const DISCOVERY_DOCUMENTS = ['/.well-known/oauth-protected-resource', '/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'];
const REGISTRATION_PATH = '/register';

// The word "Unauthorized" stays out: mcp-remote reads it as "start the browser sign-in" and then waits forever.
const NO_OAUTH =
  'fedsearch does not use OAuth: send the API key as an HTTP header, Authorization: Bearer <key> or X-API-Key: <key> (with mcp-remote: --header "Authorization: Bearer ${KEY}")';

function noOAuth(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  // The service's one error shape (http/error-handler.ts's errorEnvelope, out of reach of this layer), request_id
  // included so a caller has something to quote; error_description is what OAuth clients show from a failed
  // discovery or registration.
  return reply.code(404).send({
    statusCode: 404,
    error: 'Not Found',
    code: 'OAUTH_NOT_SUPPORTED',
    message: NO_OAUTH,
    request_id: request.id,
    error_description: NO_OAUTH,
  });
}

/**
 * Access is by API key, not OAuth. An MCP client given a 401 tries OAuth discovery, and one with a sign-in
 * flow (mcp-remote) waits for a browser sign-in that can never happen unless discovery fails plainly. So
 * every discovery document and the registration endpoint answer 404, without a key, saying how to send one.
 */
export function registerOAuthDiscoveryRoutes(app: FastifyInstance): void {
  const options = { schema: { hide: true } };
  for (const path of DISCOVERY_DOCUMENTS) {
    app.get(path, options, async (request, reply) => noOAuth(request, reply));
    app.get(`${path}/*`, options, async (request, reply) => noOAuth(request, reply));
  }
  app.post(REGISTRATION_PATH, options, async (request, reply) => noOAuth(request, reply));
}
