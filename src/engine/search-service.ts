import type { Dispatcher } from 'undici';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { FedsearchError, invalidQuery } from '../domain/errors.js';
import type { ProviderOutcome } from '../domain/outcome.js';
import type { SearchFilters, SearchQuery } from '../domain/query.js';
import type { SearchKind, SearchResult } from '../domain/result.js';
import type { PaperIdentifier, Provider, UpstreamTransport } from '../providers/provider.js';
import { secretValues } from '../providers/registry.js';
import { createOutboundRateLimiter, type OutboundRateLimiter } from '../rate-limit/outbound-limiter.js';
import type { AnswerCache } from './answer-cache.js';
import { answerTtl, cacheKey, type CachedAnswer } from './cached-answer.js';
import { createLimiters, gatherResults, notAsked, type GatherDependencies, type ProviderAnswer } from './gather.js';
import { ProviderHealth, type BreakerOptions, type HealthSnapshot } from './provider-health.js';
import { groupResults, type RankedItem } from './merge.js';
import { extendResults, hasMorePages, pageOf, resultsWanted, servesPage } from './paging.js';
import { rankResults } from './rank.js';
import { redactSecrets } from './redact.js';
import { SingleFlight } from './single-flight.js';
import { createUpstreamTransport, withOneRetry } from './upstream-transport.js';

/** A search as REST and MCP both hand it to the service, already validated for shape. */
export interface SearchRequest {
  kind: SearchKind;
  query: string;
  providers?: string[];
  limit: number;
  /** Which page of `limit` results (1 by default); every page is sliced from one fused list. */
  page?: number;
  timeoutMs?: number;
  explain?: boolean;
  filters?: SearchFilters;
  /** The caller's request-scoped logger, so provider lines carry its request id. */
  logger?: Logger;
  /**
   * Told of each provider's answer as it finishes, in finish order, for every provider asked (streaming,
   * MCP progress); a cached answer reports none. A request with an observer runs its own fan-out instead of
   * joining an identical one in flight: that one started earlier and could not replay what it already saw.
   */
  onProviderAnswer?(answer: ProviderAnswer): void;
}

export interface SearchResponse {
  query: string;
  kind: SearchKind;
  results: SearchResult[];
  providers: ProviderOutcome[];
  page: number;
  /** Whether the next page holds results. */
  has_more: boolean;
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
  /** Called after each provider answers (metrics). */
  onProviderAnswer?(answer: ProviderAnswer, circuit: HealthSnapshot['state']): void;
  /** Called for every cache lookup (metrics). */
  onCacheLookup?(hit: boolean): void;
  /** Called when a fan-out starts; the returned function when it ends (metrics: searches in flight). */
  onSearchStarted?(): () => void;
}

/** Public description of one provider instance, for /v1/providers and list_providers. */
export interface ProviderDescription {
  /** The instance name, as `providers=` takes it. */
  name: string;
  /** The definition (adapter) it is an instance of: `searxng` for every SearXNG instance. */
  definition: string;
  kind: SearchKind;
  description: string;
  configured: boolean;
  missing: string[];
  weight: number;
  timeout_ms: number;
  /** Circuit state, recent latency percentiles, success rate and last error. */
  health: HealthSnapshot;
}

/** The one search() that REST and MCP both call: select, gather, merge, rank, cache. */
export class SearchService {
  private readonly providers: Provider[];
  private readonly byName: Map<string, Provider>;
  private readonly transports = new Map<string, UpstreamTransport>();
  private readonly limiterFor = createLimiters();
  private readonly flights = new SingleFlight<CachedAnswer>();
  private readonly secrets: string[];
  private readonly health: Map<string, ProviderHealth>;
  private readonly rateLimiter: OutboundRateLimiter;

  constructor(private readonly options: SearchServiceOptions) {
    this.rateLimiter = options.rateLimiter ?? createOutboundRateLimiter({ logger: options.logger });
    this.providers = options.providers;
    this.byName = new Map(this.providers.map((provider) => [provider.name, provider]));
    this.health = new Map(this.providers.map((provider) => [provider.name, new ProviderHealth(options.breaker)]));
    this.secrets = secretValues(this.providers);
  }

  get secretList(): string[] {
    return this.secrets;
  }

  describeProviders(): ProviderDescription[] {
    return this.providers.map((provider) => {
      const missing = provider.missingSettings();
      return {
        name: provider.name,
        definition: provider.definition,
        kind: provider.kind,
        description: provider.settings.description,
        configured: missing.length === 0,
        missing,
        weight: provider.config.weight,
        timeout_ms: provider.config.timeoutMs,
        health: this.healthOf(provider).snapshot(),
      };
    });
  }

  isConfigured(name: string): boolean {
    const provider = this.byName.get(name);
    return provider !== undefined && provider.missingSettings().length === 0;
  }

  /** Configured and not suspended: a provider worth choosing now (a half-open one may be probed). */
  isAdmissible(name: string): boolean {
    const provider = this.byName.get(name);
    return provider !== undefined && provider.missingSettings().length === 0 && this.healthOf(provider).state !== 'open';
  }

  /** A provider's configured base URL, without a trailing slash (e.g. to build arXiv PDF links). */
  baseUrlOf(name: string): string | undefined {
    return this.byName.get(name)?.config.baseUrl.replace(/\/+$/, '');
  }

  providerNames(kind?: SearchKind): string[] {
    return this.providers.filter((provider) => !kind || provider.kind === kind).map((provider) => provider.name);
  }

  /** The providers a request names, or every provider of the kind; unknown or wrong-kind names are 400s. */
  selectProviders(kind: SearchKind, names: string[] | undefined): Provider[] {
    if (!names || names.length === 0) return this.providers.filter((provider) => provider.kind === kind);
    const allowed = this.providerNames(kind);
    const selected: Provider[] = [];
    for (const name of new Set(names.map((entry) => entry.trim().toLowerCase()).filter(Boolean))) {
      const provider = this.byName.get(name);
      if (!provider) {
        throw invalidQuery(`providers: unknown provider "${name}"; allowed for ${kind}: ${allowed.join(', ')}`);
      }
      if (provider.kind !== kind) {
        throw invalidQuery(`providers: "${name}" serves ${provider.kind}, not ${kind}; allowed for ${kind}: ${allowed.join(', ')}`);
      }
      selected.push(provider);
    }
    if (selected.length === 0) throw invalidQuery(`providers: name at least one provider; allowed for ${kind}: ${allowed.join(', ')}`);
    return selected;
  }

  async search(request: SearchRequest, signal?: AbortSignal): Promise<SearchResponse> {
    const started = performance.now();
    const providers = this.selectProviders(request.kind, request.providers);
    const page = request.page ?? 1;
    const query: SearchQuery = {
      kind: request.kind,
      text: request.query.trim(),
      limit: resultsWanted(request.limit, page),
      filters: request.filters ?? {},
    };
    const key = cacheKey({ ...query, limit: request.limit }, providers, request.timeoutMs);
    const stored = await this.readCache(key);
    // A list too short for this page is gathered again, deeper; the deeper list extends it.
    const cached = stored && servesPage(stored, request.limit, page) ? stored : undefined;
    this.options.onCacheLookup?.(cached !== undefined);
    const listed = stored?.results ?? [];
    const answer =
      cached ??
      (request.onProviderAnswer
        ? await this.gatherAndRank(query, providers, request, key, listed, signal ?? new AbortController().signal)
        : await this.flights.run(`${key}#${query.limit}`, signal, (sharedSignal) =>
            this.gatherAndRank(query, providers, request, key, listed, sharedSignal),
          ));
    return {
      query: query.text,
      kind: query.kind,
      results: presentResults(answer.results, { ...request, page }),
      providers: answer.providers,
      page,
      has_more: hasMorePages(answer, request.limit, page),
      took_ms: Math.round(performance.now() - started),
      cached: cached !== undefined,
      // Clocks of replicas sharing Redis may differ a little: never a negative age.
      cache_age_ms: cached === undefined ? 0 : Math.max(0, Date.now() - cached.cached_at),
    };
  }

  private async readCache(key: string): Promise<CachedAnswer | undefined> {
    try {
      return await this.options.cache.get(key);
    } catch (error) {
      this.options.logger.warn({ err: error }, 'answer cache read failed; searching without it');
      return undefined;
    }
  }

  /**
   * Looks one paper up by identifier at every paper provider that can, at once, and merges what they found
   * into one record with every source. Providers that cannot look up that kind of identifier are skipped.
   */
  async lookupPaper(
    identifier: PaperIdentifier,
    options: { timeoutMs?: number; signal?: AbortSignal; logger?: Logger },
  ): Promise<{ result: SearchResult | undefined; providers: ProviderOutcome[] }> {
    const paperProviders = this.providers.filter((provider) => provider.kind === 'papers');
    const able = paperProviders.filter((provider) => provider.buildLookupRequest(identifier) !== undefined);
    const query: SearchQuery = { kind: 'papers', text: identifier.value, limit: 1, filters: {} };
    const answers = await gatherResults(
      able,
      query,
      { timeoutMs: options.timeoutMs, signal: options.signal, task: (provider, transport, signal) => provider.lookup(identifier, transport, signal) },
      this.gatherDependencies(options.logger),
    );
    const skipped = paperProviders
      .filter((provider) => !able.includes(provider))
      .map((provider) => notAsked(provider, 'skipped', `cannot look up ${identifier.type} identifiers`));
    const [result] = rankResults(groupResults('papers', this.rankedEntries(answers)), { k: this.options.rrfK });
    return { result, providers: [...answers.map((answer) => answer.outcome), ...skipped] };
  }

  /**
   * Runs one piece of work against one provider under its timeout (or the caller's, if shorter), with the
   * same transport, retry and error mapping as a search: video details, page scraping, transcripts.
   */
  async callProvider<T>(
    provider: Provider | string,
    work: (provider: Provider, transport: UpstreamTransport, signal: AbortSignal) => Promise<T>,
    options: { timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<T> {
    const target = typeof provider === 'string' ? this.byName.get(provider) : provider;
    if (!target) throw new FedsearchError('INTERNAL', `no provider named ${String(provider)}`);
    const missing = target.missingSettings();
    if (missing.length > 0) {
      throw new FedsearchError('PROVIDER_NOT_CONFIGURED', `${target.name} is not configured: set ${missing.join(', ')}`);
    }
    const timeoutMs = Math.min(target.config.timeoutMs, options.timeoutMs ?? Number.POSITIVE_INFINITY);
    const signals = [AbortSignal.timeout(timeoutMs), ...(options.signal ? [options.signal] : [])];
    const signal = AbortSignal.any(signals);
    try {
      return await work(target, withOneRetry(this.transportFor(target), performance.now() + timeoutMs), signal);
    } catch (error) {
      if (error instanceof FedsearchError) {
        // Upstream-described messages are shown to callers: the same redaction as per-provider outcomes.
        throw new FedsearchError(error.code, redactSecrets(error.message, this.secrets), {
          cause: error,
          retryAfterMs: error.retryAfterMs,
          upstreamStatus: error.upstreamStatus,
          details: error.details,
        });
      }
      if (signal.aborted && !options.signal?.aborted) {
        throw new FedsearchError('PROVIDER_TIMEOUT', `${target.name} gave no answer within ${timeoutMs} ms`);
      }
      if (options.signal?.aborted) throw new FedsearchError('REQUEST_CANCELLED', 'cancelled: the client went away');
      throw new FedsearchError('PROVIDER_PARSE', `${target.name}'s response could not be read`, { cause: error });
    }
  }

  private gatherDependencies(logger: Logger = this.options.logger): GatherDependencies {
    return {
      transportFor: (provider) => this.transportFor(provider),
      limiterFor: this.limiterFor,
      secrets: () => this.secrets,
      admit: (provider) => this.healthOf(provider).admit(),
      rateLimit: (provider, deadline, signal) => this.rateLimiter.acquire(provider.name, provider.config.rateLimit, deadline, signal),
      onOutcome: (answer) => this.reportOutcome(answer, logger),
    };
  }

  /** Some providers' answers fused exactly as a finished search fuses them all: a streamed search's results so far. */
  fuseAnswers(kind: SearchKind, answers: ProviderAnswer[], options: { limit: number; page?: number; explain?: boolean }): SearchResult[] {
    return presentResults(this.rankAnswers(kind, answers), options);
  }

  private rankAnswers(kind: SearchKind, answers: ProviderAnswer[]): SearchResult[] {
    return rankResults(groupResults(kind, this.rankedEntries(answers)), { k: this.options.rrfK, explain: true });
  }

  private rankedEntries(answers: ProviderAnswer[]): RankedItem[] {
    return answers.flatMap((answer) =>
      answer.items.map((item, index) => ({ provider: answer.provider.name, rank: index + 1, weight: answer.provider.config.weight, item })),
    );
  }

  private async gatherAndRank(
    query: SearchQuery,
    providers: Provider[],
    request: SearchRequest,
    key: string,
    listed: SearchResult[],
    signal: AbortSignal,
  ): Promise<CachedAnswer> {
    const finished = this.options.onSearchStarted?.();
    const gatheredAt = Date.now();
    let answers: ProviderAnswer[];
    try {
      answers = await gatherResults(
        providers,
        query,
        { timeoutMs: request.timeoutMs, signal, onAnswer: request.onProviderAnswer },
        this.gatherDependencies(request.logger),
      );
    } finally {
      finished?.();
    }
    const results = extendResults(listed, this.rankAnswers(query.kind, answers));
    const outcome: CachedAnswer = { results, depth: query.limit, providers: answers.map((answer) => answer.outcome), cached_at: gatheredAt };
    // An answer where nothing succeeded says nothing about the query: the next caller should try again.
    if (outcome.providers.some((provider) => provider.status === 'ok') && !signal.aborted) {
      await this.options.cache.set(key, outcome, answerTtl(outcome, this.options.partialAnswerTtlMs)).catch((error: unknown) => {
        this.options.logger.warn({ err: error }, 'answer cache write failed');
      });
    }
    return outcome;
  }

  private healthOf(provider: Provider): ProviderHealth {
    return this.health.get(provider.name)!;
  }

  /** Each provider's circuit state, for metrics. */
  circuitStates(): Array<{ provider: string; state: HealthSnapshot['state'] }> {
    return this.providers.map((provider) => ({ provider: provider.name, state: this.healthOf(provider).state }));
  }

  private reportOutcome(answer: ProviderAnswer, logger: Logger): void {
    const { outcome } = answer;
    const health = this.healthOf(answer.provider);
    health.record(outcome);
    const level = outcome.status === 'ok' ? 'debug' : 'info';
    logger[level]({ provider: outcome }, `provider ${outcome.provider}: ${outcome.status}`);
    this.options.onProviderAnswer?.(answer, health.state);
  }

  private transportFor(provider: Provider): UpstreamTransport {
    let transport = this.transports.get(provider.name);
    if (!transport) {
      transport = createUpstreamTransport(provider, {
        dispatcher: this.options.dispatcher,
        maxBytes: this.options.maxUpstreamBytes,
      });
      this.transports.set(provider.name, transport);
    }
    return transport;
  }
}

/** One page of a ranked list, with score explanations only when asked for. */
function presentResults(results: SearchResult[], options: { limit: number; page?: number; explain?: boolean }): SearchResult[] {
  return pageOf(results, options.limit, options.page ?? 1).map((result) => (options.explain ? result : withoutExplain(result)));
}

function withoutExplain(result: SearchResult): SearchResult {
  if (!result.explain) return result;
  const { explain: _explain, ...rest } = result;
  return rest;
}
