import type { FastifyInstance } from 'fastify';
import type { OperationContext, Operation } from '../operations/operation.js';
import { clientGoneSignal } from './request-signal.js';
import { errorResponseSchema } from './search-schemas.js';
import { documented } from './zod-schemas.js';

type ContextWithoutCall = Omit<OperationContext, 'signal' | 'logger'>;

/** `POST /v1/ops/<name>` for every operation: the same parameters, schema and handler MCP uses. */
export function registerOperationRoutes(app: FastifyInstance, operations: readonly Operation[], context: ContextWithoutCall): void {
  for (const operation of operations) {
    app.post(
      `/v1/ops/${operation.name}`,
      {
        schema: {
          tags: ['operations'],
          summary: operation.description,
          description: `Example body: ${JSON.stringify(operation.example)}`,
          body: documented(operation.input, `${operation.name} parameters`),
          response: { 400: errorResponseSchema },
        },
      },
      async (request, reply) =>
        operation.run(request.body as never, { ...context, signal: clientGoneSignal(reply), logger: request.log }),
    );
  }
}
