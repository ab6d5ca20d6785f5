import type { FastifyReply } from 'fastify';

/** Aborts when the client goes away before the answer is written, so its fan-out stops too. */
export function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('the client closed the connection'));
  });
  return controller.signal;
}
