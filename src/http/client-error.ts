import type { Socket } from 'node:net';

/**
 * Requests Node's HTTP parser rejects before the app sees them (raw bytes in the request line, oversized
 * headers) get the API's JSON error shape and a closed connection, so a keep-alive client does not reuse a
 * socket the parser has given up on.
 */
export function handleClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const body = JSON.stringify({
    statusCode: status,
    error: tooLarge ? 'Request Header Fields Too Large' : 'Bad Request',
    code: 'QUERY_INVALID',
    message: tooLarge ? 'the request line or headers are too large' : 'the request could not be parsed as HTTP',
  });
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
