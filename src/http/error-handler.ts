import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { FedsearchError } from '../domain/errors.js';
import { retryAfterSeconds } from '../domain/retry-advice.js';
import { answeredPastTheApp } from './client-error.js';
import { pathOf } from './url-path.js';

/**
 * Maps every error to one JSON shape. Client errors keep their message (it says what was wrong and what is
 * allowed), and so do our own upstream errors (written by us, secrets redacted: "the page answered HTTP 404");
 * any other 5xx message is hidden behind a generic sentence and logged with the request id instead. Every
 * error answer carries that request id (as does the x-request-id header), so a caller has something to quote.
 */
export function registerErrorHandler(
  app: FastifyInstance,
  countUnrouted?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>,
  unroutedShapes?: UnroutedErrorShapes,
): void {
  app.setErrorHandler((error: FastifyError | FedsearchError | Error, request, reply) =>
    countUnrouted && request.is404
      ? answerCounted(error, request, reply, countUnrouted, unroutedShapes?.get(pathOf(request.url)))
      : sendErrorAnswer(request, reply, errorAnswer(error, request)),
  );
}

/** How a path whose clients read errors in a shape of their own (MCP: JSON-RPC) answers an error of its own. */
export type UnroutedErrorShape = (error: Error, request: FastifyRequest, reply: FastifyReply) => FastifyReply;

/**
 * By path (`/mcp`): a request no route serves there (PUT /mcp) fails before the not-found handler when its body cannot
 * be read, and is answered here, not by the routes' own error handler: on such a path in that path's shape, as its
 * 405 is (http/not-found-handler.ts), since its clients parse no other body.
 */
export type UnroutedErrorShapes = ReadonlyMap<string, UnroutedErrorShape>;

/**
 * A request no route serves can fail before the not-found handler counts it against its caller's rate limit: its
 * query's escape malformed, its body not JSON or past BODY_LIMIT_BYTES, each a 400 or 413 that went uncounted at any
 * rate (http/not-found-handler.ts). Counted here first, once (the count skips a request it already counted, such as
 * the not-found handler's own 429), and answered 429 past the limit.
 */
async function answerCounted(
  error: FastifyError | FedsearchError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
  countUnrouted: (request: FastifyRequest, reply: FastifyReply) => Promise<void>,
  shape: UnroutedErrorShape | undefined,
): Promise<FastifyReply> {
  try {
    await countUnrouted(request, reply);
  } catch (refusal) {
    return answer(refusal instanceof Error ? refusal : new Error(String(refusal)), request, reply, shape);
  }
  return answer(error, request, reply, shape);
}

function answer(error: Error, request: FastifyRequest, reply: FastifyReply, shape: UnroutedErrorShape | undefined): FastifyReply {
  return shape ? shape(error, request, reply) : sendErrorAnswer(request, reply, errorAnswer(error, request));
}

/** Sends an error's answer in the envelope, with its details and its wait (Retry-After and retry_after_ms) when it has them. */
export function sendErrorAnswer(request: FastifyRequest, reply: FastifyReply, answer: ErrorAnswer): FastifyReply {
  const body: Record<string, unknown> = errorEnvelope(request, answer.status, answer.code, answer.message);
  if (answer.details !== undefined) body.details = answer.details;
  if (answer.retryAfterMs !== undefined) {
    body.retry_after_ms = answer.retryAfterMs;
    void reply.header('retry-after', String(retryAfterSeconds(answer.retryAfterMs)));
  }
  return reply.status(answer.status).send(body);
}

/**
 * The one shape of every error answer, whoever refuses the request (this handler, the host check, access control):
 * the status and its reason phrase, our code, a message saying what was wrong and what is allowed, the request id.
 */
export function errorEnvelope(request: FastifyRequest, status: number, code: string, message: string): ErrorEnvelope {
  return { statusCode: status, error: STATUS_CODES[status] ?? 'Error', code, message, request_id: request.id };
}

export type ErrorEnvelope = { statusCode: number; error: string; code: string; message: string; request_id: string };

/** What an error answer says, whatever shape carries it: REST's envelope, or a JSON-RPC error on the MCP routes. */
export interface ErrorAnswer {
  status: number;
  code: string;
  message: string;
  /** Our own errors' details, written to be shown (fields, providers' outcomes); an internal one's are not. */
  details?: unknown;
  retryAfterMs?: number;
}

/** The answer to an error (logged here, once): its status, our code, and a message that is safe to show. */
export function errorAnswer(error: FastifyError | FedsearchError | Error, request: FastifyRequest): ErrorAnswer {
  const status = statusOf(error);
  const code = error instanceof FedsearchError ? error.code : codeOf(error, status);
  const showMessage = status < 500 || (error instanceof FedsearchError && code !== 'INTERNAL');
  // One answered past the app (client-error.ts) has its line there: the body read here failed only because its
  // connection was closed under the app, and a second line ("request rejected: aborted") told of no request of its own.
  if (!answeredPastTheApp(request.raw)) logFailure(request.log, error, status, code);
  const message = showMessage ? clientMessage(error, request) : `internal error; quote request id ${request.id} when reporting it`;
  const answer: ErrorAnswer = { status, code, message };
  if (error instanceof FedsearchError && error.details !== undefined && showMessage) answer.details = error.details;
  // Ours, or a refusal's that asks for a wait (the client rate limit's 429: http/protection.ts).
  const retryAfterMs = (error as { retryAfterMs?: unknown }).retryAfterMs;
  if (typeof retryAfterMs === 'number') answer.retryAfterMs = Math.max(0, Math.round(retryAfterMs));
  return answer;
}

/**
 * 503s the service gives by design about its own state (shedding load, closing, PDF readers busy, no outbound rate-limit
 * slot): rejections, logged as such, not failures with a stack (a busy service would write one per request turned away).
 */
const TURNED_AWAY: ReadonlySet<string> = new Set(['OVERLOADED', 'SHUTTING_DOWN', 'PDF_READERS_BUSY', 'OUTBOUND_RATE_LIMITED']);

/**
 * A fault of the service's own is an error. An upstream's failure (a provider's 500, a page that refuses the
 * connection, a provider without its key) is a warning with its code (and its cause chain, as an error has): the
 * caller is told what failed, and a provider down for an hour must not fill the error level, where alerts look,
 * with one line per request. A 503 about the service's own state and a 4xx are what the caller asked for: info.
 */
export function logFailure(log: FastifyBaseLogger, error: Error, status: number, code: string, message = 'request failed'): void {
  if (status < 500 || TURNED_AWAY.has(code)) log.info({ code, message: error.message }, 'request rejected');
  else if (error instanceof FedsearchError && code !== 'INTERNAL') log.warn({ code, err: error }, message);
  else log.error({ err: error }, message);
}

function statusOf(error: Error): number {
  if (error instanceof FedsearchError) return error.httpStatus;
  const status = (error as FastifyError).statusCode;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : 500;
}

function codeOf(error: Error, status: number): string {
  const fastifyCode = (error as FastifyError).code;
  if (fastifyCode === 'FST_ERR_CTP_BODY_TOO_LARGE') return 'BODY_TOO_LARGE';
  // Fastify's for a content-type, ours for a body sent compressed (http/body-encoding.ts).
  if (status === 415) return 'UNSUPPORTED_MEDIA_TYPE';
  if (status === 400) return 'QUERY_INVALID';
  if (status === 429) return 'RATE_LIMITED';
  return status >= 500 ? 'INTERNAL' : 'REQUEST_REJECTED';
}

function clientMessage(error: Error, request: FastifyRequest): string {
  const fastifyCode = (error as FastifyError).code;
  // Fastify's own words ("Unsupported Media Type", "Request body is too large") said neither what was sent nor what is allowed.
  if (fastifyCode === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    const sent = request.headers['content-type'];
    return `content-type: ${sent ? `"${sent.slice(0, 100)}" is not accepted` : 'missing'}; allowed: application/json, with a JSON object as the body`;
  }
  if (fastifyCode === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    const limit = request.routeOptions.bodyLimit;
    return `body: larger than ${limit} bytes; allowed: at most ${limit} bytes (BODY_LIMIT_BYTES)`;
  }
  // "<field>: <what is wrong>; <what is allowed>" as every other 400 reads (README: API). The parser's own words are
  // left out: they quote the body's text, which may hold a key.
  if (fastifyCode === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) return 'body: not valid JSON; allowed: a JSON object';
  if (fastifyCode === 'FST_ERR_CTP_EMPTY_JSON_BODY') return 'body: empty; allowed: a JSON object ({} when no parameter is needed)';
  return error.message;
}
