import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { QUERY_STRING } from '../domain/validation.js';
import type { SearchService } from '../engine/search-service.js';
import { providerListOutput } from '../operations/output-schemas.js';
import { documentedResponse, errorResponses } from './response-schemas.js';
import { documented } from './zod-schemas.js';

/** It takes no parameters: one sent (`?kind=web`, expecting a filter) is answered with a 400, as on the search routes. */
const providerListQuery = z.strictObject({});

export function registerProviderRoutes(app: FastifyInstance, search: SearchService): void {
  app.get(
    '/v1/providers',
    {
      schema: {
        operationId: 'get_providers',
        tags: ['providers'],
        summary: 'Every provider instance: its definition, kind, configured or not (and which variable is missing), weight, timeout, circuit state and recent health',
        querystring: documented(providerListQuery, QUERY_STRING),
        response: {
          200: documentedResponse(providerListOutput, 'Every provider instance, configured or not, with its definition, circuit state and recent health.'),
          // 500: a fault of the service's own, as any route may meet; 503: shed under pressure (http/protection.ts) like every route but /healthz.
          ...errorResponses(400, 401, 403, 429, 500, 503),
        },
      },
    },
    async () => ({ providers: search.describeProviders() }),
  );
}
