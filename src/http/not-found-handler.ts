import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { shownValue } from '../domain/shown-value.js';
import { errorAnswer, errorEnvelope } from './error-handler.js';
import { sendRefusal, type RefusalShapes } from './refusal.js';
import { pathOf } from './url-path.js';

/**
 * Answers a request no route matched: 405 with Allow for a known path asked with another method, else 404. Register
 * it before the routes, whose methods it collects. On a path that answers in a shape of its own (MCP's JSON-RPC) the
 * 405 takes that shape: an MCP client that sent PUT /mcp could not parse REST's envelope, nor find our code in it.
 * `countRequest` counts it against its caller's rate limit first (throwing the 429 past it): the limiter's hook runs
 * only on routes, so a scanner's unknown paths went uncounted, each writing a log line as long as its URL (16 KB).
 * That 429 takes the path's shape as the 405 does: thrown, it reached the app's error handler, REST's envelope, not
 * an MCP route's own (PUT /mcp was answered 405 in JSON-RPC, then 429 in a body an MCP client cannot parse).
 */
export function registerNotFoundHandler(
  app: FastifyInstance,
  refusalShapes?: RefusalShapes,
  countRequest?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>,
): void {
  const methodsByPath = collectMethodsByPath(app);
  app.setNotFoundHandler(async (request, reply) => {
    const path = pathOf(request.url);
    try {
      await countRequest?.(request, reply);
    } catch (error) {
      const shape = refusalShapes?.get(path);
      // Elsewhere the app's error handler answers it, in REST's envelope.
      if (!shape || !(error instanceof Error)) throw error;
      return shape(request, reply, errorAnswer(error, request));
    }
    const allowed = methodsByPath.get(path);
    if (allowed) {
      const methods = [...allowed].sort().join(', ');
      const message = `method: ${request.method} is not served at ${path}; allowed: ${methods}`;
      // No route matched, so the path, not the route, names the shape.
      return sendRefusal(request, reply, { status: 405, code: 'METHOD_NOT_ALLOWED', message, headers: { allow: methods } }, refusalShapes, path);
    }
    // The path is the caller's, up to the 16 KB a request head may hold: its start names it well enough.
    return reply.status(404).send(errorEnvelope(request, 404, 'NOT_FOUND', `no route ${request.method} ${shownValue(path)}; see /docs for the API`));
  });
}

/**
 * The methods each fixed path is served with (routes with parameters or wildcards are left out), kept as routes
 * are added. Fastify answers a known path asked with another method as it answers an unknown path, 404; a
 * caller who sent PUT to /v1/search/web was told the route does not exist instead of which methods it takes.
 */
function collectMethodsByPath(app: FastifyInstance): Map<string, Set<string>> {
  const methodsByPath = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    if (/[:*]/.test(route.url)) return;
    const methods = methodsByPath.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method);
    methodsByPath.set(route.url, methods);
  });
  return methodsByPath;
}
