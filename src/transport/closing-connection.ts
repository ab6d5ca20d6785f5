import type { Server, ServerResponse } from 'node:http';

/**
 * For an answer whose headers may go out before a shutdown begins (a stream, an MCP exchange): those headers
 * promised keep-alive, and Node closes only the connections idle when the server stops listening. Once it has
 * stopped, the connection ends with this exchange, so a client that keeps idle sockets (a proxy's upstream pool)
 * cannot hold the close open until SHUTDOWN_GRACE_MS is over. Call it before anything is written: Node detaches
 * the socket from the response before a 'finish' listener runs, so it is taken now.
 */
export function endConnectionAfterShutdown(response: ServerResponse, server: Server): void {
  const socket = response.socket;
  response.once('finish', () => {
    if (!server.listening) socket?.destroySoon();
  });
}
