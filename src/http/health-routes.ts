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
 * What a probe can meet before its handler: the Host check (http/host-check.ts) refuses a name it does not admit,
 * probes included, in the error envelope; the document said a probe answers nothing but 200 (and /readyz 503).
 */
const refusedHost = {
  403: {
    $ref: `${ERROR_ENVELOPE_ID}#`,
    description: 'The Host header names a host this service does not answer (HOST_NOT_ALLOWED): list it in ALLOWED_HOSTS, or probe by IP address.',
  },
};

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
        response: { 200: { ...statusSchema('ok'), description: 'The process answers: {"status":"ok"}.' }, ...refusedHost },
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
          ...refusedHost,
          // Load shedding (http/protection.ts) answers before the handler, in the error envelope (OVERLOADED).
          503: {
            description: 'Starting or draining ({"status":"not ready"}), or shedding load (the error envelope, code OVERLOADED, with Retry-After): send traffic elsewhere.',
            oneOf: [statusSchema('not ready'), { $ref: `${ERROR_ENVELOPE_ID}#` }],
          },
        },
      },
    },
    async (_request, reply) =>
      readiness.ready ? { status: 'ready' } : reply.status(503).send({ status: 'not ready' }),
  );
}
