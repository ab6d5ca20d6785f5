import type { ProviderOutcome } from '../domain/outcome.js';
import type { SearchResult } from '../domain/result.js';
import { providerFailed, type CachedAnswer } from './cached-answer.js';
import type { ProviderAnswer } from './gather.js';
import { extendResults, keptAsShown, resultsWanted, servesPage, upstreamsWithMore } from './paging.js';

/**
 * The fused list a caller who paged from page 1 to `page` would have been shown, rebuilt from one fan-out asked
 * as deep as `page` needs: for when no earlier answer is kept (the cache off, or the answer gone). Ranking the
 * deep lists at once would not give the same pages: a result that one more provider finds further down moves up,
 * so page 2 could repeat a result of page 1 and skip another. So each provider's list is cut to the depth each
 * page was asked at, ranked, and each deeper ranking only extends the list before it, exactly as a kept answer is
 * extended (search-service.ts); a page the list already serves asks for no deeper ranking, as it asks no provider,
 * and a page it served short keeps its empty places (keptAsShown), as a kept list does.
 */
export function rankedAsPaged(answers: ProviderAnswer[], limit: number, page: number, rank: (answers: ProviderAnswer[]) => SearchResult[]): SearchResult[] {
  let results: SearchResult[] = [];
  let rankedDepth = 0;
  for (let shown = 1; shown <= page; shown += 1) {
    if (rankedDepth > 0 && servesPage(answerAt(results, answers, rankedDepth), limit, shown)) continue;
    const listed = rankedDepth > 0 ? keptAsShown(results, rankedDepth, limit, shown) : results;
    rankedDepth = resultsWanted(limit, shown);
    results = extendResults(listed, rank(answers.map((answer) => cutTo(answer, rankedDepth))), answers[0]?.provider.kind);
  }
  return results;
}

/** A provider's answer as it would have been asked `depth` deep: its first `depth` items. */
function cutTo(answer: ProviderAnswer, depth: number): ProviderAnswer {
  return answer.items.length > depth ? { ...answer, items: answer.items.slice(0, depth) } : answer;
}

/** The list as an answer `depth` deep, for servesPage: each provider counted by what it gave at that depth. */
function answerAt(results: SearchResult[], answers: ProviderAnswer[], depth: number): CachedAnswer {
  const providers = answers.map((answer) => ({ ...answer.outcome, count: Math.min(answer.items.length, depth) }));
  const upstreamFull = upstreamsWithMore(answers, depth);
  return { results, depth, providers, cached_at: 0, ...(upstreamFull ? { upstreamFull } : {}) };
}

/**
 * The providers' outcomes of a later page ranked afresh (rankedAsPaged), each provider that failed, or answered `ok`
 * with what it read before a request for more failed (cutShort), saying that the page was ranked without what it did
 * not give. Its caller may have been shown the pages before with its results, and then the ranking without them
 * moves other providers' results between pages: one already shown comes again, one never shown is passed over.
 * Nothing kept tells whether it answered then (a failure that lasts gives consistent pages; one that began after
 * page 1 does not), so the answer says so rather than guess.
 */
export function outcomesRankedAfresh(answers: readonly ProviderAnswer[], page: number): ProviderOutcome[] {
  return answers.map(({ outcome, cutShort }) => (cutShort || providerFailed(outcome) ? { ...outcome, message: rankedWithout(outcome, page) } : outcome));
}

function rankedWithout(outcome: ProviderOutcome, page: number): string {
  const cause = outcome.message === undefined ? 'a request for more of its results failed' : outcome.message;
  return `${cause}; no earlier page of this search was kept, so page ${page} was ranked without what it did not give: if it gave that for the pages before, results of other providers may repeat or be missing between pages`;
}
