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
          name: { type: 'string', description: 'The instance name, as providers= takes it.' },
          definition: { type: 'string', description: 'The definition (adapter) this is an instance of, e.g. searxng or mediawiki.' },
          kind: { type: 'string' },
          description: { type: 'string' },
          configured: { type: 'boolean' },
          missing: { type: 'array', items: { type: 'string' } },
          weight: { type: 'number' },
          timeout_ms: { type: 'integer' },
          health: {
            type: 'object',
            properties: {
              state: { type: 'string', enum: ['closed', 'open', 'half-open'] },
              consecutive_failures: { type: 'integer' },
              retry_after_ms: { type: 'integer' },
              success_rate: { type: 'number', nullable: true },
              latency_p50_ms: { type: 'number', nullable: true },
              latency_p95_ms: { type: 'number', nullable: true },
              recent_calls: { type: 'integer' },
              last_error: { type: 'object', properties: { message: { type: 'string' }, at: { type: 'string' } } },
            },
          },
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
        summary: 'Every provider instance: its definition, kind, configured or not (and which variable is missing), weight, timeout, circuit state and recent health',
        response: { 200: providerListSchema },
      },
    },
    async () => ({ providers: search.describeProviders() }),
  );
}
