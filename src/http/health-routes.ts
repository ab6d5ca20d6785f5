import type { FastifyInstance } from 'fastify';

export interface Readiness {
  ready: boolean;
}

const statusSchema = { type: 'object', properties: { status: { type: 'string' } } } as const;

/** /healthz: the process answers. /readyz: it should get traffic (false while starting or draining). */
export function registerHealthRoutes(app: FastifyInstance, readiness: Readiness): void {
  app.get('/healthz', { schema: { tags: ['health'], summary: 'Process alive', response: { 200: statusSchema } } }, async () => ({
    status: 'ok',
  }));
  app.get(
    '/readyz',
    { schema: { tags: ['health'], summary: 'Ready to serve', response: { 200: statusSchema, 503: statusSchema } } },
    async (_request, reply) =>
      readiness.ready ? { status: 'ready' } : reply.status(503).send({ status: 'not ready' }),
  );
}
