import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SearchKind } from '../domain/result.js';
import type { SearchRequest, SearchResponse, SearchService } from '../engine/search-service.js';
import { routeProviders, type ProviderRouting } from '../operations/routing.js';
import { clientGoneSignal } from './request-signal.js';
import { searchResponseOutput } from '../operations/output-schemas.js';
import { documentedResponse, errorResponses } from './response-schemas.js';
import { searchBody, searchQuerystring } from './search-schemas.js';
import { documented } from './zod-schemas.js';

export type SearchInput = { q: string; providers?: string[] | undefined; limit: number; timeout_ms?: number | undefined; explain: boolean };

const ROUTE_KINDS: Array<{ kind: SearchKind; path: string; summary: string; operationId: string }> = [
  { kind: 'web', path: '/v1/search/web', summary: 'Search the web across providers', operationId: 'search_web' },
  { kind: 'papers', path: '/v1/search/papers', summary: 'Search scholarly papers across providers', operationId: 'search_papers' },
];

/**
 * A search route's answer, shared by the plain and the streamed routes so `done` is exactly the plain answer.
 * providers=auto chooses by the query and says which and why.
 */
export function routeSearch(search: SearchService, kind: SearchKind, input: SearchInput) {
  const routing = input.providers?.length === 1 && input.providers[0] === 'auto' ? routeProviders(kind, input.q, search) : undefined;
  const providers = routing ? routing.providers : input.providers;
  return {
    /** Which providers will be asked; unknown or wrong-kind names throw a 400 here, before any work. */
    asked: () => search.selectProviders(kind, providers),
    run: async (extra: Pick<SearchRequest, 'logger' | 'onProviderAnswer'>, signal: AbortSignal): Promise<SearchResponse & { routing?: ProviderRouting }> => {
      const request = { kind, query: input.q, providers, limit: input.limit, timeoutMs: input.timeout_ms, explain: input.explain, ...extra };
      const answer = await search.search(request, signal);
      return routing ? { ...answer, routing } : answer;
    },
  };
}

const DESCRIPTION =
  'Asks the selected providers in parallel and returns merged, deduplicated results ranked by weighted ' +
  'reciprocal rank fusion: score = Σ weight(provider) / (k + rank), k = 60 by default. Every provider\'s ' +
  'outcome is reported (ok, error, timeout, not_configured, skipped) with its latency; a request where every ' +
  'provider failed is still 200 with results: [].';

export function registerSearchRoutes(app: FastifyInstance, search: SearchService): void {
  const responses = {
    200: documentedResponse(searchResponseOutput, 'The merged results and every provider\'s outcome (also when every provider failed).'),
    ...errorResponses(400, 401, 429, 500, 503),
  };
  for (const { kind, path, summary, operationId } of ROUTE_KINDS) {
    const handle = async (input: SearchInput, request: FastifyRequest, reply: FastifyReply) =>
      routeSearch(search, kind, input).run({ logger: request.log }, clientGoneSignal(reply));
    app.get(
      path,
      { schema: { operationId, tags: ['search'], summary, description: DESCRIPTION, querystring: documented(searchQuerystring, 'query'), response: responses } },
      async (request, reply) => handle(request.query as SearchInput, request, reply),
    );
    app.post(
      path,
      { schema: { operationId: `${operationId}_post`, tags: ['search'], summary, description: DESCRIPTION, body: documented(searchBody, 'body'), response: responses } },
      async (request, reply) => handle(request.body as SearchInput, request, reply),
    );
  }
}
