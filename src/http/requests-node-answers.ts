import type { FastifyBaseLogger } from 'fastify';
import type { Server } from 'node:http';
import { UNMATCHED_ROUTE, UNPARSED_LABELS, type RequestLabels } from '../observability/request-observation.js';
import { rawAnswer, rawResponseText, type RawRefusal } from './raw-refusal.js';

/**
 * Requests Node answers itself before any route or hook sees them: an Expect other than 100-continue got a bare 417
 * with no body, and a CONNECT had its connection dropped without a word. Neither had a request id, the API's error
 * shape or security headers, a log line or a count. Answered here as client-error.ts answers what Node cannot parse
 * (raw-refusal.ts), with a log line at info (the caller's doing) and a count, under the route its method and target
 * would have reached (`routeOf`: route-patterns.ts), as the app counts that route's other refusals.
 */
export function answerRequestsNodeRefuses(
  server: Server,
  log: FastifyBaseLogger,
  counted: (labels: RequestLabels, statusCode: number) => void,
  routeOf: (method: string, target: string) => string,
): void {
  const answer = (labels: RequestLabels, refusal: RawRefusal, what: string) => {
    const reply = rawAnswer(refusal);
    // Not the header's or target's text: they are the caller's, and the log keeps those to a redacted request line.
    log.info({ reqId: reply.requestId, statusCode: refusal.status, method: labels.method, route: labels.route }, `request rejected: ${what}`);
    counted(labels, refusal.status);
    return reply;
  };

  server.on('checkExpectation', (request, response) => {
    const expectation = String(request.headers.expect ?? '').slice(0, 100);
    const message = `expect: ${JSON.stringify(expectation)} cannot be met; allowed: 100-continue, or no Expect header`;
    const method = request.method ?? UNPARSED_LABELS.method;
    const labels = { method, route: request.url === undefined ? UNMATCHED_ROUTE : routeOf(method, request.url) };
    const reply = answer(labels, { status: 417, code: 'QUERY_INVALID', message }, 'expectation not met');
    response.writeHead(reply.status, reply.headers);
    response.end(reply.body);
  });

  // The service is no proxy: no resource here takes CONNECT, so Allow is empty (RFC 9110: it allows no method).
  server.on('connect', (_request, socket) => {
    const message = 'method: CONNECT is not served, this service is not a proxy; allowed: GET, HEAD and POST on the API paths';
    // Its target is a host and port, which no route's path is.
    const reply = answer({ method: 'CONNECT', route: UNMATCHED_ROUTE }, { status: 405, code: 'METHOD_NOT_ALLOWED', message, headers: { allow: '' } }, 'CONNECT');
    socket.on('error', () => socket.destroy());
    socket.end(rawResponseText(reply));
  });
}
