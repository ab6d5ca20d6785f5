import { z } from 'zod';
import type { ProviderDescription } from '../engine/search-service.js';
import { SEARCH_KINDS } from '../domain/result.js';
import { defineOperation } from './operation.js';
import { operationListOutput, providerListOutput } from './output-schemas.js';
import { knownWaitWords } from './render.js';

const listProvidersInput = z.strictObject({
  kind: z.enum(SEARCH_KINDS).optional().describe('Only providers of this kind.'),
});

export const listProviders = defineOperation({
  name: 'list_providers',
  description: 'List every search provider instance with its definition, kind, whether it is configured (and what is missing), weight and timeout.',
  input: listProvidersInput,
  example: { kind: 'web' },
  output: providerListOutput,
  closedWorld: true,
  run: async (input, context): Promise<{ providers: ProviderDescription[] }> => ({
    providers: context.search.describeProviders().filter((provider) => !input.kind || provider.kind === input.kind),
  }),
  render: (output) =>
    output.providers
      .map(
        (provider) =>
          `- ${provider.name} (${provider.definition === provider.name ? '' : `${provider.definition}, `}${provider.kind}): ${provider.configured ? `configured${suspension(provider)}` : `not configured, set ${provider.missing.join(', ')}`}`,
      )
      .join('\n'),
});

/**
 * ", suspended (retry after 30 s; last error: HTTP 500)" for a provider whose breaker is open, and ", suspended at
 * de.wikipedia.org (…)" for each other host of its with an open one: a model choosing providers by name would otherwise
 * pick one that answers nothing until then.
 */
function suspension({ health, host_health }: ProviderDescription): string {
  const hosts = Object.entries(host_health ?? {}).map(([host, hostHealth]) => suspendedWords(hostHealth, ` at ${host}`));
  return [suspendedWords(health, ''), ...hosts].join('');
}

function suspendedWords(health: ProviderDescription['health'], where: string): string {
  if (health.state !== 'open') return '';
  const why = [
    knownWaitWords(health.retry_after_ms),
    health.last_error ? `last error: ${health.last_error.message}` : undefined,
  ].filter(Boolean);
  return `, suspended${where}${why.length > 0 ? ` (${why.join('; ')})` : ''}`;
}

export interface OperationSummary {
  name: string;
  description: string;
  parameters: unknown;
  example: unknown;
}

export const listOperations = defineOperation({
  name: 'list_operations',
  description: 'List every operation this service offers, with its parameters as JSON Schema and an example.',
  input: z.strictObject({}),
  example: {},
  output: operationListOutput,
  closedWorld: true,
  run: async (_input, context): Promise<{ operations: OperationSummary[] }> => ({
    operations: context.operations().map((operation) => ({
      name: operation.name,
      description: context.describeOperation?.(operation) ?? operation.description,
      parameters: z.toJSONSchema(operation.input, { io: 'input' }),
      example: operation.example,
    })),
  }),
  render: (output) =>
    output.operations.map((operation) => `- ${operation.name}: ${operation.description}\n  example: ${JSON.stringify(operation.example)}`).join('\n'),
});
