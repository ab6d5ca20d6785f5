import { FedsearchError, invalidQuery } from '../domain/errors.js';
import type { FieldProblem } from '../domain/validation.js';
import { shownValue } from '../domain/shown-value.js';
import { AUTO_SELECTION, type SearchFilters } from '../domain/query.js';
import type { SearchKind } from '../domain/result.js';
import type { Provider } from '../providers/provider.js';
import { ProviderHealth, type BreakerOptions, type HealthSnapshot } from './provider-health.js';

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
  /** Circuit state, recent latency percentiles, success rate and last error, of its own host's calls. */
  health: HealthSnapshot;
  /** By host, the breakers of other hosts its searches have reached (Provider.upstreamHost); absent when none. */
  host_health?: Record<string, HealthSnapshot>;
}

/**
 * A refusal of the `providers` field, in the shape of a refused field's (QUERY_INVALID with `details` naming it, as
 * schema validation answers), so a client reads one shape for every bad field. Built only when a request is refused.
 */
function providersProblem(problem: string): FedsearchError {
  const details: FieldProblem[] = [{ field: 'providers', message: problem }];
  return invalidQuery(`providers: ${problem}`, details);
}

/** The providers the engine was built with, by name, each with its breaker and recent health. */
export class ProviderCatalog {
  private readonly byName: Map<string, Provider>;
  private readonly health: Map<string, ProviderHealth>;
  /**
   * The breakers of hosts a provider's searches reach besides its own (Provider.upstreamHost), made on first use. Their
   * number is bounded by the provider's (Wikipedia's editions), never by what callers send.
   */
  private readonly hostHealth = new Map<Provider, Map<string, ProviderHealth>>();
  private readonly searchersByKind = new Map<SearchKind, readonly Provider[]>();
  private readonly position: Map<Provider, number>;

  constructor(
    readonly providers: readonly Provider[],
    breaker: BreakerOptions,
  ) {
    this.byName = new Map(providers.map((provider) => [provider.name, provider]));
    this.position = new Map(providers.map((provider, index) => [provider, index]));
    this.health = new Map(providers.map((provider) => [provider.name, new ProviderHealth(breaker)]));
  }

  describe(): ProviderDescription[] {
    return this.providers.map((provider) => {
      const missing = [...provider.missingSettings()];
      const hosts = this.hostsOf(provider);
      const description: ProviderDescription = {
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
      if (hosts) description.host_health = Object.fromEntries([...hosts].map(([host, health]) => [host, health.snapshot()]));
      return description;
    });
  }

  /** The provider of this name; an operation naming one the engine does not have is a programming error. */
  get(name: string): Provider {
    const provider = this.byName.get(name);
    if (!provider) throw new FedsearchError('INTERNAL', `no provider named ${name}`);
    return provider;
  }

  isConfigured(name: string): boolean {
    const provider = this.byName.get(name);
    return provider !== undefined && provider.missingSettings().length === 0;
  }

  /**
   * Configured and not suspended: a provider worth choosing now (a half-open one may be probed). With `filters`, the
   * breaker is the one a search with them meets (Provider.upstreamHost: a Wikipedia edition's), as the pipeline admits
   * it: routing a German search to Wikipedia while de.wikipedia.org was suspended answered nothing, and passing it over
   * while only the instance's own edition was answered nothing from a wiki that would have answered.
   */
  isAdmissible(name: string, filters?: SearchFilters): boolean {
    const provider = this.byName.get(name);
    return provider !== undefined && provider.missingSettings().length === 0 && this.circuitFor(provider, filters) !== 'open';
  }

  /** The host of its own a search with these filters asks (Provider.upstreamHost), for saying which breaker holds it back. */
  upstreamHostOf(name: string, filters: SearchFilters): string | undefined {
    return this.byName.get(name)?.upstreamHost?.(filters);
  }

  /**
   * The circuit a search with these filters meets, without making a host's breaker (that is the pipeline's, on a
   * search's first call): one not made yet has failed nothing, and is held only by its instance's Retry-After.
   */
  private circuitFor(provider: Provider, filters: SearchFilters | undefined): HealthSnapshot['state'] {
    const health = this.health.get(provider.name)!;
    const host = filters === undefined ? undefined : provider.upstreamHost?.(filters);
    if (host === undefined) return health.state;
    return this.hostHealth.get(provider)?.get(host)?.state ?? health.newHostState;
  }

  /** A provider's configured base URL, without a trailing slash (e.g. to build arXiv PDF links). */
  baseUrlOf(name: string): string | undefined {
    return this.byName.get(name)?.config.baseUrl.replace(/\/+$/, '');
  }

  /** Every provider's name, or the names of those that search this kind. */
  providerNames(kind?: SearchKind): string[] {
    return (kind ? this.searchersOf(kind) : this.providers).map((provider) => provider.name);
  }

  /**
   * The providers a request names, or every provider that searches the kind; unknown or wrong-kind names are
   * 400s. Either way in the catalogue's order, not the order named: which results tie first follows the order
   * the lists are fused in, and an answer (and the cache entry it is kept under, which sorts the names) must
   * be the same for `brave,exa` and `exa,brave`.
   */
  selectProviders(kind: SearchKind, names: string[] | undefined): Provider[] {
    // A copy: the caller may keep or change its list; the catalogue's stays as it is.
    if (!names || names.length === 0) return this.searchersOf(kind).slice();
    // Every search runs this (once: planSearch hands its list on), so it makes no Set, closure or mapped copy: a
    // list names a few providers, and a repeated name is found by looking at those already chosen.
    const selected: Provider[] = [];
    for (const entry of names) {
      const name = entry.trim().toLowerCase();
      if (name === '') continue;
      const provider = this.byName.get(name);
      if (!provider) throw providersProblem(this.unknownNameProblem(kind, name));
      if (selected.includes(provider)) continue;
      if (provider.kind !== kind) {
        throw providersProblem(`"${name}" serves ${provider.kind}, not ${kind}; allowed for ${kind}: ${this.allowedNames(kind)}`);
      }
      if (!searches(provider)) {
        throw providersProblem(`"${name}" does not search (${provider.settings.description}); allowed for ${kind}: ${this.allowedNames(kind)}`);
      }
      selected.push(provider);
    }
    if (selected.length === 0) throw providersProblem(`name at least one provider; allowed for ${kind}: ${this.allowedNames(kind)}`);
    if (selected.length > 1) selected.sort((a, b) => this.position.get(a)! - this.position.get(b)!);
    return selected;
  }

  /**
   * "auto" named beside providers (or twice) reaches here as a name: it is known, but only alone, which planSearch
   * routes before any name is looked up. Saying "unknown provider" would send the caller looking for a typo.
   */
  private unknownNameProblem(kind: SearchKind, name: string): string {
    if (name === AUTO_SELECTION) {
      return `"${AUTO_SELECTION}" chooses the providers itself, so it stands alone; allowed: "${AUTO_SELECTION}" by itself, or names of ${kind} providers: ${this.allowedNames(kind)}`;
    }
    // The name is the caller's, as long as a URL may hold: the answer and its log line quote its start.
    return `unknown provider "${shownValue(name)}"; allowed for ${kind}: ${this.allowedNames(kind)}`;
  }

  /** Named only in an error: not worked out for every search. */
  private allowedNames(kind: SearchKind): string {
    return this.providerNames(kind).join(', ');
  }

  /** The provider's breaker, or that of one host its searches reach besides its own (Provider.upstreamHost). */
  healthOf(provider: Provider, host?: string): ProviderHealth {
    const health = this.health.get(provider.name)!;
    if (host === undefined) return health;
    let hosts = this.hostHealth.get(provider);
    if (!hosts) {
      hosts = new Map();
      this.hostHealth.set(provider, hosts);
    }
    let hostHealth = hosts.get(host);
    if (!hostHealth) {
      hostHealth = health.forHost(host);
      hosts.set(host, hostHealth);
    }
    return hostHealth;
  }

  /** The breakers of the other hosts this provider's searches have reached, by host. */
  private hostsOf(provider: Provider): ReadonlyMap<string, ProviderHealth> | undefined {
    return this.hostHealth.get(provider);
  }

  /** Each provider's circuit state, for metrics, then that of each other host its searches have reached. */
  circuitStates(): Array<{ provider: string; host?: string; state: HealthSnapshot['state'] }> {
    const states: Array<{ provider: string; host?: string; state: HealthSnapshot['state'] }> = [];
    for (const provider of this.providers) {
      states.push({ provider: provider.name, state: this.healthOf(provider).state });
      for (const [host, health] of this.hostsOf(provider) ?? []) states.push({ provider: provider.name, host, state: health.state });
    }
    return states;
  }

  /**
   * The providers that search this kind, in configuration order. The providers never change after start-up: each
   * kind's searchers are listed once, and this list is shared (callers read it, never change it).
   */
  searchersOf(kind: SearchKind): readonly Provider[] {
    let searchers: readonly Provider[] | undefined = this.searchersByKind.get(kind);
    if (!searchers) {
      searchers = this.providers.filter((provider) => provider.kind === kind && searches(provider));
      this.searchersByKind.set(kind, searchers);
    }
    return searchers;
  }
}

/** A provider that serves only other capabilities (the captions source) is never asked to search. */
function searches(provider: Provider): boolean {
  return provider.settings.searchable !== false;
}
