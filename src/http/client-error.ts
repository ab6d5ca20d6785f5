import type { Socket } from 'node:net';

/**
 * Requests Node's HTTP parser rejects before the app sees them (raw bytes in the request line, oversized
 * headers, a request still arriving after REQUEST_TIMEOUT_MS) get the API's JSON error shape and a closed connection, so a keep-alive client does not reuse a
 * socket the parser has given up on.
 */
export function handleClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const { status, error: title, message } = describe(error.code);
  const body = JSON.stringify({ statusCode: status, error: title, code: status === 408 ? 'REQUEST_TIMEOUT' : 'QUERY_INVALID', message });
  socket.end(
    `HTTP/1.1 ${status} ${title}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function describe(code: string | undefined): { status: number; error: string; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, error: 'Request Header Fields Too Large', message: 'the request line or headers are too large' };
  // REQUEST_TIMEOUT_MS passed before the headers and body were in: the client is slow, or holding the socket.
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, error: 'Request Timeout', message: 'the request did not arrive in full within REQUEST_TIMEOUT_MS' };
  return { status: 400, error: 'Bad Request', message: 'the request could not be parsed as HTTP' };
}
