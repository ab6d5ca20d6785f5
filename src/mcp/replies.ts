import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { retryAfterSeconds } from '../domain/retry-advice.js';
import { endConnectionAfterShutdown } from '../transport/closing-connection.js';
import { carryCaller } from './calling-request.js';

/** The JSON-RPC error codes the SDK's transports use over HTTP. */
export const SESSION_NOT_FOUND = -32001;
export const TRANSPORT_ERROR = -32000;
const INTERNAL_ERROR = -32603;
const PARSE_ERROR = -32700;

function errorBody(code: number, message: string, data?: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: '2.0', error: data === undefined ? { code, message } : { code, message, data }, id: null });
}

/**
 * The body of a refusal written past the app, raw to the socket (a request still arriving when a shutdown begins, or
 * whose body came too late): the JSON-RPC error sendMcpRefusal writes, with the code its error handler would pick.
 */
export function mcpRawRefusalBody(refusal: { status: number; code: string; message: string }, requestId: string): string {
  return errorBody(refusal.status >= 500 ? INTERNAL_ERROR : TRANSPORT_ERROR, refusal.message, { code: refusal.code, request_id: requestId });
}

/**
 * An MCP route's error answer, as http/refusal.ts describes one (status, our code, message): a request turned away
 * before its transport reads it, or one the routes themselves refuse (no session, a batch, a method not served).
 */
export interface McpRefusal {
  status: number;
  code: string;
  message: string;
  /** Kept as they are: a 401's WWW-Authenticate, which MCP clients read to find how to authenticate. */
  headers?: Record<string, string>;
  /** Sent as Retry-After (seconds, rounded up) and as data.retry_after_ms. */
  retryAfterMs?: number;
  /** Our own errors' details, written to be shown: in data.details. */
  details?: unknown;
  /** The JSON-RPC code, when not the transport's own -32000: -32700 for a parse error, -32603 for an internal one. */
  jsonRpcCode?: number;
}

/**
 * Every error answer the MCP routes give themselves (the SDK's transports write their own): a JSON-RPC error, the
 * body MCP clients parse where REST's envelope was one they cannot, with REST's status, message and headers, and our
 * code and the request id in `data`, so that a client can branch on the code and an operator can find the log lines
 * of the request a client's report quotes.
 */
export function sendMcpRefusal(request: FastifyRequest, reply: FastifyReply, refusal: McpRefusal): FastifyReply {
  const data: Record<string, unknown> = { code: refusal.code, request_id: request.id };
  if (refusal.details !== undefined) data.details = refusal.details;
  const headers: Record<string, string> = { ...refusal.headers };
  if (refusal.retryAfterMs !== undefined) {
    data.retry_after_ms = refusal.retryAfterMs;
    headers['retry-after'] = String(retryAfterSeconds(refusal.retryAfterMs));
  }
  return reply
    .status(refusal.status)
    .headers({ 'content-type': 'application/json; charset=utf-8', ...headers })
    .send(errorBody(refusal.jsonRpcCode ?? TRANSPORT_ERROR, refusal.message, data));
}

/**
 * How the service answers an error: its status, its code, a message safe to show (http/error-handler.ts's
 * errorAnswer, handed down by the app, since this layer sits beside http/ and not above it).
 */
export type ErrorAnswering = (
  error: Error,
  request: FastifyRequest,
) => { status: number; code: string; message: string; details?: unknown; retryAfterMs?: number };

/** Fastify's errors for a body it could not read as JSON: what JSON-RPC calls a parse error. */
const UNREADABLE_JSON: ReadonlySet<string> = new Set(['FST_ERR_CTP_INVALID_JSON_BODY', 'FST_ERR_CTP_EMPTY_JSON_BODY']);

/**
 * The MCP routes' error handler: a request refused before its transport reads it (a body that is not JSON, too large
 * or of another content type, the rate limit) is answered as the transport answers, with a JSON-RPC error (a parse
 * error for a body that is not JSON), not REST's envelope. Status, message and Retry-After are the ones REST gives;
 * our code, the request id and any details go in `data`.
 */
export function mcpErrorHandler(answerError: ErrorAnswering) {
  return (error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const answer = answerError(error, request);
    const unreadable = UNREADABLE_JSON.has((error as FastifyError).code ?? '') || error instanceof SyntaxError;
    return sendMcpRefusal(request, reply, { ...answer, jsonRpcCode: unreadable ? PARSE_ERROR : answer.status >= 500 ? INTERNAL_ERROR : TRANSPORT_ERROR });
  };
}

/**
 * Hands the raw response to an SDK transport: Fastify stops managing it (its JSON body is already parsed and
 * passed on), proxies are told not to buffer, and a failure still ends the response instead of leaving it open.
 * The headers the onRequest hooks gave the reply (helmet's, x-request-id, CORS, rate-limit counts) go onto the
 * raw response first: Fastify writes them only with an answer it sends itself, and the SDK's transports write
 * their own status and headers, which Node merges with these.
 */
export async function handOver(reply: FastifyReply, serve: (response: ServerResponse) => Promise<void>): Promise<void> {
  reply.hijack();
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
  reply.raw.setHeader('X-Accel-Buffering', 'no');
  endConnectionAfterShutdown(reply.raw, reply.server.server);
  try {
    // Fastify's reply clock started as the request arrived, before the onRequest hooks (the rate limit, which may wait on Redis).
    carryCaller(reply.request, performance.now() - reply.elapsedTime);
    await serve(reply.raw);
  } catch (error) {
    reply.log.error({ err: error }, 'MCP transport failed');
    if (reply.raw.headersSent) {
      reply.raw.end();
      return;
    }
    // Hijacked: Fastify sends nothing more, so the answer goes onto the raw response, in the shape sendMcpRefusal gives.
    const data = { code: 'INTERNAL', request_id: reply.request.id };
    reply.raw
      .writeHead(500, { 'content-type': 'application/json; charset=utf-8' })
      .end(errorBody(INTERNAL_ERROR, 'internal error; see the server log for this request id', data));
  }
}
