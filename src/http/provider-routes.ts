import type { FastifyInstance } from 'fastify';
import type { SearchService } from '../engine/search-service.js';

const providerListSchema = {
  type: 'object',
  properties: {
    providers: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          kind: { type: 'string' },
          description: { type: 'string' },
          configured: { type: 'boolean' },
          missing: { type: 'array', items: { type: 'string' } },
          weight: { type: 'number' },
          timeout_ms: { type: 'integer' },
        },
      },
    },
  },
} as const;

export function registerProviderRoutes(app: FastifyInstance, search: SearchService): void {
  app.get(
    '/v1/providers',
    {
      schema: {
        tags: ['providers'],
        summary: 'Every provider: kind, configured or not (and which variable is missing), weight, timeout',
        response: { 200: providerListSchema },
      },
    },
    async () => ({ providers: search.describeProviders() }),
  );
}
