import type { FastifyReply } from 'fastify';
import { FedsearchError } from '../domain/errors.js';

/** Aborts when the client goes away before the answer is written, so its fan-out stops too. */
export function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    // A cancelled request (499), not a server failure: it must not page anyone.
    if (!reply.raw.writableFinished) controller.abort(new FedsearchError('REQUEST_CANCELLED', 'the client closed the connection'));
  });
  return controller.signal;
}
