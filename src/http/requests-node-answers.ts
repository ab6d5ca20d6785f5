import type { FastifyBaseLogger } from 'fastify';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import { API_SECURITY_HEADERS } from './security-headers.js';

interface Refusal {
  status: number;
  code: string;
  message: string;
  /** What the log line says was refused. */
  what: string;
  headers?: Record<string, string>;
}

/**
 * Requests Node answers itself before any route or hook sees them: an Expect other than 100-continue got a bare 417
 * with no body, and a CONNECT had its connection dropped without a word. Neither had a request id, the API's error
 * shape or security headers, a log line or a count. Answered here as client-error.ts answers what Node cannot parse:
 * the envelope, a request id (body and X-Request-Id) to quote, a log line at info (the caller's doing) and a count,
 * and a closed connection, since whatever the caller sends after its headers is never read.
 */
export function answerRequestsNodeRefuses(server: Server, log: FastifyBaseLogger, counted: (method: string, statusCode: number) => void): void {
  const answer = (method: string, refusal: Refusal, write: (status: number, headers: Record<string, string>, body: string) => void): void => {
    const requestId = randomUUID();
    // Not the header's or target's text: they are the caller's, and the log keeps those to a redacted request line.
    log.info({ reqId: requestId, statusCode: refusal.status, method }, `request rejected: ${refusal.what}`);
    counted(method, refusal.status);
    const title = STATUS_CODES[refusal.status] ?? 'Error';
    const body = JSON.stringify({ statusCode: refusal.status, error: title, code: refusal.code, message: refusal.message, request_id: requestId });
    write(refusal.status, {
      ...API_SECURITY_HEADERS,
      ...refusal.headers,
      'x-request-id': requestId,
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      connection: 'close',
    }, body);
  };

  server.on('checkExpectation', (request, response) => {
    const expectation = String(request.headers.expect ?? '').slice(0, 100);
    const message = `expect: ${JSON.stringify(expectation)} cannot be met; allowed: 100-continue, or no Expect header`;
    answer(request.method ?? 'UNPARSED', { status: 417, code: 'QUERY_INVALID', message, what: 'expectation not met' }, (status, headers, body) => {
      response.writeHead(status, headers);
      response.end(body);
    });
  });

  // The service is no proxy: no resource here takes CONNECT, so Allow is empty (RFC 9110: it allows no method).
  server.on('connect', (_request, socket) => {
    const message = 'method: CONNECT is not served, this service is not a proxy; allowed: GET, HEAD and POST on the API paths';
    answer('CONNECT', { status: 405, code: 'METHOD_NOT_ALLOWED', message, what: 'CONNECT', headers: { allow: '' } }, (status, headers, body) => {
      const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
      socket.on('error', () => socket.destroy());
      socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n${head}\r\n${body}`);
    });
  });
}
