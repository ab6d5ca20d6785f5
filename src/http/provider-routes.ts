import type { FastifyInstance } from 'fastify';
import type { SearchService } from '../engine/search-service.js';
import { providerListOutput } from '../operations/output-schemas.js';
import { documentedResponse, errorResponses } from './response-schemas.js';

export function registerProviderRoutes(app: FastifyInstance, search: SearchService): void {
  app.get(
    '/v1/providers',
    {
      schema: {
        operationId: 'get_providers',
        tags: ['providers'],
        summary: 'Every provider instance: its definition, kind, configured or not (and which variable is missing), weight, timeout, circuit state and recent health',
        response: {
          200: documentedResponse(providerListOutput, 'Every provider instance, configured or not, with its definition, circuit state and recent health.'),
          ...errorResponses(401, 403, 429),
        },
      },
    },
    async () => ({ providers: search.describeProviders() }),
  );
}
