import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The headers helmet sets for the given options, worked out once. (@fastify/helmet built a new helmet
 * middleware from its options on every request, in two hooks; the headers never change, so they are
 * computed at start-up and copied onto each answer.)
 */
export function helmetHeaders(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
    getHeader: (name: string) => headers[name.toLowerCase()],
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return headers;
}

/**
 * The API's helmet options: no CSP, since a JSON answer runs nothing. The pages send their own: the search page
 * (http/web-routes.ts) and Swagger UI at /docs (http/openapi-document.ts).
 */
export const API_HELMET_OPTIONS: Readonly<HelmetOptions> = { contentSecurityPolicy: false };

/** The API's headers, for answers no hook reaches (requests refused before routing, or never parsed). */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = helmetHeaders(API_HELMET_OPTIONS);

/** Sends helmet's headers for `options` on every answer; a route may add or override some in its own onRequest hook. */
export function sendSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const headers = helmetHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    void reply.headers(headers);
    done();
  });
}

/** A route's onRequest hook sending helmet's headers for its own options (they replace the app-wide ones). */
export function routeSecurityHeaders(options: Readonly<HelmetOptions>): onRequestHookHandler {
  const headers = helmetHeaders(options);
  return (_request, reply, done) => {
    void reply.headers(headers);
    done();
  };
}
