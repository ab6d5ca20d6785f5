import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientKeyOf } from '../domain/client-key.js';
import { QUERY_STRING } from '../domain/validation.js';
import type { SearchService } from '../engine/search-service.js';
import { searchResponseOutput } from '../operations/output-schemas.js';
import { filtersOf } from '../operations/search-operations.js';
import { planSearch, type SearchPlan } from '../operations/search-plan.js';
import { arrivalOf } from './request-arrival.js';
import { lazyClientGoneSignal } from './request-signal.js';
import { BODY_ERRORS, documentedResponse, errorResponses } from './response-schemas.js';
import { searchBodies, searchQuerystrings, type SearchRouteInput, type SearchRouteKind } from './search-schemas.js';
import { documented } from './zod-schemas.js';

const ROUTE_KINDS: Array<{ kind: SearchRouteKind; path: string; summary: string; operationId: string }> = [
  { kind: 'web', path: '/v1/search/web', summary: 'Search the web across providers', operationId: 'search_web' },
  { kind: 'papers', path: '/v1/search/papers', summary: 'Search scholarly papers across providers', operationId: 'search_papers' },
];

/**
 * A search route's plan: the operations' own (planSearch), so a route, its stream and web_search /
 * paper_search take the same filters, route providers=auto alike and give the same answer.
 */
export function planRouteSearch(search: SearchService, kind: SearchRouteKind, input: SearchRouteInput): SearchPlan {
  return planSearch(
    kind,
    {
      query: input.q,
      providers: input.providers,
      max_results: input.limit,
      page: input.page,
      timeout_ms: input.timeout_ms,
      explain: input.explain,
      filters: filtersOf(input),
    },
    search,
  );
}

const DESCRIPTION =
  'Asks the selected providers in parallel and returns merged, deduplicated results ranked by weighted ' +
  'reciprocal rank fusion: score = Σ weight(provider) / (k + rank), k = 60 by default. Every provider\'s ' +
  'outcome is reported (ok, error, timeout, not_configured, skipped) with its latency; a request where every ' +
  'provider failed is still 200 with results: [].\n\n' +
  'Takes the filters of the web_search / paper_search operations (in a query string, lists comma-separated or ' +
  'as repeated parameters); a provider that cannot apply a filter is reported skipped. `page` (1–10) slices ' +
  'later results from the same fused list, which is cached, so a later page asks no provider again; ' +
  '`has_more` says whether the next page holds results.';

export function registerSearchRoutes(app: FastifyInstance, search: SearchService): void {
  const responses = {
    200: documentedResponse(searchResponseOutput, 'The merged results and every provider\'s outcome (also when every provider failed).'),
    ...errorResponses(400, 401, 403, 429, 500, 503),
  };
  for (const { kind, path, summary, operationId } of ROUTE_KINDS) {
    const handle = async (input: SearchRouteInput, request: FastifyRequest, reply: FastifyReply) =>
      planRouteSearch(search, kind, input).run(
        { logger: request.log, receivedAt: arrivalOf(reply), caller: clientKeyOf(request) },
        lazyClientGoneSignal(reply),
      );
    app.get(
      path,
      { schema: { operationId, tags: ['search'], summary, description: DESCRIPTION, querystring: documented(searchQuerystrings[kind], QUERY_STRING), response: responses } },
      async (request, reply) => handle(request.query as SearchRouteInput, request, reply),
    );
    app.post(
      path,
      {
        schema: {
          operationId: `${operationId}_post`,
          tags: ['search'],
          summary,
          description: DESCRIPTION,
          body: documented(searchBodies[kind], 'body'),
          response: { ...responses, ...errorResponses(...BODY_ERRORS) },
        },
      },
      async (request, reply) => handle(request.body as SearchRouteInput, request, reply),
    );
  }
}
