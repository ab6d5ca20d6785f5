import type { Dispatcher } from 'undici';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { ProviderOutcome } from '../domain/outcome.js';
import { singleSpaced } from '../domain/query-text.js';
import type { SearchFilters, SearchQuery } from '../domain/query.js';
import type { SearchKind, SearchResult } from '../domain/result.js';
import type { Capability, CapabilityInput, CapabilityOutput } from '../providers/capabilities.js';
import type { PaperIdentifier, Provider } from '../providers/provider.js';
import { createOutboundRateLimiter, type OutboundRateLimiter } from '../rate-limit/outbound-limiter.js';
import type { AnswerCache, KeptList } from './answer-cache.js';
import type { CallerSignal } from './cancellation.js';
import { answerTtl, cacheKey, isPartialGathering, presentedAnswer, servesTimeout, type CachedAnswer } from './cached-answer.js';
import { fuseAnswers } from './fuse.js';
import { extendResults, hasMorePages, isEmptyPlace, keptAsShown, resultsWanted, servesPage, upstreamsWithMore } from './paging.js';
import { gatherResults, hearFanOut, type ProviderAnswer, type ProvidersInFlight } from './gather.js';
import { outcomesRankedAfresh, rankedAsPaged } from './paged-ranking.js';
import { lookupPaper, type PaperLookup } from './paper-lookup.js';
import { callCapability } from './provider-call.js';
import { ProviderCatalog, type ProviderDescription } from './provider-catalog.js';
import type { BreakerOptions, HealthSnapshot } from './provider-health.js';
import type { PipelineLimits, ProviderReport } from './provider-pipeline.js';
import { CALLS_FINISHED, ServiceStopping } from './provider-outcome.js';
import { ProviderRuntime } from './provider-runtime.js';
import { SingleFlight, type FlightOffer } from './single-flight.js';

/** A search as REST and MCP both hand it to the service, already validated for shape. */
export interface SearchRequest {
  kind: SearchKind;
  query: string;
  providers?: string[];
  /** What selectProviders gave for `kind` and `providers`, when the caller already asked (planSearch): not worked out again. */
  selected?: Provider[];
  limit: number;
  /** Which page of `limit` results (1 by default); every page is sliced from one fused list. */
  page?: number;
  timeoutMs?: number;
  /**
   * performance.now() time the request arrived (before the inbound rate limit and the cache read, each of which may
   * wait on Redis): timeoutMs, the providers' own timeouts and the answer's took_ms count from it. When unset, from
   * the call to search(), so the cache read is part of them.
   */
  receivedAt?: number;
  explain?: boolean;
  filters?: SearchFilters;
  /** The caller's request-scoped logger, so provider lines carry its request id. */
  logger?: Logger;
  /**
   * Who asks, as the per-client rate limit counts callers (domain/client-key.ts): under an outbound rate limit each
   * caller may hold only a share of the calls waiting for a provider's slots (rate-limit/caller-shares.ts). A search
   * that joins an identical one in flight asks no provider itself: that fan-out's calls count for its first caller.
   */
  caller?: string | undefined;
  /**
   * Told of each provider's answer as it finishes, in finish order, for every provider asked (streaming,
   * MCP progress); a cached answer reports none. A request with an observer joins an identical one in flight
   * (under the rule every caller joins by): when that one has an observer too, it is told at once every answer that
   * fan-out has heard so far (`moreAtOnce` true for all but the last of them), then each as it comes. So it is when
   * that fan-out was started without an observer (a plain search's), which keeps no log of its answers: it is told
   * those of the providers already finished (in the order they finished: the shortest latency first), then each as it
   * finishes (gather.ts, hearFanOut). `kept` is the cached list the answer will extend (empty when none): a cached
   * answer too short for the page is extended by the deeper one, so results so far are fused onto it (fuseAnswers'
   * `kept`).
   */
  onProviderAnswer?(answer: ProviderAnswer, kept: readonly SearchResult[], moreAtOnce: boolean): void;
}

export interface SearchResponse {
  query: string;
  kind: SearchKind;
  results: SearchResult[];
  providers: ProviderOutcome[];
  page: number;
  /** Whether the next page holds results. */
  has_more: boolean;
  /**
   * This request's time so far, from its arrival (receivedAt) as its deadline counts, so it is comparable with
   * timeout_ms; a cached answer says how long this request took, not how long the search it was kept from did. One
   * that joined a fan-out in flight counts from that fan-out's start (when earlier), as its providers' latencies do.
   */
  took_ms: number;
  cached: boolean;
  /** How long ago a cached answer was gathered; 0 for a fresh one. */
  cache_age_ms: number;
}

export type { CachedAnswer } from './cached-answer.js';

export interface SearchServiceOptions {
  providers: Provider[];
  cache: AnswerCache<CachedAnswer>;
  dispatcher: Dispatcher;
  logger: Logger;
  rrfK: number;
  maxUpstreamBytes: number;
  breaker: BreakerOptions;
  /** Outbound rate limits (shared through Redis when configured); per process when not given. */
  rateLimiter?: OutboundRateLimiter;
  /** Longest life of an answer in which a provider failed; default DEFAULT_PARTIAL_ANSWER_TTL_MS (cached-answer.ts). 0 keeps none. */
  partialAnswerTtlMs?: number;
  /** Called after each provider answers, whatever was asked of it (metrics). */
  onProviderAnswer?(report: ProviderReport, circuit: HealthSnapshot['state']): void;
  /** Called for every cache lookup (metrics), with what answered it. */
  onCacheLookup?(lookup: CacheLookup): void;
  /** Called when a fan-out starts; the returned function when it ends (metrics: searches in flight). */
  onSearchStarted?(): () => void;
}

export type { ProviderDescription } from './provider-catalog.js';

/**
 * What answered a search: the answer cache (`hit`), a fan-out of its own (`miss`), or an identical search's fan-out
 * already in flight, which it joined (`shared`): N identical searches at once ask the providers once, and say so.
 */
export type CacheLookup = 'hit' | 'miss' | 'shared';

/** Limits of one call to one provider, and the caller's logger for its outcome line. */
export interface CallOptions extends PipelineLimits {
  logger?: Logger;
}

/**
 * The engine as REST, MCP and operations use it. Its own work is the one search(): cache → single-flight →
 * gather → merge → rank. Everything else reaches providers through the same pipeline: lookups
 * (paper-lookup.ts) and single capability calls (provider-call.ts); the catalogue is provider-catalog.ts.
 */
export class SearchService {
  private readonly catalog: ProviderCatalog;
  private readonly runtime: ProviderRuntime;
  // A search whose every caller left because hearing an answer threw failed on a fault of its own: the providers it
  // cuts short are reported as such (CALLS_FINISHED), not as cancelled by a client that went away.
  // A plain search's fan-out offers its providers' answers to come, for a caller with an observer that joins it.
  private readonly flights = new SingleFlight<CachedAnswer, HeardAnswer, ProvidersInFlight>(CALLS_FINISHED);

  constructor(private readonly options: SearchServiceOptions) {
    this.catalog = new ProviderCatalog(options.providers, options.breaker);
    this.runtime = new ProviderRuntime({
      catalog: this.catalog,
      dispatcher: options.dispatcher,
      maxUpstreamBytes: options.maxUpstreamBytes,
      rateLimiter: options.rateLimiter ?? createOutboundRateLimiter({ logger: options.logger }),
      logger: options.logger,
      onProviderAnswer: options.onProviderAnswer,
    });
  }

  /**
   * Ends every provider call still running as its deadline would (each reported `timeout`), so that searches,
   * lookups and calls in flight answer with what they have: the service is shutting down, and an answer left
   * running past the grace gets none at all. Calls that start afterwards are cut at once.
   */
  cutCallsShort(): void {
    this.runtime.stopping.abort(new ServiceStopping());
  }

  /** Every instance, configured or not, in configuration order: the start-up summary says which are on. */
  get providers(): readonly Provider[] {
    return this.catalog.providers;
  }

  describeProviders(): ProviderDescription[] {
    return this.catalog.describe();
  }

  isConfigured(name: string): boolean {
    return this.catalog.isConfigured(name);
  }

  isAdmissible(name: string, filters?: SearchFilters): boolean {
    return this.catalog.isAdmissible(name, filters);
  }

  upstreamHostOf(name: string, filters: SearchFilters): string | undefined {
    return this.catalog.upstreamHostOf(name, filters);
  }

  baseUrlOf(name: string): string | undefined {
    return this.catalog.baseUrlOf(name);
  }

  providerNames(kind?: SearchKind): string[] {
    return this.catalog.providerNames(kind);
  }

  /** The instances that search this kind, in configuration order: what providers=auto chooses among. */
  searchersOf(kind: SearchKind): readonly Provider[] {
    return this.catalog.searchersOf(kind);
  }

  selectProviders(kind: SearchKind, names: string[] | undefined): Provider[] {
    return this.catalog.selectProviders(kind, names);
  }

  circuitStates(): Array<{ provider: string; host?: string; state: HealthSnapshot['state'] }> {
    return this.catalog.circuitStates();
  }

  /** One paper by identifier, from every paper provider that can look it up, merged into one record. */
  lookupPaper(identifier: PaperIdentifier, options: CallOptions): Promise<PaperLookup> {
    return lookupPaper(this.catalog.providers, identifier, options, this.runtime.dependencies(options.logger), this.options.rrfK);
  }

  /**
   * Asks the named provider for one capability (video details, captions, a scrape, a local document) through
   * the provider pipeline; rejects with ProviderCallFailed (provider-call.ts) when it did not answer.
   */
  call<C extends Capability>(providerName: string, capability: C, input: CapabilityInput<C>, options: CallOptions = {}): Promise<CapabilityOutput<C>> {
    return callCapability(this.catalog.get(providerName), capability, input, options, this.runtime.dependencies(options.logger));
  }

  /**
   * `signal` may be a function making it: it is made only when providers are asked, never for a cached answer.
   * Continuations rather than an async function: a search waiting on its providers holds no frame here, and a
   * cache that keeps nothing is not read (no hop before the providers are asked).
   */
  search(request: SearchRequest, signal?: CallerSignal | (() => CallerSignal)): Promise<SearchResponse> {
    // From the request's arrival, as its deadline: took_ms then counts the inbound limiter's and the cache's waits too.
    const started = request.receivedAt ?? performance.now();
    // Whatever goes wrong is a rejection, as from an async function, never a throw at the caller.
    try {
      const plan = this.keysOf(request);
      if (this.options.cache.storesNothing) return this.answerFrom(undefined, plan, request, signal, started);
      return this.readCache(plan.key, request.timeoutMs, request.limit, plan.page).then((stored) => this.answerFrom(stored, plan, request, signal, started));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** What a request asks for, and its answer's cache key. */
  private keysOf(request: SearchRequest): SearchKeys {
    const providers = request.selected ?? this.selectProviders(request.kind, request.providers);
    const page = request.page ?? 1;
    const query: SearchQuery = {
      kind: request.kind,
      // Providers are sent the words single-spaced, as the answer is kept: the key joins no two texts they would read
      // apart (a run of spaces past a provider's length limit refused one and not the other).
      text: singleSpaced(request.query.trim()),
      limit: resultsWanted(request.limit, page),
      filters: request.filters ?? {},
    };
    return { providers, page, query, key: cacheKey({ ...query, limit: request.limit }, providers) };
  }

  /**
   * The answer from a stored list when it serves the page, else from the providers (extending the stored list).
   * May throw: search() and the cache read's continuation make that a rejection.
   */
  private answerFrom(
    stored: CachedAnswer | undefined,
    plan: SearchKeys,
    request: SearchRequest,
    signal: CallerSignal | (() => CallerSignal) | undefined,
    started: number,
  ): Promise<SearchResponse> {
    const { providers, page, query, key } = plan;
    // A stored answer that does not serve this caller's timeout_ms never comes here (readCache).
    // A list too short for this page is gathered again, deeper; the deeper list extends it.
    if (stored && servesPage(stored, request.limit, page)) {
      this.options.onCacheLookup?.('hit');
      return Promise.resolve(this.respond(stored, true, query, request, page, started));
    }
    // The pages the stored list served short keep their empty places: the deeper results go on after them.
    const listed = stored ? keptAsShown(stored.results, stored.depth, request.limit, page) : [];
    // Which kept list the answer extends: the cache lets it replace that list, where one ranked afresh may not.
    const extending = stored && keptListOf(stored);
    // A stored answer keeps its score explanations for any later caller; one that is never stored builds them only when asked.
    const explain = request.explain === true || this.options.cache.storesNothing !== true;
    // A search that joins an identical one in flight never runs its own fan-out (the single flight runs `ask` at once or not at all).
    let lookup: CacheLookup = 'shared';
    const ask = (gatherSignal: CallerSignal, tell: ((heard: HeardAnswer) => void) | undefined, offer: FlightOffer<ProvidersInFlight>): Promise<CachedAnswer> => {
      lookup = 'miss';
      return this.gatherAndRank(query, providers, request, key, { listed, extending }, explain, gatherSignal, started, tell, offer);
    };
    const callerSignal = signalOf(signal);
    // A caller gone before the providers are asked (its client left while a shared cache was read) asks none: a flight
    // started for it would send each provider a request only to abort it, spending their rate limits and quotas.
    if (callerSignal?.aborted) return Promise.reject(callerSignal.reason);
    // Only a caller with the same timeout_ms joins a flight: a shorter one would wait past its deadline, a longer
    // one would be given what a shorter deadline found (the cache key leaves timeout_ms out: servesTimeout). With
    // timeout_ms, only one that arrived about when the flight's first caller did: the deadline counts from that
    // caller's arrival, so one coming a second later would be answered a second before its own deadline, with the
    // providers still out reported as timed out. Without it each provider has its own timeout, the most any caller
    // gets, and a later caller joins whenever it comes. A caller with an observer hears the flight's answers (the
    // ones it missed at once) with the list that flight extends, which is what its answer comes from. From a plain
    // search's flight, which tells nothing, it hears each provider's answer as that flight waits for it (hearFanOut),
    // with its own kept list. Only a caller that read the same kept list joins (keptListTag): the answer extends that
    // list, and one extending another (or none) would page on from a list this caller was not shown its earlier pages
    // from.
    const observer = request.onProviderAnswer;
    const flightKey = `${key}#${query.limit}#${explain}#${request.timeoutMs ?? ''}#${keptListTag(extending)}`;
    const gathering = this.flights.run(
      flightKey,
      callerSignal,
      ask,
      started,
      request.timeoutMs === undefined ? Number.POSITIVE_INFINITY : JOIN_WITHIN_MS,
      observer && ((heard, moreAtOnce) => observer.call(request, heard.answer, heard.kept, moreAtOnce)),
      observer && ((fanOut, hearing) => hearFanOut(fanOut, query.limit, (answer, moreAtOnce) => hearing({ answer, kept: listed }, moreAtOnce))),
    );
    // Counted once the providers are asked: the requests need not wait for the bookkeeping.
    this.options.onCacheLookup?.(lookup);
    // A caller that joined is answered with the fan-out's timings, each provider's latency counted from its start (and
    // its deadline too): its took_ms counts from there as well, or from its own arrival if that was earlier, so no
    // provider took longer than the whole answer. Looked up only for a caller that joined.
    const from = lookup === 'shared' ? Math.min(started, this.flights.startedAtOf(flightKey) ?? started) : started;
    return gathering.then((answer) => this.respond(answer, false, query, request, page, from));
  }

  private respond(answer: CachedAnswer, cached: boolean, query: SearchQuery, request: SearchRequest, page: number, started: number): SearchResponse {
    // An answer that is kept is presented once (cached-answer.ts): its hits share the same frozen arrays.
    const shown = { limit: request.limit, page, explain: request.explain === true };
    const presented = this.options.cache.storesNothing
      ? { results: presentResults(answer.results, shown), providers: answer.providers }
      : presentedAnswer(answer, shown, () => presentResults(answer.results, shown));
    return {
      query: query.text,
      kind: query.kind,
      results: presented.results as SearchResult[],
      providers: presented.providers as ProviderOutcome[],
      page,
      has_more: hasMorePages(answer, request.limit, page),
      took_ms: Math.round(performance.now() - started),
      cached,
      // Clocks of replicas sharing Redis may differ a little: never a negative age.
      cache_age_ms: cached ? Math.max(0, Date.now() - answer.cached_at) : 0,
    };
  }

  /** Some providers' answers fused exactly as a finished search fuses them all: a streamed search's results so far. */
  fuseAnswers(
    kind: SearchKind,
    answers: ProviderAnswer[],
    options: { limit: number; page?: number; explain?: boolean; kept?: readonly SearchResult[] },
  ): SearchResult[] {
    const kept = options.kept ?? [];
    // Ranked as keep() ranks: extending the kept list when there is one, else as a page with no earlier list (ranked at
    // once, the deep lists of a later page would stream a page the finished search does not give, even one of page 1).
    const ranked =
      kept.length === 0
        ? this.rankedForPage(kind, answers, options.limit, options.page ?? 1, options.explain === true, options.limit)
        : extendResults([...kept], this.rankAnswers(kind, answers, options.explain === true), kind);
    return presentResults(ranked, options);
  }

  /**
   * A page's ranking with no earlier list kept: a later page as a caller paging from page 1 would have seen it
   * (rankedAsPaged), the first page at once, at most `atMost` results of it made.
   */
  private rankedForPage(kind: SearchKind, answers: ProviderAnswer[], limit: number, page: number, explain: boolean, atMost?: number): SearchResult[] {
    return page > 1
      ? rankedAsPaged(answers, limit, page, (cut) => this.rankAnswers(kind, cut, explain))
      : this.rankAnswers(kind, answers, explain, atMost);
  }

  /**
   * The answer kept under `key` if it serves a caller with this timeout_ms (servesTimeout). One too short for the
   * page is `shallow`: a shared cache then gives the deeper list another replica kept for a later page, if any, which
   * this page must go on from.
   */
  private async readCache(key: string, timeoutMs: number | undefined, limit: number, page: number): Promise<CachedAnswer | undefined> {
    try {
      return await this.options.cache.get(key, (answer) => (!servesTimeout(answer, timeoutMs) ? false : servesPage(answer, limit, page) || 'shallow'));
    } catch (error) {
      this.options.logger.warn({ err: error }, 'answer cache read failed; searching without it');
      return undefined;
    }
  }

  /** The answers ranked; only the first `atMost` results are made (all when unset). */
  private rankAnswers(kind: SearchKind, answers: ProviderAnswer[], explain: boolean, atMost?: number): SearchResult[] {
    return fuseAnswers(kind, answers, { k: this.options.rrfK, explain, atMost });
  }

  /** The providers' answers, ranked and kept; never rejects (gatherResults reports every failure as an outcome). */
  private gatherAndRank(
    query: SearchQuery,
    providers: Provider[],
    request: SearchRequest,
    key: string,
    kept: KeptExtension,
    explain: boolean,
    signal: CallerSignal,
    started: number,
    tell: ((heard: HeardAnswer) => void) | undefined,
    offerTo: FlightOffer<ProvidersInFlight>,
  ): Promise<CachedAnswer> {
    const { listed } = kept;
    const gatheredAt = Date.now();
    const gathering = gatherResults(
      providers,
      query,
      { timeoutMs: request.timeoutMs, startedAt: started, signal, caller: request.caller, onAnswer: tell && ((answer) => tell({ answer, kept: listed })), offerTo },
      this.runtime.dependencies(request.logger),
    );
    // Counted as started once its providers are asked: the requests need not wait for the bookkeeping.
    const finished = this.options.onSearchStarted?.();
    return gathering.then(
      (answers) => {
        finished?.();
        return this.keep(answers, query, { limit: request.limit, page: request.page ?? 1, timeoutMs: request.timeoutMs }, key, kept, explain, signal, gatheredAt);
      },
      (error: unknown) => {
        finished?.();
        throw error;
      },
    );
  }

  /** One fan-out's answers as a ranked list, stored for later callers when some provider answered. */
  private keep(
    answers: ProviderAnswer[],
    query: SearchQuery,
    { limit, page, timeoutMs }: { limit: number; page: number; timeoutMs: number | undefined },
    key: string,
    { listed, extending }: KeptExtension,
    explain: boolean,
    signal: CallerSignal,
    gatheredAt: number,
  ): CachedAnswer {
    // An answer that is never kept serves one page: the results past its depth (the page and the one after it that
    // tells whether another page exists) would never be shown, so they are ranked but not made.
    const atMost = this.options.cache.storesNothing ? query.limit : undefined;
    const ranked =
      listed.length === 0
        ? this.rankedForPage(query.kind, answers, limit, page, explain, atMost)
        : this.rankAnswers(query.kind, answers, explain, atMost);
    const results = extendResults(listed, ranked, query.kind);
    const outcome: CachedAnswer = { results, depth: query.limit, providers: answers.map((answer) => answer.outcome), cached_at: gatheredAt };
    const upstreamFull = upstreamsWithMore(answers, query.limit);
    if (upstreamFull) outcome.upstreamFull = upstreamFull;
    const partial = isPartialGathering(outcome, answers);
    // Marked in the entry, for the cache's rule (keepsKept): a complete answer as deep may replace it.
    if (partial) outcome.partial = true;
    // A partial answer is served later only to callers that wait no longer than this one (servesTimeout).
    if (timeoutMs !== undefined && partial) outcome.partialTimeoutMs = timeoutMs;
    // An answer where nothing succeeded says nothing about the query: the next caller should try again. One whose
    // only results came from a provider its deadline cut short (a timeout that kept earlier pages) is kept, as partial.
    // A partial one the shutdown cut short is not: its providers were stopped by us, not by their deadline, and
    // another replica would serve it for as long as the upstream's own timeouts are kept.
    const cutByShutdown = partial && this.runtime.stopping.aborted;
    if (!this.options.cache.storesNothing && outcome.providers.some(gaveResults) && !signal.aborted && !cutByShutdown) {
      // The answer does not wait for its copy to be kept: a shared cache's write is a round trip to Redis (up to its
      // command timeout when Redis is slow). Each cache keeps its in-process copy of a complete answer as set() is
      // called. A partial answer never replaces one kept already, here or by another replica (so the shared cache
      // keeps its copy once Redis has said): that one may be complete (an identical search without timeout_ms
      // finished first) or deeper, and served for another 15 s in its place the partial one would hide it. Nor does
      // any answer replace a deeper one (keepsKept): page 1 finishing after page 3 of the same search, fetched together.
      // Nor does an answer ranked afresh replace one as deep, unless that one is partial and this one complete
      // (keepsKept): a caller shown a page from the list kept first would get the next page from another ranking.
      // A partial answer that extends the kept list (a later page, gathered deeper while a provider failed) does replace
      // a shallower one: it holds the kept list as it was, and the page just shown from it is only in it. Left out, the
      // next page would extend the kept list again with that provider back, shifting what follows the kept list: a
      // result of the page just shown would come again, and the one it displaced would never come. One kept as deep
      // stays (keepAsDeep): the same page, gathered meanwhile, perhaps without a failure.
      const keepExisting = partial && listed.length === 0;
      const setOptions = { keepExisting, depth: outcome.depth, keepAsDeep: partial, ...(extending && { extending }) };
      this.options.cache.set(key, outcome, answerTtl(partial, this.options.partialAnswerTtlMs), setOptions).catch((error: unknown) => {
        this.options.logger.warn({ err: error }, 'answer cache write failed');
      });
    }
    // A later page ranked afresh cannot tell what its caller was shown before: a provider that failed says so, to this
    // caller only. The kept answer has no such words: a caller of page 1 served from it was shown nothing before.
    return listed.length === 0 && page > 1 ? { ...outcome, providers: outcomesRankedAfresh(answers, page) } : outcome;
  }
}

/**
 * How far apart two callers with the same timeout_ms may have arrived to share one fan-out: a joiner's answer comes
 * at most this much before (or after) its own deadline. Wide enough for a burst of identical calls, which come within
 * milliseconds of each other; narrow against the timeouts asked for (timeout_ms is at least 100 ms).
 */
const JOIN_WITHIN_MS = 50;

/** Which kept list a deeper fan-out extends (KeptList), for its flight's key: '' for none. */
function keptListTag(list: KeptList | undefined): string {
  return list === undefined ? '' : `${list.cachedAt}/${list.depth}/${list.length}`;
}

/** The stored answer as the kept list a deeper answer extends (KeptList: its gathering time, depth and length). */
function keptListOf(stored: CachedAnswer): KeptList {
  return { cachedAt: stored.cached_at, depth: stored.depth, length: stored.results.length };
}

/** A provider that answered, or whose deadline passed after it had given some results (a later page cut short). */
function gaveResults(provider: ProviderOutcome): boolean {
  return provider.status === 'ok' || provider.count > 0;
}

/** What a search asks for: its providers, page, query (as deep as the page needs) and cache key. */
interface SearchKeys {
  providers: Provider[];
  page: number;
  query: SearchQuery;
  key: string;
}

/** The kept list a fan-out extends, as shown (keptAsShown), and which list it was; nothing for one ranked afresh. */
interface KeptExtension {
  listed: SearchResult[];
  extending: KeptList | undefined;
}

/** A provider's answer as a fan-out with observers tells it: with the kept list that fan-out's answer extends. */
interface HeardAnswer {
  answer: ProviderAnswer;
  kept: readonly SearchResult[];
}

function signalOf(signal: CallerSignal | (() => CallerSignal) | undefined): CallerSignal | undefined {
  return typeof signal === 'function' ? signal() : signal;
}

/** One page of a ranked list, without the places a short page showed empty, with score explanations only when asked for. */
function presentResults(results: SearchResult[], options: { limit: number; page?: number; explain?: boolean }): SearchResult[] {
  const start = ((options.page ?? 1) - 1) * options.limit;
  const end = Math.min(results.length, start + options.limit);
  const shown: SearchResult[] = [];
  for (let index = start; index < end; index += 1) {
    const result = results[index]!;
    if (!isEmptyPlace(result)) shown.push(options.explain ? result : withoutExplain(result));
  }
  return shown;
}

function withoutExplain(result: SearchResult): SearchResult {
  if (!result.explain) return result;
  const { explain: _explain, ...rest } = result;
  return rest;
}
