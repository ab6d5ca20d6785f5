import { MAX_PAGE, PAGE_LOOK_AHEAD } from '../domain/query.js';
import type { SearchKind, SearchResult } from '../domain/result.js';
import type { CachedAnswer } from './cached-answer.js';
import { canonicalUrl } from './canonical-url.js';
import type { ProviderAnswer } from './gather.js';
import { groupPapers } from './paper-grouping.js';
import { identifierKeys, normalizeTitle } from './paper-identity.js';
import type { RankedItem } from './ranked-item.js';

/**
 * Pages are slices of one fused list. Each provider is asked for its first `limit × page` results, plus one
 * so that a provider with more to give shows it; the list is cached whatever the page, so later pages are
 * sliced from it without asking anyone again. Only when it is too short for a page and some provider could
 * give more is a deeper list gathered, and that one extends the cached list rather than reordering it, so a
 * page never repeats what an earlier page of the same list showed.
 */

/** How many results each provider is asked for, from its first, to fill `page`. */
export function resultsWanted(limit: number, page: number): number {
  return limit * page + PAGE_LOOK_AHEAD;
}

/** One page of a fused list. */
export function pageOf<T>(results: T[], limit: number, page: number): T[] {
  return results.slice((page - 1) * limit, page * limit);
}

/**
 * A place of a fused list that a page showed empty: the list was too short to fill that page though a provider could
 * give more (its own results merged into fewer, a filter fedsearch applies itself thinned them, it timed out while
 * reading on). A deeper list extends the kept one after such places (keptAsShown), so the next page starts where it
 * always would: without them, the deeper list's first results would fill the short page's places, which its caller
 * was shown empty, and never be shown. Never shown itself (a result always has a source); kept with the list.
 */
export const EMPTY_PLACE: SearchResult = Object.freeze({ title: '', url: '', score: 0, sources: [] });

/** Whether a result of a fused list is a place a short page showed empty (EMPTY_PLACE, or its copy from a shared cache). */
export function isEmptyPlace(result: SearchResult): boolean {
  return result.sources.length === 0;
}

/**
 * A list `depth` deep as a deeper one extends it for `page`: each page before it that the list served short (it
 * was asked as deep as that page needs, servesPage) is filled with empty places, so the deeper results start on
 * the page after them rather than in places those pages showed empty. Pages it could not serve were never shown
 * from it (a deeper list was gathered for them): nothing is added for those.
 */
export function keptAsShown(results: SearchResult[], depth: number, limit: number, page: number): SearchResult[] {
  const pagesServed = Math.min(page - 1, Math.floor((depth - PAGE_LOOK_AHEAD) / limit));
  const shown = limit * pagesServed;
  if (results.length >= shown) return results;
  const filled = results.slice();
  while (filled.length < shown) filled.push(EMPTY_PLACE);
  return filled;
}

/**
 * Whether asking again for more could lengthen the list: some provider gave everything it was asked for. An
 * adapter gives at most that many, reading further pages of its API past one request's maximum (Provider.search).
 * A provider whose results the engine filtered counts by its upstream's answer, not by what the filters kept:
 * three of six kept says nothing of the results past the sixth. So does one whose deadline passed while it read
 * more (a timeout that kept the pages read before it, marked as short of its upstream's end).
 */
function couldGrow(answer: CachedAnswer): boolean {
  const { depth, upstreamFull } = answer;
  return answer.providers.some(
    (provider) => (provider.status === 'ok' && provider.count >= depth) || upstreamFull?.includes(provider.provider) === true,
  );
}

/**
 * The providers whose upstream may hold more though they gave fewer than `depth` (undefined when none): the
 * engine's filters kept part of a full upstream answer, or the adapter stopped reading before the upstream's end.
 * A CachedAnswer's `upstreamFull`, since their count alone would tell couldGrow they have nothing more.
 */
export function upstreamsWithMore(answers: readonly ProviderAnswer[], depth: number): string[] | undefined {
  let names: string[] | undefined;
  // Most answers have none: no list is made for them.
  for (const answer of answers) if (answer.upstreamFull && answer.outcome.count < depth) (names ??= []).push(answer.provider.name);
  return names;
}

/** Whether a fused list fills `page` as well as asking the providers again would. */
export function servesPage(answer: CachedAnswer, limit: number, page: number): boolean {
  return answer.results.length >= limit * page || answer.depth >= resultsWanted(limit, page) || !couldGrow(answer);
}

/** Whether a page after `page` holds results: this list reaches past it, or a deeper one would be gathered for it. */
export function hasMorePages(answer: CachedAnswer, limit: number, page: number): boolean {
  if (page >= MAX_PAGE) return false;
  if (answer.results.length > limit * page) return true;
  return answer.depth < resultsWanted(limit, page + 1) && couldGrow(answer);
}

/**
 * A deeper list after a shallower one: the shallower list keeps its order (pages already shown stay as they
 * were), and the deeper list's other results follow in its order. A deeper result is one already listed when
 * it shares a canonical URL (a paper's, with its title: identityKeys) or a paper identifier with it, or, for papers, when merging would make them one
 * work (a similar title and year): a paper listed by one source may come back deeper merged with another
 * source that leads it, under that source's link and identifiers.
 */
export function extendResults(listed: SearchResult[], deeper: SearchResult[], kind?: SearchKind): SearchResult[] {
  if (listed.length === 0) return deeper;
  const seen = new Set<string>();
  for (const result of listed) if (!isEmptyPlace(result)) for (const key of identityKeys(result, kind)) seen.add(key);
  const fresh = deeper.filter((result) => !identityKeys(result, kind).some((key) => seen.has(key)));
  return [...listed, ...(kind === 'papers' && fresh.length > 0 ? withoutListedWorks(listed, fresh) : fresh)];
}

/** The fresh papers that merging (paper-grouping.ts) would not join with a listed one. */
function withoutListedWorks(listed: SearchResult[], fresh: SearchResult[]): SearchResult[] {
  const entries: RankedItem[] = [];
  for (const item of listed) if (!isEmptyPlace(item)) entries.push({ provider: LISTED, rank: 1, weight: 1, item });
  for (const item of fresh) entries.push({ provider: FRESH, rank: 1, weight: 1, item });
  const shown = new Set<SearchResult>();
  for (const group of groupPapers(entries)) {
    if (!group.some((entry) => entry.provider === LISTED)) continue;
    for (const entry of group) if (entry.provider === FRESH) shown.add(entry.item as SearchResult);
  }
  return shown.size === 0 ? fresh : fresh.filter((result) => !shown.has(result));
}

/** Which list an entry of withoutListedWorks comes from. */
const LISTED = 'listed';
const FRESH = 'fresh';

/**
 * What makes a deeper result one already listed: a web page's canonical URL; a paper's identifiers, and its link
 * only together with its title. Merging never joins two papers by their link (paper-grouping.ts), and works without
 * an identifier of their own share one (the chapters of a book under the book's landing page, as OpenAlex gives
 * them): a deeper chapter under a listed chapter's link is another work, and dropped here it would never be shown.
 * The same paper come back deeper has the same link and title, even one too generic for merging to join by itself.
 */
function identityKeys(result: SearchResult, kind: SearchKind | undefined): string[] {
  const url = `url:${canonicalUrl(result.url)}`;
  return [kind === 'papers' ? `${url}\n${normalizeTitle(result.title)}` : url, ...identifierKeys(result)];
}
