import type { ProviderOutcome } from '../domain/outcome.js';
import type { SearchFilters, SearchQuery } from '../domain/query.js';
import type { SearchResult } from '../domain/result.js';
import type { Provider } from '../providers/provider.js';

/** What the cache keeps: the whole ranked list with score explanations, paged and trimmed per request on the way out. */
export interface CachedAnswer {
  results: SearchResult[];
  /** How many results each provider was asked for: whether a later page can be sliced from this list (paging.ts). */
  depth: number;
  providers: ProviderOutcome[];
  /** When the providers were asked (epoch ms), so a cached answer can say how old it is. */
  cached_at: number;
}

/** The pages of each answer already handed out, by limit, page and explain; gone with the answer. */
const presentedPages = new WeakMap<CachedAnswer, Map<string, readonly SearchResult[]>>();

/**
 * What a request gets of an answer: one page of its results (made by `present`) and its providers' outcomes,
 * each made once per answer and frozen. Every request hitting a cached answer then shares the same arrays, so
 * the HTTP layer writes their JSON once instead of per request (http/reply-json.ts), and no page is sliced
 * and copied again. Frozen, because they are shared: nothing may change what another request is answered.
 */
export function presentedAnswer(
  answer: CachedAnswer,
  page: { limit: number; page: number; explain: boolean },
  present: () => SearchResult[],
): { results: readonly SearchResult[]; providers: readonly ProviderOutcome[] } {
  let pages = presentedPages.get(answer);
  if (!pages) {
    pages = new Map();
    presentedPages.set(answer, pages);
  }
  const variant = `${page.limit}/${page.page}/${page.explain}`;
  let results = pages.get(variant);
  if (!results) {
    results = Object.freeze(present());
    pages.set(variant, results);
  }
  return { results, providers: Object.freeze(answer.providers) };
}

/**
 * How long an answer in which some provider failed (error, timeout, suspended) is kept, at most. Such an
 * answer is still worth a few seconds: identical searches in a burst (a user retrying, an agent repeating
 * itself) get it at once instead of each waiting out the same timeout. But a failure is often over in
 * seconds, and serving "brave: timeout" for the full TTL (5 minutes by default) hides a provider that is
 * back. Not-configured and skipped providers do not shorten it: they will answer the same way next time.
 */
export const DEFAULT_PARTIAL_ANSWER_TTL_MS = 15_000;

const FAILED_STATUSES: ReadonlySet<ProviderOutcome['status']> = new Set(['error', 'timeout', 'suspended']);

/** How long the cache may keep an answer: undefined (the cache's own TTL) unless a provider failed in it. */
export function answerTtl(answer: CachedAnswer, partialAnswerTtlMs = DEFAULT_PARTIAL_ANSWER_TTL_MS): number | undefined {
  return answer.providers.some((provider) => FAILED_STATUSES.has(provider.status)) ? partialAnswerTtlMs : undefined;
}

/**
 * Same kind, same words (case and spacing aside), same providers, limit, deadline and filters: same answer.
 * The page is not part of it: every page of a search is sliced from one cached list.
 */
export function cacheKey(query: SearchQuery, providers: Provider[], timeoutMs: number | undefined): string {
  const names = providers.map((provider) => provider.name).sort();
  const filters: Array<[string, unknown]> = [];
  for (const name in query.filters) {
    const value = query.filters[name as keyof SearchFilters];
    if (value !== undefined) filters.push([name, value]);
  }
  if (filters.length > 1) filters.sort(([a], [b]) => a.localeCompare(b));
  // The JSON text of [kind, words, providers, limit, deadline, filters], written in parts: no array of it is built.
  const words = JSON.stringify(query.text.toLowerCase().replace(/\s+/g, ' '));
  return `[${JSON.stringify(query.kind)},${words},${JSON.stringify(names)},${JSON.stringify(query.limit)},${JSON.stringify(timeoutMs ?? null)},${JSON.stringify(filters)}]`;
}
