import { z } from 'zod';
import { sameAsUnset, type FilterName, type SearchFilters } from '../domain/query.js';
import type { SearchKind } from '../domain/result.js';
import type { SearchResponse } from '../engine/search-service.js';
import { defineOperation, type OperationContext } from './operation.js';
import { searchResponseOutput } from './output-schemas.js';
import { renderSearch } from './render.js';
import { SEARCH_FAILURE_RULE, searchFailure } from './search-failure.js';
import { checkYearsInOrder, filterParamsOf, paperFilterParams, searchParams, webFilterParams } from './search-params.js';
import { planSearch, type RoutedSearchResponse } from './search-plan.js';

const webSearchInput = z.strictObject({ ...searchParams, ...filterParamsOf.web });
const paperSearchInput = z
  .strictObject({ ...searchParams, ...filterParamsOf.papers })
  .superRefine(checkYearsInOrder);

/** Every filter's name, listed once rather than per search. */
const FILTER_NAMES: readonly string[] = [...Object.keys(webFilterParams), ...Object.keys(paperFilterParams), 'scope'];

/**
 * The fields of an operation's input that are search filters, as the engine takes them. A value that is the same
 * search as none (domain/query.ts sameAsUnset) is left out: `open_access: false` asks for every paper, no API has a
 * closed-access filter, and kept it would have kept the answer apart in the cache from the same search without it.
 * `safesearch: off` stays: Brave and YouTube are sent it, and filter by default without it.
 */
export function filtersOf(input: Record<string, unknown>): SearchFilters {
  const filters: Record<string, unknown> = {};
  for (const name of FILTER_NAMES) {
    const value = input[name];
    if (value !== undefined && !sameAsUnset(name as FilterName, value)) filters[name] = value;
  }
  return filters as SearchFilters;
}

/** Runs one search of a kind through the shared plan: the body of every search-shaped operation. */
export async function runSearch(
  kind: SearchKind,
  input: { query: string; providers?: string[] | 'auto' | undefined; max_results: number; page?: number | undefined; timeout_ms?: number | undefined },
  context: OperationContext,
  filters: SearchFilters = filtersOf(input),
): Promise<RoutedSearchResponse> {
  const plan = planSearch(kind, { ...input, filters }, context.search);
  const { progress } = context;
  progress?.asking(plan.selected.length);
  const response = await plan.run(
    { logger: context.logger, receivedAt: context.receivedAt, caller: context.caller, onProviderAnswer: progress ? (answer) => progress.finished(answer.outcome) : undefined },
    context.signal,
  );
  if (progress && response.cached) for (const outcome of response.providers) progress.finished(outcome);
  return response;
}

/**
 * The page line a model reads: which page this is, and which call brings the next. The operation is named, not
 * "ask again": the same text is a section of auto_research's answer, which takes no page.
 */
function renderPage(output: SearchResponse, operation: string): string {
  if (!output.has_more) return output.page > 1 ? `\n\nPage ${output.page}; no further pages.` : '';
  return `\n\nPage ${output.page}; more results: ${operation} with page: ${output.page + 1}.`;
}

/** The results, then the page line: every operation that takes `page` tells the model how to go on. */
export function renderSearchPage(output: SearchResponse, operation: string): string {
  return renderSearch(output) + renderPage(output, operation);
}

function renderRouted(output: RoutedSearchResponse, operation: string): string {
  const routing = output.routing ? `Providers chosen: ${output.routing.providers.join(', ')} (${output.routing.reasons.join('; ')})\n\n` : '';
  return routing + renderSearchPage(output, operation);
}

export const webSearch = defineOperation({
  name: 'web_search',
  description:
    'Search the web across every configured web provider at once; merged, deduplicated, ranked results with sources. ' +
    'Filters: time_range, language, include_domains, exclude_domains, safesearch. page (1–10) asks for later results; has_more says whether there are any.',
  input: webSearchInput,
  example: { query: 'reciprocal rank fusion', max_results: 5 },
  output: searchResponseOutput,
  run: (input, context) => runSearch('web', input, context),
  render: (output) => renderRouted(output, 'web_search'),
  failure: searchFailure,
  failureRule: SEARCH_FAILURE_RULE,
});

export const paperSearch = defineOperation({
  name: 'paper_search',
  description:
    'Search scholarly papers (arXiv, PubMed, Semantic Scholar, Crossref, OpenAlex) at once; merged by DOI, arXiv id, PMID or title. ' +
    'Filters: year_from, year_to, open_access. page (1–10) asks for later results; has_more says whether there are any.',
  input: paperSearchInput,
  example: { query: 'attention is all you need', max_results: 5, year_from: 2017 },
  output: searchResponseOutput,
  run: (input, context) => runSearch('papers', input, context),
  render: (output) => renderRouted(output, 'paper_search'),
  failure: searchFailure,
  failureRule: SEARCH_FAILURE_RULE,
});
