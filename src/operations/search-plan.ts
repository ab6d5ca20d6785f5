import type { FastifyBaseLogger as Logger } from 'fastify';
import { invalidQuery } from '../domain/errors.js';
import { AUTO_SELECTION, type SearchFilters } from '../domain/query.js';
import type { SearchKind } from '../domain/result.js';
import type { CallerSignal } from '../engine/cancellation.js';
import type { SearchRequest, SearchResponse, SearchService } from '../engine/search-service.js';
import { siteTermsConflict } from '../engine/site-terms.js';
import type { Provider } from '../providers/provider.js';
import { routeProviders, type ProviderRouting } from './routing.js';

/** A validated search as every surface hands it over: operations, MCP tools, the REST routes and their stream. */
export interface SearchParameters {
  query: string;
  /** Provider names, or "auto" (REST also sends it as the one-name list ["auto"]) to choose by the query. */
  providers?: string[] | 'auto' | undefined;
  max_results: number;
  page?: number | undefined;
  timeout_ms?: number | undefined;
  explain?: boolean | undefined;
  filters: SearchFilters;
}

/** A search answer, with the provider choice explained when the caller asked for `providers: "auto"`. */
export type RoutedSearchResponse = SearchResponse & { routing?: ProviderRouting };

export interface SearchPlan {
  /** The providers asked (how many: the progress count), in the order their answers are fused (ties between results break by it). */
  readonly selected: readonly Provider[];
  run(
    /** `receivedAt`: when the caller's request arrived (SearchRequest.receivedAt); `caller`: who asks (SearchRequest.caller). */
    observers: { logger?: Logger; onProviderAnswer?: SearchRequest['onProviderAnswer']; receivedAt?: number | undefined; caller?: string | undefined },
    /** Or a function making it, when a cached answer should not pay for one (SearchService.search). */
    signal: CallerSignal | (() => CallerSignal),
  ): Promise<RoutedSearchResponse>;
}

function asksForAuto(providers: SearchParameters['providers']): boolean {
  return providers === AUTO_SELECTION || (Array.isArray(providers) && providers.length === 1 && providers[0]!.trim().toLowerCase() === AUTO_SELECTION);
}

/**
 * The one place validated parameters become a search: providers=auto is routed here, and unknown or
 * wrong-kind provider names, or site: terms that share no domain with include_domains, are refused here (a 400),
 * before any provider is asked or any stream opens.
 */
export function planSearch(kind: SearchKind, parameters: SearchParameters, search: SearchService): SearchPlan {
  const conflict = siteTermsConflict(kind, parameters.query, parameters.filters);
  if (conflict !== undefined) throw invalidQuery(conflict);
  const routing = asksForAuto(parameters.providers) ? routeProviders(kind, parameters.query, search, parameters.filters) : undefined;
  const providers = routing ? routing.providers : (parameters.providers as string[] | undefined);
  return new PlannedSearch(kind, parameters, search, providers, routing);
}

/** A class rather than an object with an arrow in it: every search makes one, and a method costs nothing per plan. */
class PlannedSearch implements SearchPlan {
  /** Selected once: the count for progress now, the same list for the search (not looked up again there). */
  readonly selected: Provider[];

  constructor(
    private readonly kind: SearchKind,
    private readonly parameters: SearchParameters,
    private readonly search: SearchService,
    private readonly providers: string[] | undefined,
    private readonly routing: ProviderRouting | undefined,
  ) {
    this.selected = search.selectProviders(kind, providers);
  }

  /** Not async: a search in flight holds no frame of its own here, and one without routing has no step after the service's. */
  run(
    {
      logger,
      onProviderAnswer,
      receivedAt,
      caller,
    }: { logger?: Logger; onProviderAnswer?: SearchRequest['onProviderAnswer']; receivedAt?: number | undefined; caller?: string | undefined },
    signal: CallerSignal | (() => CallerSignal),
  ): Promise<RoutedSearchResponse> {
    const { kind, parameters, providers, selected, routing } = this;
    const response = this.search.search(
      {
        kind,
        query: parameters.query,
        providers,
        selected,
        limit: parameters.max_results,
        page: parameters.page,
        timeoutMs: parameters.timeout_ms,
        receivedAt,
        explain: parameters.explain,
        filters: parameters.filters,
        logger,
        onProviderAnswer,
        caller,
      },
      signal,
    );
    return routing ? response.then((answer) => ({ ...answer, routing })) : response;
  }
}
