import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Dispatcher } from 'undici';
import type { ProviderOutcome } from '../domain/outcome.js';
import type { Provider, UpstreamTransport } from '../providers/provider.js';
import type { OutboundRateLimiter } from '../rate-limit/outbound-limiter.js';
import type { ProviderCatalog } from './provider-catalog.js';
import { SharedCancellation } from './cancellation.js';
import { levelEnabled } from './log-level.js';
import type { HealthSnapshot } from './provider-health.js';
import { outboundSlots, type OutboundSlots } from './outbound-slots.js';
import { createLimiters, type PipelineDependencies, type ProviderReport } from './provider-pipeline.js';
import { secretValues } from './redact.js';
import { createUpstreamTransport, type RequestBreaker } from './upstream-transport.js';

export interface ProviderRuntimeOptions {
  catalog: ProviderCatalog;
  dispatcher: Dispatcher;
  maxUpstreamBytes: number;
  rateLimiter: OutboundRateLimiter;
  logger: Logger;
  /** Called after each provider answers, whatever the task (metrics). */
  onProviderAnswer?(report: ProviderReport, circuit: HealthSnapshot['state']): void;
}

/**
 * What the provider pipeline runs on, shared by every search, lookup and capability call of one engine:
 * one transport and one concurrency limit per provider, the breakers, one outbound bucket per upstream quota, and what
 * each outcome is reported to (health, metrics, one log line on the caller's logger).
 */
export class ProviderRuntime {
  private readonly transports = new Map<string, UpstreamTransport>();
  private readonly limiterFor = createLimiters();
  readonly secrets: string[];
  /** Each provider's outbound slots, from the bucket of the quota it spends; planned once, at start-up. */
  private readonly slots: OutboundSlots;
  /**
   * The breaker each provider's requests meet (breakerOf), by provider name, made once at start-up; a host's with a
   * breaker of its own (Provider.upstreamHost) by `<name> <host>`, made on first use.
   */
  private readonly breakers = new Map<string, RequestBreaker>();
  /** Aborted when the service shuts down: every call still running is then cut short (SearchService.cutCallsShort). */
  readonly stopping = new SharedCancellation();

  constructor(private readonly options: ProviderRuntimeOptions) {
    this.secrets = secretValues(options.catalog.providers);
    this.slots = outboundSlots(options.catalog.providers, options.rateLimiter, options.logger);
    for (const provider of options.catalog.providers) this.breakers.set(provider.name, this.breakerOf(provider));
  }

  /** The pipeline's dependencies, with outcome lines written to `logger` (the caller's, so they carry its request id). */
  dependencies(logger: Logger = this.options.logger): PipelineDependencies {
    return { ...this.shared, onOutcome: (report) => this.reportOutcome(report, logger) };
  }

  /** Everything but the logger, made once rather than for every search. */
  private readonly shared: Omit<PipelineDependencies, 'onOutcome'> = {
    transportFor: (provider) => this.transportFor(provider),
    limiterFor: this.limiterFor,
    secrets: () => this.secrets,
    admit: (provider, host) => this.options.catalog.healthOf(provider, host).admit(),
    breakerFor: (provider, host) => this.breakerFor(provider, host),
    rateLimitFor: (provider) => this.slots.slotFor(provider),
    stopping: this.stopping,
  };

  /**
   * The breaker a provider's requests meet. An upstream's Retry-After holds this replica's breaker; for a provider
   * with an outbound bucket it is told to the bucket too, which with Redis holds every replica sharing it: otherwise
   * each went on sending until it heard its own 429, spending the quota the upstream had asked to rest. A provider
   * with no limit meets its breaker as it is (no bucket, so no Redis).
   */
  private breakerOf(provider: Provider, host?: string): RequestBreaker {
    const health = this.options.catalog.healthOf(provider, host);
    const shareWait = this.slots.waitFor(provider);
    if (!shareWait) return health;
    return {
      suspension: () => health.suspension(),
      // As long as this replica holds: the breaker's longest suspension bounds both.
      hold: (retryAfterMs) => {
        const heldMs = health.hold(retryAfterMs);
        if (heldMs > 0) shareWait(heldMs);
      },
    };
  }

  /** The provider's breaker, made at start-up, or that of a host with its own (made on first use, kept by host). */
  private breakerFor(provider: Provider, host: string | undefined): RequestBreaker {
    if (host === undefined) return this.breakers.get(provider.name) ?? this.options.catalog.healthOf(provider);
    const key = `${provider.name} ${host}`;
    let breaker = this.breakers.get(key);
    if (!breaker) {
      breaker = this.breakerOf(provider, host);
      this.breakers.set(key, breaker);
    }
    return breaker;
  }

  private reportOutcome(report: ProviderReport, logger: Logger): void {
    const { outcome, task } = report;
    const health = this.options.catalog.healthOf(report.provider, report.host);
    health.record(outcome, report.saysNothingOfUpstream === true, report.probe === true, report.sharedMessage);
    // Not asked because of its settings or the request (no key, turned off, a filter it lacks): nothing happened.
    const level = outcome.status === 'ok' || outcome.status === 'not_configured' || outcome.status === 'skipped' ? 'debug' : 'info';
    // Most outcomes are `ok` lines below the level a busy service logs at: not even their message is built.
    if (levelEnabled(logger, level)) logger[level]({ provider: outcome, task }, `provider ${outcome.provider}: ${loggedStatus(outcome)}`);
    this.options.onProviderAnswer?.(report, health.state);
  }

  private transportFor(provider: Provider): UpstreamTransport {
    let transport = this.transports.get(provider.name);
    if (!transport) {
      transport = createUpstreamTransport(provider, { dispatcher: this.options.dispatcher, maxBytes: this.options.maxUpstreamBytes });
      this.transports.set(provider.name, transport);
    }
    return transport;
  }
}

/**
 * The status a provider's log line names. A call cut because its caller went away is an `error` outcome (code
 * REQUEST_CANCELLED, as metrics count it), but neither the provider nor the service failed: its line says so.
 */
function loggedStatus(outcome: ProviderOutcome): string {
  return outcome.code === 'REQUEST_CANCELLED' ? 'cancelled' : outcome.status;
}
