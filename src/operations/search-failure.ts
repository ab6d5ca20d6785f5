import type { SearchResponse } from '../engine/search-service.js';

/**
 * Whether a search holds nothing because no provider answered: no results, and not one provider `ok` (every one
 * failed, timed out, was suspended, held back or not asked). An answer with results is partial, not failed; one
 * where a provider answered and found nothing says something about the query, and is no failure either.
 */
function answeredByNobody(response: SearchResponse): boolean {
  return response.results.length === 0 && !response.providers.some((outcome) => outcome.status === 'ok');
}

/** searchFailure's rule and sectionsFailure's, as the MCP tools' descriptions state them (Operation.failureRule). */
export const SEARCH_FAILURE_RULE = 'Fails only when no provider answered.';
export const SECTIONS_FAILURE_RULE = 'Fails only when no provider answered any of its searches.';

/** "brave: timeout, wikipedia: error" */
function outcomeList(response: SearchResponse): string {
  return response.providers.map((outcome) => `${outcome.provider}: ${outcome.status}`).join(', ');
}

/**
 * The first line of a search's MCP answer when no provider answered it (MCP then marks the result isError), or
 * undefined for any other answer. "No results." alone would read as an answer about the query.
 */
export function searchFailure(response: SearchResponse): string | undefined {
  if (!answeredByNobody(response)) return undefined;
  const outcomes = response.providers.length === 0 ? '' : ` (${outcomeList(response)})`;
  return `Search failed: no provider answered${outcomes}, so nothing was found or ruled out; why each did not answer is listed below.`;
}

/** searchFailure for answers made of several searches: failed only when every one of them is. */
export function sectionsFailure(sections: ReadonlyArray<{ response: SearchResponse }>): string | undefined {
  if (sections.length === 0 || !sections.every((section) => answeredByNobody(section.response))) return undefined;
  return `Search failed: in none of its ${sections.length} searches did any provider answer, so nothing was found or ruled out; each section lists why its providers did not.`;
}
