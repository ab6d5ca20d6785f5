import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorEnvelope } from './error-handler.js';

/** A request turned away by a hook before its route: what every shape of error answer says of it. */
export interface Refusal {
  status: number;
  code: string;
  message: string;
  /** Headers the answer must keep whatever its shape (WWW-Authenticate on a 401, which MCP clients read). */
  headers?: Record<string, string>;
  /** The wait a 429 or 503 asks for: sent by a shape as Retry-After and in its body (REST's carry it through its error handler). */
  retryAfterMs?: number;
}

/** How a route whose clients read errors in a shape of their own (MCP: JSON-RPC) answers a refusal. */
export type RefusalShape = (request: FastifyRequest, reply: FastifyReply, refusal: Refusal) => FastifyReply;

/** By route pattern (`/mcp`): the routes that answer refusals in their own shape; every other one gets REST's envelope. */
export type RefusalShapes = ReadonlyMap<string, RefusalShape>;

/**
 * Answers a refusal in the shape the request's route is read in; `route` is the request's route pattern, or its path
 * when no route matched (the not-found handler's 405).
 */
export function sendRefusal(
  request: FastifyRequest,
  reply: FastifyReply,
  refusal: Refusal,
  shapes?: RefusalShapes,
  route: string = request.routeOptions.url ?? '',
): FastifyReply {
  const shape = shapes?.get(route);
  if (shape) return shape(request, reply, refusal);
  return reply
    .code(refusal.status)
    .headers(refusal.headers ?? {})
    .send(errorEnvelope(request, refusal.status, refusal.code, refusal.message));
}
