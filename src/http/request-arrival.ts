import type { FastifyReply } from 'fastify';

/**
 * performance.now() time the request arrived. Fastify starts a reply's clock before the onRequest hooks, so the
 * inbound rate limiter's wait (a round trip to Redis, its whole command timeout when Redis stalls) is counted:
 * a caller's timeout_ms runs from here, not from when the search began.
 */
export function arrivalOf(reply: FastifyReply): number {
  return performance.now() - reply.elapsedTime;
}
