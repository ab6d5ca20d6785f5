import type { FastifyInstance } from 'fastify';

export interface Readiness {
  ready: boolean;
}

const statusSchema = { type: 'object', required: ['status'], properties: { status: { type: 'string' } } } as const;

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
        response: { 200: { ...statusSchema, description: 'The process answers: {"status":"ok"}.' } },
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
          200: { ...statusSchema, description: 'Ready for traffic: {"status":"ready"}.' },
          503: { ...statusSchema, description: 'Starting or draining: send traffic elsewhere ({"status":"not ready"}).' },
        },
      },
    },
    async (_request, reply) =>
      readiness.ready ? { status: 'ready' } : reply.status(503).send({ status: 'not ready' }),
  );
}
