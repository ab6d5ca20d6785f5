import { z } from 'zod';
import type { SearchFilters } from '../domain/query.js';
import type { SearchKind } from '../domain/result.js';
import type { SearchResponse } from '../engine/search-service.js';
import { defineOperation, type OperationContext } from './operation.js';
import { searchResponseOutput } from './output-schemas.js';
import { renderSearch } from './render.js';
import { routeProviders, type ProviderRouting } from './routing.js';
import { checkYearsInOrder, paperFilterParams, searchParams, webFilterParams } from './search-params.js';

const webSearchInput = z.strictObject({ ...searchParams, ...webFilterParams });
const paperSearchInput = z
  .strictObject({ ...searchParams, ...paperFilterParams })
  .superRefine(checkYearsInOrder);

/** The fields of an operation's input that are search filters, as the engine takes them. */
export function filtersOf(input: Record<string, unknown>): SearchFilters {
  const names = [...Object.keys(webFilterParams), ...Object.keys(paperFilterParams), 'scope'];
  return Object.fromEntries(names.filter((name) => input[name] !== undefined).map((name) => [name, input[name]])) as SearchFilters;
}

/** A search answer, with the provider choice explained when the caller asked for `providers: "auto"`. */
export type RoutedSearchResponse = SearchResponse & { routing?: ProviderRouting };

/** Runs one search of a kind through the shared service: the body of every search-shaped operation. */
export async function runSearch(
  kind: SearchKind,
  input: { query: string; providers?: string[] | 'auto' | undefined; max_results: number; timeout_ms?: number | undefined },
  context: OperationContext,
  filters: SearchFilters = filtersOf(input),
): Promise<RoutedSearchResponse> {
  const routing = input.providers === 'auto' ? routeProviders(kind, input.query, context.search) : undefined;
  const providers = routing ? routing.providers : (input.providers as string[] | undefined);
  const { progress } = context;
  progress?.asking(context.search.selectProviders(kind, providers).length);
  const response = await context.search.search(
    {
      kind,
      query: input.query,
      providers,
      limit: input.max_results,
      timeoutMs: input.timeout_ms,
      filters,
      logger: context.logger,
      ...(progress ? { onProviderAnswer: (answer) => progress.finished(answer.outcome) } : {}),
    },
    context.signal,
  );
  if (progress && response.cached) for (const outcome of response.providers) progress.finished(outcome);
  return routing ? { ...response, routing } : response;
}

function renderRouted(output: RoutedSearchResponse): string {
  const routing = output.routing ? `Providers chosen: ${output.routing.providers.join(', ')} (${output.routing.reasons.join('; ')})\n\n` : '';
  return routing + renderSearch(output);
}

export const webSearch = defineOperation({
  name: 'web_search',
  description:
    'Search the web across every configured web provider at once; merged, deduplicated, ranked results with sources. ' +
    'Filters: time_range, language, include_domains, exclude_domains, safesearch.',
  input: webSearchInput,
  example: { query: 'reciprocal rank fusion', max_results: 5 },
  output: searchResponseOutput,
  run: (input, context) => runSearch('web', input, context),
  render: (output) => renderRouted(output),
});

export const paperSearch = defineOperation({
  name: 'paper_search',
  description:
    'Search scholarly papers (arXiv, PubMed, Semantic Scholar, Crossref, OpenAlex) at once; merged by DOI, arXiv id, PMID or title. ' +
    'Filters: year_from, year_to, open_access.',
  input: paperSearchInput,
  example: { query: 'attention is all you need', max_results: 5, year_from: 2017 },
  output: searchResponseOutput,
  run: (input, context) => runSearch('papers', input, context),
  render: (output) => renderRouted(output),
});
