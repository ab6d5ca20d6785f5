import type { FastifyInstance, onSendHookHandler } from 'fastify';
import { endConnectionAfterShutdown } from '../transport/closing-connection.js';

/**
 * An answer sent as a stream (a file of the page, an answer being compressed) may still be going out when a
 * shutdown begins: its connection then ends with it, as a search stream's does, rather than staying open for
 * the client's next request and holding the close until SHUTDOWN_GRACE_MS is over. Added to every route after
 * the hooks before it (compression turns a string into a stream), so it sees the payload that is sent.
 */
export function endStreamedAnswersAfterShutdown(app: FastifyInstance): void {
  const onStreamedAnswer: onSendHookHandler = (_request, reply, payload, done) => {
    if (typeof (payload as { pipe?: unknown } | null)?.pipe === 'function') endConnectionAfterShutdown(reply.raw, reply.server.server);
    done(null, payload);
  };
  app.addHook('onRoute', (route) => {
    const earlier = route.onSend;
    route.onSend = earlier === undefined ? [onStreamedAnswer] : [...(Array.isArray(earlier) ? earlier : [earlier]), onStreamedAnswer];
  });
}
