import { z } from 'zod';
import type { SearchKind } from '../domain/result.js';
import type { SearchResponse } from '../engine/search-service.js';
import { defineOperation, type Operation } from './operation.js';
import { renderSearch } from './render.js';
import { searchParams } from './search-params.js';

const webSearchInput = z.strictObject({ ...searchParams });
const paperSearchInput = z.strictObject({ ...searchParams });

function searchOperation(kind: SearchKind) {
  return async (input: z.output<typeof webSearchInput>, context: Parameters<Operation['run']>[1]): Promise<SearchResponse> =>
    context.search.search(
      {
        kind,
        query: input.query,
        providers: input.providers,
        limit: input.max_results,
        timeoutMs: input.timeout_ms,
      },
      context.signal,
    );
}

export const webSearch = defineOperation({
  name: 'web_search',
  description: 'Search the web across every configured web provider at once; merged, deduplicated, ranked results with sources.',
  input: webSearchInput,
  example: { query: 'reciprocal rank fusion', max_results: 5 },
  run: searchOperation('web'),
  render: (output) => renderSearch(output),
});

export const paperSearch = defineOperation({
  name: 'paper_search',
  description: 'Search scholarly papers (arXiv, PubMed, Semantic Scholar, …) at once; merged by DOI, arXiv id, PMID or title.',
  input: paperSearchInput,
  example: { query: 'attention is all you need', max_results: 5 },
  run: searchOperation('papers'),
  render: (output) => renderSearch(output),
});
