import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { errorAnswer, errorEnvelope, sendErrorAnswer } from './error-handler.js';
import { API_SECURITY_HEADERS } from './security-headers.js';

/** What the caller is told, by the Fastify code of a request refused before routing. */
const MESSAGES: Readonly<Record<string, string>> = {
  FST_ERR_BAD_URL: 'path: not valid percent-encoding; allowed: a % followed by two hexadecimal digits (%20), and %25 for a % itself',
  FST_ERR_MAX_PARAM_LENGTH: 'path: a path segment is too long',
};

/**
 * Fastify's frameworkErrors: a request Fastify refuses before routing it (a path with a malformed escape such as
 * `/%zz`, common among scanners) is answered by Fastify past every hook, so it had no request id, none of the
 * API's error shape, no count in fedsearch_http_requests_total and no log line: an operator saw none of them.
 * `answered` does for it what the onResponse hooks and the log controller do for every other answer. `countRequest`
 * counts it against its caller's rate limit first (by address: no key was read), rejecting with the 429 past it: no
 * hook of the limiter runs either, so a scanner's malformed paths, each logged as long as its URL, went uncounted.
 */
export function answerRefusedBeforeRouting(
  answered: (request: FastifyRequest, reply: FastifyReply) => void,
  countRequest?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>,
): NonNullable<FastifyServerOptions['frameworkErrors']> {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    // Both are the caller's doing: 400 for the escape, 414 for the length (async route constraints, the third kind, are not used).
    const status = error.statusCode ?? 400;
    const message = MESSAGES[error.code] ?? 'the request could not be routed';
    const answer = (): void => {
      // No hook runs for such a reply, so the headers the onRequest hooks add to every other answer are added here.
      void reply.status(status).headers(API_SECURITY_HEADERS).header('x-request-id', request.id).send(errorEnvelope(request, status, 'QUERY_INVALID', message));
      answered(request, reply);
    };
    if (!countRequest) return answer();
    countRequest(request, reply).then(answer, (refusal: Error) => {
      void reply.headers(API_SECURITY_HEADERS).header('x-request-id', request.id);
      sendErrorAnswer(request, reply, errorAnswer(refusal, request));
      answered(request, reply);
    });
  };
}
