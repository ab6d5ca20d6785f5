import { z } from 'zod';
import { entriesWithoutWww } from '../domain/domain-entry.js';
import { PROVIDER_STATUSES, type ProviderOutcome } from '../domain/outcome.js';
import { singleSpaced } from '../domain/query-text.js';
import { MAX_DEPTH, type SearchFilters, type SearchQuery } from '../domain/query.js';
import type { SearchResult } from '../domain/result.js';
import { RESULT_BOUNDS } from '../domain/result-bounds.js';
import type { Provider } from '../providers/provider.js';
import type { ProviderAnswer } from './gather.js';
import { siteTermsAsRead } from './site-terms.js';

/** What the cache keeps: the whole ranked list with score explanations, paged and trimmed per request on the way out. */
export interface CachedAnswer {
  results: SearchResult[];
  /** How many results each provider was asked for: whether a later page can be sliced from this list (paging.ts). */
  depth: number;
  providers: ProviderOutcome[];
  /**
   * Providers that may have more though they gave fewer than `depth`: the engine's own filters kept part of a
   * full upstream answer, or the adapter stopped reading before the upstream's end (gather.ts `upstreamFull`).
   * Absent when none, as in answers kept before it existed.
   */
  upstreamFull?: string[];
  /** When the providers were asked (epoch ms), so a cached answer can say how old it is. */
  cached_at: number;
  /**
   * For a partial answer (isPartialGathering): the caller's timeout_ms it was gathered within.
   * Absent for a complete answer, and for one gathered without timeout_ms (each provider had its own, the most
   * any caller gets). See servesTimeout.
   */
  partialTimeoutMs?: number;
  /**
   * Present when the answer is partial (isPartialGathering, which also counts a provider cut short though it reports
   * `ok`): a complete answer as deep may replace it in the cache (answer-cache.ts keepsKept). Absent when complete.
   */
  partial?: true;
}

/**
 * The version of what the shared cache keeps, in its Redis keys (ANSWER_KEYS): CachedAnswer as JSON, with the
 * results and provider outcomes in it, and what its fields mean. Replicas of two releases share one Redis while a
 * rolling deploy runs, each serving what the other kept: an answer of another shape would pass isStoredAnswer (it
 * checks bounds, and lets fields it does not name through) and be served as if it were of this one. So any change to
 * that shape, or to what a kept field means, takes the next version: the other release's entries then lie under other
 * keys, and each release reads only its own until the old one's expire (CACHE_TTL_SECONDS). A change to the type
 * fails test/engine/stored-answer-version.test.ts until this is bumped; a change of meaning only a reader notices.
 * v2: answers carry the time they were gathered (cached_at); v1 entries are simply not read. v3: the shape of v2's
 * last answers, under a version of its own: v2 held four shapes in turn (upstreamFull, partialTimeoutMs and partial
 * came without a bump), so a replica of an older release could still share it.
 */
export const STORED_ANSWER_VERSION = 3;

/** Answer keys after the service's REDIS_KEY_PREFIX, before the configuration's tag (search-setup.ts). */
export const ANSWER_KEYS = `answer:v${STORED_ANSWER_VERSION}:`;

/** The pages of each answer already handed out, by limit, page and explain; gone with the answer. */
const presentedPages = new WeakMap<CachedAnswer, Map<string, readonly SearchResult[]>>();

/**
 * What an answer read back from a shared cache must hold to be served. Anything else may sit under its key: an
 * entry of another version of this service, or of another service sharing the Redis. Fields are checked as far
 * as serving them, paging on from them and presenting them needs, each within what this service keeps
 * (RESULT_BOUNDS, MAX_DEPTH), and those not named here pass as they are. A title is at most RESULT_BOUNDS.title long,
 * as every title this service keeps is: a later page compares the kept papers' titles word by word (paging.ts
 * extendResults), at a cost that grows with the square of their words, and six titles of 25,000 words held one
 * search, and every request behind it, for seconds. A URL is read on every later page (its canonical form), a
 * depth decides which pages the list serves, and cached_at is shown as the answer's age.
 */
const text = (max: number) => z.string().max(max);
/**
 * What a provider's outcome this service writes holds at most: a name (a provider's, an error code, a setting), its
 * message (an upstream's own words are cut at 200 characters, provider-outcome.ts; ours, with a redirect's target or
 * a page's note, stay under a thousand), and the settings it lacks. Shown to every caller the answer is served to.
 */
const OUTCOME_BOUNDS = { name: 200, message: 4_000, missing: 20 } as const;
const count = z.int().min(0);
const storedResult = z.looseObject({
  title: text(RESULT_BOUNDS.title),
  url: text(RESULT_BOUNDS.url),
  score: z.number(),
  sources: z.array(z.looseObject({ provider: z.string(), rank: z.int().min(1).max(MAX_DEPTH) })),
  snippet: text(RESULT_BOUNDS.snippet).optional(),
  published_at: text(RESULT_BOUNDS.publishedAt).optional(),
  authors: z.array(text(RESULT_BOUNDS.author)).max(RESULT_BOUNDS.authors).optional(),
  year: z.number().optional(),
  venue: text(RESULT_BOUNDS.venue).optional(),
  abstract: text(RESULT_BOUNDS.abstract).optional(),
  doi: text(RESULT_BOUNDS.identifier).optional(),
  arxiv_id: text(RESULT_BOUNDS.identifier).optional(),
  pmid: text(RESULT_BOUNDS.identifier).optional(),
  pdf_url: text(RESULT_BOUNDS.url).optional(),
  pdf_urls: z.array(text(RESULT_BOUNDS.url)).optional(),
  domain: text(RESULT_BOUNDS.url).optional(),
  explain: z.array(z.looseObject({ provider: z.string(), rank: z.number(), weight: z.number(), contribution: z.number() })).optional(),
  citation_count: z.number().optional(),
  extra: z.record(z.string(), z.union([text(RESULT_BOUNDS.url), z.number(), z.boolean(), z.null()])).optional(),
});
const storedAnswerShape = z.object({
  results: z.array(storedResult),
  depth: z.int().min(1).max(MAX_DEPTH),
  providers: z.array(
    z.looseObject({
      provider: text(OUTCOME_BOUNDS.name),
      status: z.enum(PROVIDER_STATUSES),
      count,
      latency_ms: z.number().min(0),
      retry_after_ms: z.number().min(0).optional(),
      message: text(OUTCOME_BOUNDS.message).optional(),
      code: text(OUTCOME_BOUNDS.name).optional(),
      missing: z.array(text(OUTCOME_BOUNDS.name)).max(OUTCOME_BOUNDS.missing).optional(),
    }),
  ),
  cached_at: count,
  upstreamFull: z.array(z.string()).optional(),
  partialTimeoutMs: z.int().min(1).optional(),
});

/**
 * Whether a value read from a shared cache is an answer this service can serve (storedAnswerShape), from a search of
 * at most `instances` providers (the configured ones: answers are kept under their configuration's tag). Its lists
 * are counted before anything in them is read: no list this service keeps holds more than MAX_DEPTH results of each
 * provider asked, and the places a short page showed empty (fewer than MAX_DEPTH), so one of 100,000 results from
 * another writer is a miss at the cost of reading two lengths.
 */
export function isStoredAnswer(value: unknown, instances = Number.POSITIVE_INFINITY): value is CachedAnswer {
  if (typeof value !== 'object' || value === null) return false;
  const { results, providers } = value as { results?: unknown; providers?: unknown };
  if (!Array.isArray(results) || !Array.isArray(providers) || providers.length > instances) return false;
  if (results.length > (providers.length + 1) * MAX_DEPTH) return false;
  return storedAnswerShape.safeParse(value).success;
}

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
 * How long an answer in which some provider failed (error, timeout, suspended) or was not asked for want of
 * an outbound request slot (rate_limited), or cut short by a failed request for more (isPartialGathering), is kept,
 * at most. Such an answer is still worth a few seconds:
 * identical searches in a burst (a user retrying, an agent repeating itself) get it at once instead of each
 * waiting out the same timeout. But a failure is often over in seconds, and a rate limit's next slot comes
 * within its period: serving "brave: timeout" or "brave: rate_limited" for the full TTL (5 minutes by default)
 * hides a provider that is back. Not-configured and skipped providers do not shorten it: they will answer the
 * same way next time.
 */
export const DEFAULT_PARTIAL_ANSWER_TTL_MS = 15_000;

const FAILED_STATUSES: ReadonlySet<ProviderOutcome['status']> = new Set(['error', 'timeout', 'suspended', 'rate_limited']);

/** Whether a provider failed (error, timeout, suspended, rate_limited). */
export function providerFailed(provider: ProviderOutcome): boolean {
  return FAILED_STATUSES.has(provider.status);
}

/** Whether some provider failed in an answer (error, timeout, suspended, rate_limited): it is partial. */
export function isPartialAnswer(answer: CachedAnswer): boolean {
  return answer.providers.some(providerFailed);
}

/**
 * Whether an answer just gathered from `answers` is partial: some provider failed (isPartialAnswer), or one answered
 * with what it had read when a request for more of its results failed (a later page's 503 or 429, a deeper round of
 * the engine's own filter: gather.ts `cutShort`). Such a provider reports `ok`, yet the answer lacks what that request
 * would have brought, as one with a failed provider lacks its results: kept for the full TTL, every replica would
 * serve it short (a later page without that provider's results) long after the upstream is back.
 */
export function isPartialGathering(answer: CachedAnswer, answers: readonly ProviderAnswer[]): boolean {
  if (isPartialAnswer(answer)) return true;
  for (const provider of answers) if (provider.cutShort) return true;
  return false;
}

/** How long the cache may keep an answer: undefined (the cache's own TTL) unless it is partial (isPartialGathering). */
export function answerTtl(partial: boolean, partialAnswerTtlMs = DEFAULT_PARTIAL_ANSWER_TTL_MS): number | undefined {
  return partial ? partialAnswerTtlMs : undefined;
}

/**
 * Whether a kept answer serves a caller with this timeout_ms (undefined: each provider's own timeout, the longest
 * wait). A complete answer serves every caller: waiting longer would find nothing more, so agents that vary
 * timeout_ms share it. A partial one serves only callers that wait no longer than its own caller did: one that
 * waits longer may get what timed out or failed then.
 */
export function servesTimeout(answer: CachedAnswer, timeoutMs: number | undefined): boolean {
  const within = answer.partialTimeoutMs;
  return within === undefined || (timeoutMs !== undefined && timeoutMs <= within);
}

/**
 * Same kind, same words (spacing aside), same providers, limit and filters: same answer. Letter case counts:
 * providers read `OR`, `AND` and `NOT` as operators only in capitals (PubMed, Brave, Wikipedia, arXiv), so
 * "covid OR flu" and "covid or flu" are two searches; but not in a site: term as the search reads it and sends it
 * (`SITE:https://Docs.rs/` is `site:docs.rs`: siteTermsAsRead), nor in a domain list's hosts, whose `www.` names no
 * other host either, as the filter reads them and Tavily and Exa are sent them (domainSet). Spacing is one space, as
 * providers are sent the words (singleSpaced). The page is not part of it: every page of a search is sliced from one
 * cached list. Nor is the caller's timeout_ms: a complete answer is the same whatever it was, and a partial one
 * carries its own (servesTimeout).
 */
export function cacheKey(query: SearchQuery, providers: Provider[]): string {
  // A web search's site: terms as the search reads them (site-terms.ts); in any other kind they are words.
  const words = query.kind === 'web' ? siteTermsAsRead(query.text) : query.text;
  // The JSON text of [kind, words, providers, limit, filters], written in parts: no array of it is built, and
  // every hit on the cache pays for this, so the common parts skip JSON.stringify (same text).
  return `[${nameJson(query.kind)},${wordsJson(words)},${providerNamesJson(providers)},${numberJson(query.limit)},${filtersJson(query.filters)}]`;
}

/** The words as written, each run of white space one space (singleSpaced: as providers are sent them), as JSON. */
function wordsJson(words: string): string {
  // Printable ASCII without quotes, backslashes or two spaces in a row is its own JSON, with nothing to collapse.
  let plain = true;
  for (let index = 0; index < words.length && plain; index += 1) {
    const code = words.charCodeAt(index);
    plain = code > 0x20 ? code < 0x7f && code !== 0x22 && code !== 0x5c : code === 0x20 && words.charCodeAt(index + 1) !== 0x20;
  }
  return plain ? `"${words}"` : JSON.stringify(singleSpaced(words));
}

/** The providers' names in code-unit order (Array.prototype.sort's), as a JSON list. */
function providerNamesJson(providers: readonly Provider[]): string {
  const names: string[] = [];
  for (const provider of providers) {
    // Insertion sort: a search names a handful of providers.
    let index = names.length;
    while (index > 0 && names[index - 1]! > provider.name) index -= 1;
    names.splice(index, 0, provider.name);
  }
  let json = '[';
  for (let index = 0; index < names.length; index += 1) json += `${index === 0 ? '' : ','}${nameJson(names[index]!)}`;
  return `${json}]`;
}

function filtersJson(filters: SearchFilters): string {
  const set: Array<[string, unknown]> = [];
  for (const name in filters) {
    const value = filters[name as keyof SearchFilters];
    if (value !== undefined) set.push([name, name === 'include_domains' || name === 'exclude_domains' ? domainSet(value as string[]) : value]);
  }
  if (set.length === 0) return '[]';
  if (set.length > 1) set.sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify(set);
}

/**
 * A domain list as the filter reads it: a set (filters.ts matches if any entry does), so order and repeats do not
 * count, and a host's `www.` names no other place (withoutWww: `www.docs.rs` keeps what `docs.rs` keeps, and Tavily and
 * Exa are sent `docs.rs` for it). Letter case is not touched here: hosts arrive in lower case (search-params.ts), and a
 * path keeps its case in the filter too. Sorted by code unit, and the request's own list is left as it is.
 */
function domainSet(entries: readonly string[]): readonly string[] {
  // Nearly every list names no `www.` host: it is read as it is, with no copy.
  const hosts = entriesWithoutWww(entries);
  if (hosts.length < 2) return hosts;
  return [...new Set(hosts)].sort();
}

/** JSON.stringify's text for a number (NaN and ±Infinity as null), without the call. */
function numberJson(value: number): string {
  return Number.isFinite(value) ? String(value) : 'null';
}

/** JSON of kind and provider names: a few dozen, each escaped once. */
const namesJson = new Map<string, string>();

function nameJson(name: string): string {
  let json = namesJson.get(name);
  if (json === undefined) {
    json = JSON.stringify(name);
    // Kinds and provider names come from the catalogue, not from a request; the bound is only a guard.
    if (namesJson.size < 1000) namesJson.set(name, json);
  }
  return json;
}
