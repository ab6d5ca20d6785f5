import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The headers helmet sets for the given options, worked out once. @fastify/helmet builds a new helmet
 * middleware from its options on every request; the headers of a route without its own helmet settings
 * never change, so they are computed at start-up and copied onto each answer.
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
 * Sends helmet's headers (for `options`) on every answer whose route has no `helmet` settings of its own;
 * @fastify/helmet, registered with `global: false`, still serves the routes that do (the search page's CSP).
 */
export function sendSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const headers = helmetHeaders(options);
  app.addHook('onRequest', (request, reply, done) => {
    if ((request.routeOptions.config as { helmet?: unknown }).helmet === undefined) void reply.headers(headers);
    done();
  });
}
