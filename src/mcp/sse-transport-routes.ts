import { shownValue } from '../domain/shown-value.js';
import type { FastifyInstance } from 'fastify';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { handOver, SESSION_NOT_FOUND, sendMcpRefusal } from './replies.js';
import { reusedRequestIdRefusal } from './reused-request-id.js';
import type { TransportRouteOptions } from './route-options.js';
import { belongsTo, ownerOf, sendSessionRefusal } from './session-limits.js';
import { McpSession, sessionLogTag, type SessionStore } from './session-store.js';
import { invalidMessageRefusal } from './transport-preconditions.js';

export const SSE_PATH = '/sse';
export const MESSAGES_PATH = '/messages';

/**
 * Legacy HTTP+SSE (protocol 2024-11-05): GET /sse holds the stream the server answers on, POST
 * /messages?sessionId=… carries what the client says. The session ends with its stream, and also once the client
 * has posted nothing for MCP_SESSION_IDLE_MS (its stream then ends): an open stream alone is not a client at work,
 * and a client that holds one forever without a word would hold its session slot forever.
 */
export function registerSseRoutes(app: FastifyInstance, sessions: SessionStore<SSEServerTransport>, options: TransportRouteOptions): void {
  const routeOptions = { schema: { hide: true }, onRequest: options.guard, errorHandler: options.errorHandler };

  app.get(SSE_PATH, { ...routeOptions, exposeHeadRoute: false }, (request, reply) => {
    const owner = ownerOf(request);
    const refusal = options.limits.admit(owner);
    if (refusal) return sendSessionRefusal(request, reply, refusal);
    return handOver(reply, async (response) => {
      const transport = new SSEServerTransport(MESSAGES_PATH, response);
      // Only posted messages count as activity (the stream is not tracked): see IdleWatch.
      const session = new McpSession(transport.sessionId, options.createServer(transport.sessionId), transport, {
        idleMs: options.settings.sessionIdleMs,
        owner,
      });
      session.onClose(options.limits.hold(owner));
      transport.onclose = () => void session.close();
      sessions.add(session);
      // Before connecting: a failed connect ends the response, and the session (and its slot) with it.
      session.endWith(response);
      await session.server.connect(transport);
      // A comment line every heartbeatMs: proxies that cut silent streams see traffic, clients ignore it.
      const heartbeat = setInterval(() => response.write(': ping\n\n'), options.settings.heartbeatMs);
      heartbeat.unref();
      session.onClose(() => clearInterval(heartbeat));
      const mcpSession = sessionLogTag(session.id);
      request.log.info({ mcpSession }, 'MCP SSE session opened');
      session.onClose(() => request.log.info({ mcpSession }, 'MCP SSE session closed'));
    });
  });

  app.post(MESSAGES_PATH, routeOptions, (request, reply) => {
    const { sessionId } = request.query as { sessionId?: unknown };
    if (typeof sessionId !== 'string' || sessionId === '') {
      return sendMcpRefusal(request, reply, {
        status: 400,
        code: 'QUERY_INVALID',
        message: `Bad Request: the sessionId query parameter is required; open a session with GET ${SSE_PATH}`,
      });
    }
    const session = sessions.get(sessionId);
    // Another key's session is answered as an unknown one: a session id is no credential.
    if (!session || !belongsTo(session, request)) {
      return sendMcpRefusal(request, reply, {
        status: 404,
        code: 'NOT_FOUND',
        message: `Session not found: no open SSE session "${shownValue(sessionId)}"; open a new one with GET ${SSE_PATH}`,
        jsonRpcCode: SESSION_NOT_FOUND,
      });
    }
    const invalid = invalidMessageRefusal(request.body, false);
    if (invalid) return sendMcpRefusal(request, reply, invalid);
    const reused = reusedRequestIdRefusal(request.body, (id) => session.isPending(id));
    if (reused) return sendMcpRefusal(request, reply, reused);
    return handOver(reply, (response) => {
      session.track(response);
      return session.transport.handlePostMessage(request.raw, response, request.body);
    });
  });
}
