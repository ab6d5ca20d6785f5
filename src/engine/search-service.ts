import type { Dispatcher } from 'undici';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { invalidQuery } from '../domain/errors.js';
import type { ProviderOutcome } from '../domain/outcome.js';
import type { SearchFilters, SearchQuery } from '../domain/query.js';
import type { SearchKind, SearchResult } from '../domain/result.js';
import type { Provider, UpstreamTransport } from '../providers/provider.js';
import { secretValues } from '../providers/registry.js';
import type { AnswerCache } from './answer-cache.js';
import { createLimiters, gatherResults, type ProviderAnswer } from './gather.js';
import { ProviderHealth, type BreakerOptions, type HealthSnapshot } from './provider-health.js';
import { groupResults, type RankedItem } from './merge.js';
import { rankResults } from './rank.js';
import { SingleFlight } from './single-flight.js';
import { createUpstreamTransport } from './upstream-transport.js';

/** A search as REST and MCP both hand it to the service, already validated for shape. */
export interface SearchRequest {
  kind: SearchKind;
  query: string;
  providers?: string[];
  limit: number;
  timeoutMs?: number;
  explain?: boolean;
  filters?: SearchFilters;
}

export interface SearchResponse {
  query: string;
  kind: SearchKind;
  results: SearchResult[];
  providers: ProviderOutcome[];
  took_ms: number;
  cached: boolean;
}

/** What the cache keeps: the whole ranked list with score explanations, trimmed per request on the way out. */
interface CachedAnswer {
  results: SearchResult[];
  providers: ProviderOutcome[];
}

export interface SearchServiceOptions {
  providers: Provider[];
  cache: AnswerCache<CachedAnswer>;
  dispatcher: Dispatcher;
  logger: Logger;
  rrfK: number;
  maxUpstreamBytes: number;
  breaker: BreakerOptions;
  /** Called after each provider answers: metrics, circuit breakers. */
  onProviderAnswer?(answer: ProviderAnswer): void;
}

/** Public description of one provider, for /v1/providers and list_providers. */
export interface ProviderDescription {
  name: string;
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

  constructor(private readonly options: SearchServiceOptions) {
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
    const query: SearchQuery = {
      kind: request.kind,
      text: request.query.trim(),
      limit: request.limit,
      filters: request.filters ?? {},
    };
    const key = cacheKey(query, providers, request.timeoutMs);
    const cached = await this.readCache(key);
    const answer =
      cached ?? (await this.flights.run(key, signal, (sharedSignal) => this.gatherAndRank(query, providers, request, key, sharedSignal)));
    return {
      query: query.text,
      kind: query.kind,
      results: answer.results.slice(0, request.limit).map((result) => (request.explain ? result : withoutExplain(result))),
      providers: answer.providers,
      took_ms: Math.round(performance.now() - started),
      cached: cached !== undefined,
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

  private async gatherAndRank(
    query: SearchQuery,
    providers: Provider[],
    request: SearchRequest,
    key: string,
    signal: AbortSignal,
  ): Promise<CachedAnswer> {
    const answers = await gatherResults(
      providers,
      query,
      { timeoutMs: request.timeoutMs, signal },
      {
        transportFor: (provider) => this.transportFor(provider),
        limiterFor: this.limiterFor,
        secrets: () => this.secrets,
        admit: (provider) => this.healthOf(provider).admit(),
        onOutcome: (answer) => this.reportOutcome(answer),
      },
    );
    const entries: RankedItem[] = answers.flatMap((answer) =>
      answer.items.map((item, index) => ({
        provider: answer.provider.name,
        rank: index + 1,
        weight: answer.provider.config.weight,
        item,
      })),
    );
    const results = rankResults(groupResults(query.kind, entries), { k: this.options.rrfK, explain: true });
    const outcome: CachedAnswer = { results, providers: answers.map((answer) => answer.outcome) };
    // An answer where nothing succeeded says nothing about the query: the next caller should try again.
    if (outcome.providers.some((provider) => provider.status === 'ok') && !signal.aborted) {
      await this.options.cache.set(key, outcome).catch((error: unknown) => {
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

  private reportOutcome(answer: ProviderAnswer): void {
    const { outcome } = answer;
    this.healthOf(answer.provider).record(outcome);
    const level = outcome.status === 'ok' ? 'debug' : 'info';
    this.options.logger[level]({ provider: outcome }, `provider ${outcome.provider}: ${outcome.status}`);
    this.options.onProviderAnswer?.(answer);
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

function withoutExplain(result: SearchResult): SearchResult {
  if (!result.explain) return result;
  const { explain: _explain, ...rest } = result;
  return rest;
}

/** Same kind, same words (case and spacing aside), same providers, limit, deadline and filters: same answer. */
function cacheKey(query: SearchQuery, providers: Provider[], timeoutMs: number | undefined): string {
  return JSON.stringify([
    query.kind,
    query.text.toLowerCase().replace(/\s+/g, ' '),
    providers.map((provider) => provider.name).sort(),
    query.limit,
    timeoutMs ?? null,
    Object.entries(query.filters).filter(([, value]) => value !== undefined).sort(([a], [b]) => a.localeCompare(b)),
  ]);
}
