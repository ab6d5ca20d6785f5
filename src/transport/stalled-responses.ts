import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Closes a connection whose answer has waited unsent for `stallMs` with nothing moving on it: a client that stopped
 * reading (or never began) held the rest of its answer in this process for as long as it kept the connection, a
 * 10 MB PDF each, and a few such clients within the rate limit pinned memory every other caller needs.
 *
 * Node's socket timeout counts inactivity (nothing read, nothing written). It also fires on a connection whose
 * answer is still being worked out (a search, a PDF read) or a quiet stream between events: those are left open.
 * With a listener here, Node no longer closes any socket that times out on its own, so this one closes what Node
 * would have: a connection with no answer in progress, such as one idle past the keep-alive timeout between
 * requests (the same socket timeout, set to keepAliveTimeout meanwhile).
 */
export function closeStalledResponses(server: Server, stallMs: number): void {
  server.setTimeout(stallMs);
  server.on('timeout', (socket: Socket) => {
    if (!answerInProgress(socket) || socket.writableLength > 0) socket.destroy();
  });
}

/**
 * The response being written, or worked out, on this connection, if any: Node's server holds the response it serves
 * in `_httpMessage` from the request's arrival until the response is done (not a public field, but the one its own
 * timeout handling reads).
 */
export function responseInProgress(socket: Socket): ServerResponse | undefined {
  return (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
}

/** Whether an answer is being written, or worked out, on this connection (responseInProgress). */
export function answerInProgress(socket: Socket): boolean {
  return responseInProgress(socket) !== undefined;
}
