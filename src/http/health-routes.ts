import type { FastifyInstance } from 'fastify';
import { ERROR_ENVELOPE_ID } from './response-schemas.js';

export interface Readiness {
  ready: boolean;
}

/** A probe's answer: `{"status": <the one word it can say>}`. */
function statusSchema(status: string) {
  return { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: [status] } } } as const;
}

/**
 * What a probe can meet before its handler, each in the error envelope: the Host check (http/host-check.ts) refuses a
 * name it does not admit, probes included; the query-string check (http/request-parsing.ts) refuses a malformed escape,
 * whatever the route; and once the service is closing, every request is turned away (app.ts). The document said a
 * probe answers nothing but 200 and 403 (and /readyz {"status":"not ready"} while draining, when it is SHUTTING_DOWN).
 */
const refusedBeforeProbe = {
  400: {
    $ref: `${ERROR_ENVELOPE_ID}#`,
    description:
      'The query string is not valid percent-encoded UTF-8 (QUERY_INVALID): a % not followed by two hexadecimal digits, or bytes that are not UTF-8. Any well-formed parameter is ignored.',
  },
  403: {
    $ref: `${ERROR_ENVELOPE_ID}#`,
    description: 'The Host header names a host this service does not answer (HOST_NOT_ALLOWED): list it in ALLOWED_HOSTS, or probe by IP address.',
  },
};

/** The service is closing (SIGTERM): a request on a connection still open is turned away, its connection closed. */
const SHUTTING_DOWN_DESCRIPTION = 'Shutting down (SHUTTING_DOWN, in the error envelope): the service takes no new requests and closes the connection';

/**
 * /healthz: the process answers. /readyz: it should get traffic (false while starting or draining).
 * Probes need no API key (`security: []`), whatever the document requires of other routes. Under pressure
 * (http/protection.ts) /readyz is shed like any route, which sends traffic elsewhere; /healthz still answers:
 * a liveness probe that failed would get a busy replica restarted, dropping every request in flight.
 * Unlike the API routes, the probes take any query parameter without a 400: load balancers and probe tools add
 * their own (cache busters, a source tag), and a probe refused for one would take a healthy replica out.
 */
export function registerHealthRoutes(app: FastifyInstance, readiness: Readiness): void {
  app.get(
    '/healthz',
    {
      // A pressure handler that returns nothing lets the request through.
      config: { pressureHandler: () => undefined },
      schema: {
        operationId: 'get_health',
        tags: ['health'],
        summary: 'Process alive',
        security: [],
        response: {
          200: { ...statusSchema('ok'), description: 'The process answers: {"status":"ok"}.' },
          ...refusedBeforeProbe,
          503: { $ref: `${ERROR_ENVELOPE_ID}#`, description: `${SHUTTING_DOWN_DESCRIPTION}.` },
        },
      },
    },
    async () => ({ status: 'ok' }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        operationId: 'get_readiness',
        tags: ['health'],
        summary: 'Ready to serve',
        security: [],
        response: {
          200: { ...statusSchema('ready'), description: 'Ready for traffic: {"status":"ready"}.' },
          ...refusedBeforeProbe,
          // Load shedding (http/protection.ts) and closing (app.ts) answer before the handler, in the error envelope.
          // The handler's own "not ready" is for a request handled before start-up has finished: listening starts after it.
          503: {
            description: `${SHUTTING_DOWN_DESCRIPTION}; or shedding load (OVERLOADED, with Retry-After); or not started yet ({"status":"not ready"}): send traffic elsewhere.`,
            oneOf: [statusSchema('not ready'), { $ref: `${ERROR_ENVELOPE_ID}#` }],
          },
        },
      },
    },
    async (_request, reply) =>
      readiness.ready ? { status: 'ready' } : reply.status(503).send({ status: 'not ready' }),
  );
}
