import type { IncomingMessage } from 'node:http';

/** Where the app's id for a request is kept on Node's own request object. */
const APP_REQUEST_ID = Symbol('fedsearch.requestId');

type IdentifiedRequest = IncomingMessage & { [APP_REQUEST_ID]?: string };

/**
 * Keeps the id the app gave this request (logger.ts's genReqId) on Node's request object. A request may be answered
 * past the app (its body came too late, or the service began to shut down while it arrived: http/client-error.ts), from
 * a socket where no Fastify request can be found; the caller's X-Request-Id then matched none of the app's lines for
 * it. One property written on an object that exists anyway, the same one on every request: no allocation, no hook.
 */
export function rememberRequestId(request: IncomingMessage, id: string): string {
  (request as IdentifiedRequest)[APP_REQUEST_ID] = id;
  return id;
}

/** The id the app gave this request, if it was handed to the app. */
export function requestIdOf(request: IncomingMessage): string | undefined {
  return (request as IdentifiedRequest)[APP_REQUEST_ID];
}
