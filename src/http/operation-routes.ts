import type { FastifyInstance } from 'fastify';
import type { OperationContext, Operation } from '../operations/operation.js';
import { clientKeyOf } from '../domain/client-key.js';
import { arrivalOf } from './request-arrival.js';
import { clientGoneSignal } from './request-signal.js';
import { operationErrorResponses } from './operation-errors.js';
import { documentedResponse } from './response-schemas.js';
import { documented } from './zod-schemas.js';

type ContextWithoutCall = Omit<OperationContext, 'signal' | 'logger'>;

/**
 * `POST /v1/ops/<name>` for every operation: the same parameters, schema and handler MCP uses. Its OpenAPI
 * entry comes from the same declaration: the name as operationId, the example as the request body Swagger UI
 * fills in, the output schema as the 200 answer, and the errors it can answer (http/operation-errors.ts).
 */
export function registerOperationRoutes(app: FastifyInstance, operations: readonly Operation[], context: ContextWithoutCall): void {
  for (const operation of operations) {
    const body = documented(operation.input, `${operation.name} parameters`);
    // @fastify/swagger turns a one-entry `examples` into the request body's example.
    body.examples = [operation.example];
    app.post(
      `/v1/ops/${operation.name}`,
      {
        schema: {
          operationId: operation.name,
          tags: ['operations'],
          summary: operation.description,
          body,
          response: {
            200: documentedResponse(operation.output, `The answer of ${operation.name}.`),
            ...operationErrorResponses(operation),
          },
        },
      },
      async (request, reply) =>
        operation.run(request.body as never, {
          ...context,
          signal: clientGoneSignal(reply),
          logger: request.log,
          receivedAt: arrivalOf(reply),
          caller: clientKeyOf(request),
        }),
    );
  }
}
