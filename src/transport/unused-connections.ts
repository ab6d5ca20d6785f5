import { ServerResponse, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { endConnectionAfterShutdown } from './closing-connection.js';

/** Node's own field: the response a connection is answering, null between requests and before the first. */
interface ServedSocket extends Socket {
  _httpMessage?: unknown;
}

/**
 * Ends, when a shutdown begins, the connections that never sent a byte. Node's `server.close()` ends idle
 * keep-alive connections, but not one that was opened and never sent a request (a browser's preconnect, a spare
 * socket of a client's pool): Node counts it as awaiting its first request's headers, and close() stops the timer
 * that would end it (headersTimeout). One such socket held every shutdown until SHUTDOWN_GRACE_MS was over, logged as
 * "exiting with requests still open". A connection that arrives once the shutdown has begun is ended at once.
 *
 * Counted per connection, not per request: a keep-alive connection's searches pay nothing for it.
 *
 * Returns what to call when the shutdown begins.
 */
export function endUnusedConnectionsOnShutdown(server: Server): () => void {
  const open = new Set<ServedSocket>();
  let closing = false;
  server.on('connection', (socket: ServedSocket) => {
    if (closing) {
      socket.destroy();
      return;
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  return () => {
    closing = true;
    // Only a connection that has sent nothing is ended now. One whose request is still arriving is answered 503
    // SHUTTING_DOWN and ended, an idle keep-alive one is ended by Node itself, and one answering a request is ended
    // after its answer: by `Connection: close` (the closing hook) when its headers are still to go, and here when they
    // went before the shutdown began, promising keep-alive (an answer sent as a stream: a page file, a compressed
    // answer), since Node ends only the connections idle when it stops listening.
    for (const socket of open) {
      const response = socket._httpMessage;
      if (response == null) {
        if (socket.bytesRead === 0) socket.destroy();
      } else if (response instanceof ServerResponse && response.headersSent) {
        endConnectionAfterShutdown(response, server);
      }
    }
  };
}
