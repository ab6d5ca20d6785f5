import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { endConnectionAfterShutdown } from './closing-connection.js';
import { responseInProgress } from './stalled-responses.js';

/**
 * How long, once a shutdown begins, a request whose head is arriving has to finish it (and be answered 503 by the
 * app's closing hook): a client sends its whole head in one go, so a second is ample for a late packet.
 */
const HEAD_ARRIVAL_BOUND_MS = 1000;

/**
 * Ends, when a shutdown begins, the connections that never sent a byte. Node's `server.close()` ends idle
 * keep-alive connections, but not one that was opened and never sent a request (a browser's preconnect, a spare
 * socket of a client's pool): Node counts it as awaiting its first request's headers, and close() stops the timer
 * that would end it (headersTimeout). One such socket held every shutdown until SHUTDOWN_GRACE_MS was over, logged as
 * "exiting with requests still open". A connection that arrives once the shutdown has begun is ended at once.
 *
 * Counted per connection, not per request: a keep-alive connection's searches pay nothing for it.
 *
 * `endArrivingRequest` ends a connection whose request's body is still arriving (Node's close() and the app both
 * waited for it, for up to twice REQUEST_TIMEOUT_MS), and says whether it did.
 *
 * Returns what to call when the shutdown begins.
 */
export function endUnusedConnectionsOnShutdown(server: Server, endArrivingRequest: (socket: Socket) => boolean): () => void {
  const open = new Set<Socket>();
  let closing = false;
  server.on('connection', (socket: Socket) => {
    if (closing) {
      socket.destroy();
      return;
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  /**
   * A connection whose request's head has not come in full within the bound never gets one: Node's close() stops
   * the headers timeout that would have ended it and waits for it, so one such client held the shutdown for all of
   * SHUTDOWN_GRACE_MS. Ended after what was written to it has gone (destroySoon), as is a request whose head came
   * meanwhile and whose body is still arriving.
   */
  const endLateArrivals = (): void => {
    for (const socket of open) {
      if (endArrivingRequest(socket)) continue;
      if (responseInProgress(socket) === undefined) socket.destroySoon();
    }
  };
  return () => {
    closing = true;
    // A connection that has sent nothing is ended now, and so is one whose request's body is still arriving (answered
    // 503 SHUTTING_DOWN unless answered already). One whose request's head is still arriving is answered 503 SHUTTING_DOWN
    // by the app's hook and ended when it comes, or ended once HEAD_ARRIVAL_BOUND_MS has passed; an idle keep-alive one
    // is ended by Node itself, and one answering a request is ended after its answer: by `Connection: close` (the
    // closing hook) when its headers are still to go, and here when they went before the shutdown began, promising
    // keep-alive (an answer sent as a stream: a page file, a compressed answer), since Node ends only the connections
    // idle when it stops listening.
    for (const socket of open) {
      if (endArrivingRequest(socket)) continue;
      const response = responseInProgress(socket);
      if (response === undefined) {
        if (socket.bytesRead === 0) socket.destroy();
      } else if (response.headersSent) {
        endConnectionAfterShutdown(response, server);
      }
    }
    setTimeout(endLateArrivals, HEAD_ARRIVAL_BOUND_MS).unref();
  };
}
