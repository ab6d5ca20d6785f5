import { shownValue } from '../domain/shown-value.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, isJSONRPCRequest, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { cancelledRequestIds, releaseStream } from './cancelled-streams.js';
import { handOver, SESSION_NOT_FOUND, sendMcpRefusal, type McpRefusal } from './replies.js';
import { requestIdOf, reusedRequestIdRefusal } from './reused-request-id.js';
import type { TransportRouteOptions } from './route-options.js';
import { belongsTo, ownerOf, sendSessionRefusal } from './session-limits.js';
import { ENDED_BY_DELETE } from './session-closing.js';
import { McpSession, sessionLogTag, type SessionStore } from './session-store.js';
import { StatelessCalls } from './stateless-calls.js';
import { initializeRefusal, SECOND_STREAM_REFUSAL, streamablePreconditionRefusal } from './transport-preconditions.js';

export const MCP_PATH = '/mcp';

type StreamableSession = McpSession<StreamableHTTPServerTransport>;

function sessionIdOf(request: FastifyRequest): string | undefined {
  const value = request.headers['mcp-session-id'];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function isInitialization(body: unknown): boolean {
  return Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body);
}

/** Whether a message names initialize: a field read, so that a tool call does not pay the schema parse isInitialization is. */
function namesInitialize(message: unknown): boolean {
  return typeof message === 'object' && message !== null && (message as { method?: unknown }).method === 'initialize';
}

/** isInitialization, asked only of a body with a message that names initialize (a session's every POST comes here). */
function initializesCheaply(body: unknown): boolean {
  const named = Array.isArray(body) ? body.some(namesInitialize) : namesInitialize(body);
  return named && isInitialization(body);
}

/**
 * A JSON-RPC batch runs each of its requests as a call of its own, but the rate limiter counts the POST once: up
 * to 100 fetches or searches (the SDK's batch cap) for one request of RATE_LIMIT_MAX. MCP has dropped batches
 * (2025-06-18) and the SDK's clients send none, so a POST may carry one request at most; notifications and
 * responses may still come with it.
 */
function batchesRequests(body: unknown): boolean {
  return Array.isArray(body) && body.filter(isJSONRPCRequest).length > 1;
}

function refuseBatch(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendMcpRefusal(request, reply, {
    status: 400,
    code: 'QUERY_INVALID',
    message: 'Bad Request: send one request per POST; a batch of requests would count as one against the rate limit',
  });
}

/**
 * A client that drops a POST's response stream will never read the answers it asked for there: its
 * requests count as cancelled, as if it had sent notifications/cancelled, so their searches stop too.
 */
function cancelWhenDropped(transport: StreamableHTTPServerTransport, body: unknown, response: ServerResponse): void {
  const requestIds = (Array.isArray(body) ? body : [body]).filter(isJSONRPCRequest).map((message) => message.id);
  if (requestIds.length === 0) return;
  response.once('close', () => {
    if (response.writableFinished) return;
    for (const requestId of requestIds) {
      transport.onmessage?.({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId, reason: 'the client closed the connection' },
      });
      releaseStream(transport, requestId, 'the client closed the connection');
    }
  });
}

function serve(session: StreamableSession, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  return handOver(reply, async (response) => {
    session.track(response);
    cancelWhenDropped(session.transport, request.body, response);
    await session.transport.handleRequest(request.raw, response, request.body);
    // Handed on first, and only once the transport took it (its protocol version, say, may be refused): the server
    // stops the call, then its stream ends.
    if (response.statusCode >= 300) return;
    for (const requestId of cancelledRequestIds(request.body)) releaseStream(session.transport, requestId, 'the client cancelled the request');
  });
}

/** The SDK's clients open a new session on this 404 (with -32001, the SDK's own answer): its status stays. */
function sessionNotFound(request: FastifyRequest, reply: FastifyReply, sessionId: string): FastifyReply {
  return sendMcpRefusal(request, reply, {
    status: 404,
    code: 'NOT_FOUND',
    message: `Session not found: "${shownValue(sessionId)}" is unknown or has ended; send a new initialize request`,
    jsonRpcCode: SESSION_NOT_FOUND,
  });
}

function sessionIdMissing(request: FastifyRequest, reply: FastifyReply, message: string): FastifyReply {
  return sendMcpRefusal(request, reply, { status: 400, code: 'QUERY_INVALID', message });
}

/** Streamable HTTP with sessions: POST initialize opens one, Mcp-Session-Id names it after that. */
function registerStatefulRoutes(app: FastifyInstance, sessions: SessionStore<StreamableHTTPServerTransport>, options: TransportRouteOptions): void {
  const routeOptions = { schema: { hide: true }, onRequest: options.guard, errorHandler: options.errorHandler };

  const openSession = async (request: FastifyRequest): Promise<StreamableSession> => {
    const id = randomUUID();
    const owner = ownerOf(request);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      keepAliveMs: options.settings.heartbeatMs,
      onsessioninitialized: (): void => {
        sessions.add(session);
        const mcpSession = sessionLogTag(id);
        request.log.info({ mcpSession }, 'MCP Streamable HTTP session opened');
        session.onClose(() => request.log.info({ mcpSession }, 'MCP Streamable HTTP session closed'));
      },
      // Called once the DELETE is found valid, before the transport ends every stream of the session with nothing written.
      onsessionclosed: () => session.answerPending(ENDED_BY_DELETE),
    });
    const session: StreamableSession = new McpSession(id, options.createServer(id), transport, {
      idleMs: options.settings.sessionIdleMs,
      owner,
      idleSessions: options.limits.idleSessions,
    });
    // Taken before the first await, so concurrent initialize requests see each other's slots.
    session.onClose(options.limits.hold(owner));
    transport.onclose = () => void session.close();
    try {
      await session.server.connect(transport);
    } catch (error) {
      await session.close();
      throw error;
    }
    return session;
  };

  /** The session this request names, if it is open and was opened with the same API key. */
  const sessionFor = (request: FastifyRequest, sessionId: string): StreamableSession | undefined => {
    const session = sessions.get(sessionId);
    return session && belongsTo(session, request) ? session : undefined;
  };

  /** GET streams open, one a session at most (the transport's rule, checked here to refuse in our shape). */
  const streaming = new WeakSet<StreamableSession>();

  /**
   * The JSON-RPC ids of each session's POSTs that passed the reused-id check and whose response is still open. The
   * session counts a request as pending only once the transport reads it, after an await (the SDK converts the
   * request first): a second POST with the same id arriving meanwhile passed the check. Held from the check on, in the
   * same tick, until the POST's response closes: its call answered or cancelled (which ends its stream), or refused.
   */
  const checkedIds = new WeakMap<StreamableSession, Set<RequestId>>();

  const heldIdsOf = (session: StreamableSession): Set<RequestId> => {
    let held = checkedIds.get(session);
    if (held === undefined) checkedIds.set(session, (held = new Set()));
    return held;
  };

  /** A POST's refusal for reusing an id in use; else its id is held until its response closes. */
  const checkRequestId = (session: StreamableSession, request: FastifyRequest, reply: FastifyReply): McpRefusal | undefined => {
    const held = heldIdsOf(session);
    const reused = reusedRequestIdRefusal(request.body, (id) => held.has(id) || session.isPending(id));
    if (reused) return reused;
    const id = requestIdOf(request.body);
    if (id === undefined) return undefined;
    held.add(id);
    reply.raw.once('close', () => held.delete(id));
    return undefined;
  };

  /** Serves a request the transport would take: the refusals it would write itself go in ours (transport-preconditions.ts). */
  const serveChecked = (session: StreamableSession, request: FastifyRequest, reply: FastifyReply): Promise<void> | FastifyReply => {
    const initializes = request.method === 'POST' && initializesCheaply(request.body);
    const precondition = streamablePreconditionRefusal(request, () => initializes) ?? (initializes ? initializeRefusal(request.body, true) : undefined);
    if (precondition) return sendMcpRefusal(request, reply, precondition);
    const reused = request.method === 'POST' ? checkRequestId(session, request, reply) : undefined;
    if (reused) return sendMcpRefusal(request, reply, reused);
    if (request.method === 'GET') {
      if (streaming.has(session)) return sendMcpRefusal(request, reply, SECOND_STREAM_REFUSAL);
      streaming.add(session);
      reply.raw.once('close', () => streaming.delete(session));
    }
    return serve(session, request, reply);
  };

  app.post(MCP_PATH, routeOptions, async (request, reply) => {
    if (batchesRequests(request.body)) return refuseBatch(request, reply);
    const sessionId = sessionIdOf(request);
    if (sessionId !== undefined) {
      const session = sessionFor(request, sessionId);
      return session ? serveChecked(session, request, reply) : sessionNotFound(request, reply, sessionId);
    }
    if (!isInitialization(request.body)) {
      return sessionIdMissing(request, reply, 'Bad Request: Mcp-Session-Id header is required; start a session with an initialize request');
    }
    // Before a session is opened for it: one the transport would refuse (a wrong Accept header) opens none.
    const precondition = streamablePreconditionRefusal(request, () => true) ?? initializeRefusal(request.body, false);
    if (precondition) return sendMcpRefusal(request, reply, precondition);
    const refusal = options.limits.admit(ownerOf(request));
    if (refusal) return sendSessionRefusal(request, reply, refusal);
    const session = await openSession(request);
    // An initialize the transport still refused opened nothing to keep.
    reply.raw.once('close', () => {
      if (sessions.get(session.id) !== session) void session.close();
    });
    return serve(session, request, reply);
  });

  const existingSession = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const sessionId = sessionIdOf(request);
    if (sessionId === undefined) return sessionIdMissing(request, reply, 'Bad Request: Mcp-Session-Id header is required');
    const session = sessionFor(request, sessionId);
    return session ? serveChecked(session, request, reply) : sessionNotFound(request, reply, sessionId);
  };
  app.get(MCP_PATH, { ...routeOptions, exposeHeadRoute: false }, existingSession);
  app.delete(MCP_PATH, { ...routeOptions, onRequest: [options.guard, ignoreEmptyBodyType] }, existingSession);
}

/**
 * DELETE carries no body, but clients that send their common headers with every request (Python's, among others)
 * send Content-Type: application/json with it, and Fastify then parses the empty body and answers 400 "the body is
 * empty": the session the client ended stayed open, holding its slot until it idled out. With no body to read,
 * the header says nothing, so it goes before Fastify looks at it.
 */
async function ignoreEmptyBodyType(request: FastifyRequest): Promise<void> {
  const { headers } = request.raw;
  const empty = headers['transfer-encoding'] === undefined && (headers['content-length'] === undefined || headers['content-length'] === '0');
  if (empty) delete headers['content-type'];
}

/** MCP_STATELESS: every POST gets a fresh server and transport, closed with its response; no sessions to share between replicas. */
function registerStatelessRoutes(app: FastifyInstance, exchanges: SessionStore<StreamableHTTPServerTransport>, options: TransportRouteOptions): void {
  const routeOptions = { schema: { hide: true }, onRequest: options.guard, errorHandler: options.errorHandler };

  const calls = new StatelessCalls();

  app.post(MCP_PATH, routeOptions, (request, reply) => {
    if (batchesRequests(request.body)) return refuseBatch(request, reply);
    const initializes = initializesCheaply(request.body);
    const precondition = streamablePreconditionRefusal(request, () => initializes) ?? (initializes ? initializeRefusal(request.body, false) : undefined);
    if (precondition) return sendMcpRefusal(request, reply, precondition);
    const owner = ownerOf(request);
    calls.deliverCancellations(owner, request.body);
    return handOver(reply, async (response) => {
      const id = randomUUID();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, keepAliveMs: options.settings.heartbeatMs });
      const exchange = new McpSession(id, options.createServer(id), transport);
      exchanges.add(exchange);
      await exchange.server.connect(transport);
      // A closed response closes the exchange's server, which aborts its call: no other stream could carry the answer.
      exchange.endWith(response);
      calls.track(owner, request.body, transport, response);
      await transport.handleRequest(request.raw, response, request.body);
    });
  });

  const notAllowed = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> =>
    sendMcpRefusal(request, reply, {
      status: 405,
      code: 'METHOD_NOT_ALLOWED',
      message: 'Method Not Allowed: this server is stateless (MCP_STATELESS=true), so it has no streams or sessions; use POST',
      headers: { allow: 'POST' },
    });
  app.get(MCP_PATH, { ...routeOptions, exposeHeadRoute: false }, notAllowed);
  app.delete(MCP_PATH, routeOptions, notAllowed);
}

export function registerStreamableRoutes(app: FastifyInstance, sessions: SessionStore<StreamableHTTPServerTransport>, options: TransportRouteOptions): void {
  if (options.settings.stateless) registerStatelessRoutes(app, sessions, options);
  else registerStatefulRoutes(app, sessions, options);
}
