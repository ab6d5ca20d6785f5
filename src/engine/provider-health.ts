import type { ProviderOutcome } from '../domain/outcome.js';

export type CircuitState = 'closed' | 'open' | 'half-open';

export interface BreakerOptions {
  /** Consecutive failures that open the circuit. */
  failureThreshold: number;
  /** First suspension; each failed probe doubles it, up to maxCooldownMs. */
  cooldownMs: number;
  maxCooldownMs: number;
  now?: () => number;
}

/** `probe`: the one call let through while half-open, whose outcome (recorded with `probe`) decides the circuit. */
export type Admission = { allowed: true; probe?: true } | { allowed: false; retryAfterMs: number; reason: string };
/** Why no request may go to the upstream now, and for how long. */
export type Suspension = { retryAfterMs: number; reason: string };

/** Until when the upstream asked not to be called (Retry-After), as a time of the breaker's clock; 0 for never. */
interface RetryAfterHold {
  until: number;
}

export interface HealthSnapshot {
  state: CircuitState;
  consecutive_failures: number;
  retry_after_ms?: number;
  success_rate: number | null;
  latency_p50_ms: number | null;
  latency_p95_ms: number | null;
  recent_calls: number;
  last_error?: { message: string; at: string };
}

/** How many recent calls the percentiles and success rate are computed over. */
const WINDOW = 100;

function percentile(sorted: number[], fraction: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

/**
 * One provider's circuit breaker and recent health. After `failureThreshold` consecutive failures the
 * provider is suspended for a cooldown that grows with each failed probe; once it has passed, one call is let
 * through as a probe (half-open). An upstream's own Retry-After suspends it for exactly that long, from the
 * moment it is heard (hold), and a success that was already on its way does not lift it. Unlike a library
 * breaker, it can say how long a suspension has left, which every answer reports as retry_after_ms.
 */
export class ProviderHealth {
  private consecutiveFailures = 0;
  private openUntil = 0;
  /**
   * Until when the upstream asked not to be called (Retry-After): open whatever the calls since say. A host's breaker
   * (forHost) shares its instance's: an upstream counts its limit per client, across its hosts.
   */
  private readonly held: RetryAfterHold;
  private cooldownMs: number;
  private probing = false;
  private opened = false;
  /** The last WINDOW calls in a ring: latency, and whether each succeeded (1) or failed (0). No object per call. */
  private readonly recentLatencies = new Float64Array(WINDOW);
  private readonly recentOk = new Uint8Array(WINDOW);
  private recentCount = 0;
  private recentNext = 0;
  private lastError: { message: string; at: string } | undefined;
  private readonly now: () => number;

  /**
   * `host`: the breaker is one upstream host's (forHost), named in the reason of its suspension, and `held` is its
   * instance's hold.
   */
  constructor(
    private readonly options: BreakerOptions,
    private readonly host?: { name: string; held: RetryAfterHold },
  ) {
    this.cooldownMs = options.cooldownMs;
    this.now = options.now ?? Date.now;
    this.held = host?.held ?? { until: 0 };
  }

  /**
   * A breaker for one host of this instance's upstream that fails on its own (a Wikipedia edition in another language:
   * Provider.upstreamHost): its failures open it alone, while a Retry-After heard from any host holds them all.
   */
  forHost(name: string): ProviderHealth {
    return new ProviderHealth(this.options, { name, held: this.held });
  }

  get state(): CircuitState {
    // Never opened nor held, as most providers are: no clock read (every request asks, through suspension()).
    if (!this.opened && this.held.until === 0) return 'closed';
    const now = this.now();
    if (now < this.held.until) return 'open';
    if (!this.opened) return 'closed';
    return now < this.openUntil ? 'open' : 'half-open';
  }

  /** The state a host's breaker made now would start in (forHost): open only while the upstream's Retry-After holds. */
  get newHostState(): CircuitState {
    return this.held.until !== 0 && this.now() < this.held.until ? 'open' : 'closed';
  }

  /**
   * Why a request must not leave now, for calls admitted earlier that waited here (for a rate-limit slot or a
   * concurrency place) while the circuit opened, and for a call's later requests; undefined when it may.
   */
  suspension(): Suspension | undefined {
    if (this.state !== 'open') return undefined;
    return { retryAfterMs: this.suspendedUntil() - this.now(), reason: this.suspensionReason() };
  }

  /**
   * The upstream answered with Retry-After: no request goes to it before then (up to the longest suspension), told
   * as the answer arrives, so that requests already waiting here, or a later page of the same call, are held too.
   * Returns how long it holds (0 for no wait), for the other replicas to hold as long (ProviderRuntime).
   */
  hold(retryAfterMs: number): number {
    if (!(retryAfterMs > 0)) return 0;
    const heldMs = Math.min(retryAfterMs, this.options.maxCooldownMs);
    this.held.until = Math.max(this.held.until, this.now() + heldMs);
    return heldMs;
  }

  /** Whether a call may go to the upstream now. In half-open, only one probe at a time. */
  admit(): Admission {
    const state = this.state;
    if (state === 'closed') return { allowed: true };
    if (state === 'open') {
      return { allowed: false, retryAfterMs: this.suspendedUntil() - this.now(), reason: this.suspensionReason() };
    }
    if (this.probing) return { allowed: false, retryAfterMs: 1000, reason: 'suspended: a probe request is in flight' };
    this.probing = true;
    return { allowed: true, probe: true };
  }

  /**
   * Records what a call did; outcomes that say nothing about the upstream (cancelled, skipped, or a failure its
   * caller or our own queues caused: see ProviderReport.saysNothingOfUpstream) are ignored, and end a probe unused.
   * `probe`: the call was admitted as the half-open probe. Only its outcome ends the probe: calls admitted before
   * the circuit opened still finish afterwards, and one of them ending unused must not let a second probe through
   * while the first is in flight. `sharedMessage`: what last_error shows every caller of a failure whose outcome
   * quotes the upstream (ProviderReport.sharedMessage); the outcome's message when unset.
   */
  record(outcome: ProviderOutcome, saysNothingOfUpstream = false, probe = false, sharedMessage?: string): void {
    if (outcome.status === 'ok') return this.recordSuccess(outcome.latency_ms);
    if (saysNothingOfUpstream) return this.endUnused(probe);
    // Our own rate limit, or the breaker opened while the call waited here: the upstream was not asked, so a probe
    // it was admitted as ends unused.
    if (outcome.status === 'rate_limited' || outcome.status === 'suspended') return this.endUnused(probe);
    if (outcome.status !== 'error' && outcome.status !== 'timeout') return;
    if (outcome.code === 'REQUEST_CANCELLED') return this.endUnused(probe);
    this.recordFailure(outcome, probe, sharedMessage);
  }

  /** A call that did not reach the upstream: if it was the probe, the next call may probe instead. */
  private endUnused(probe: boolean): void {
    if (probe) this.probing = false;
  }

  private recordSuccess(latencyMs: number): void {
    this.remember(true, latencyMs);
    this.consecutiveFailures = 0;
    this.opened = false;
    this.probing = false;
    this.cooldownMs = this.options.cooldownMs;
  }

  private recordFailure(outcome: ProviderOutcome, probe: boolean, sharedMessage: string | undefined): void {
    this.remember(false, outcome.latency_ms);
    this.lastError = { message: sharedMessage ?? outcome.message ?? outcome.status, at: new Date(this.now()).toISOString() };
    this.consecutiveFailures += 1;
    // A probe whose circuit a straggler's success closed meanwhile is an ordinary failure.
    const wasProbe = probe && this.probing;
    if (probe) this.probing = false;
    if (outcome.retry_after_ms !== undefined && outcome.retry_after_ms > 0) {
      // The upstream said how long to wait: believe it, up to the longest suspension (a Retry-After of a year, or a
      // date mistyped, would otherwise keep the provider out until the process restarts).
      this.hold(outcome.retry_after_ms);
      this.open(Math.min(outcome.retry_after_ms, this.options.maxCooldownMs));
      return;
    }
    if (wasProbe) {
      this.cooldownMs = Math.min(this.cooldownMs * 2, this.options.maxCooldownMs);
      this.open(this.cooldownMs);
    } else if (this.consecutiveFailures >= this.options.failureThreshold) {
      this.open(this.cooldownMs);
    }
  }

  private open(durationMs: number): void {
    this.opened = true;
    this.openUntil = this.now() + durationMs;
  }

  /** When the current suspension ends: the breaker's cooldown or the upstream's Retry-After, whichever is later. */
  private suspendedUntil(): number {
    return Math.max(this.held.until, this.opened ? this.openUntil : 0);
  }

  private suspensionReason(): string {
    if (this.now() < this.held.until) return 'suspended: the upstream asked to wait (Retry-After)';
    return this.consecutiveFailures >= this.options.failureThreshold
      ? `suspended after ${this.consecutiveFailures} consecutive failures${this.host ? ` at ${this.host.name}` : ''}`
      : 'suspended: the upstream asked to wait (Retry-After)';
  }

  private remember(ok: boolean, latencyMs: number): void {
    this.recentLatencies[this.recentNext] = latencyMs;
    this.recentOk[this.recentNext] = ok ? 1 : 0;
    this.recentNext = (this.recentNext + 1) % WINDOW;
    this.recentCount = Math.min(this.recentCount + 1, WINDOW);
  }

  snapshot(): HealthSnapshot {
    // The ring's order does not matter here: percentiles sort, the success rate counts.
    const latencies = Array.from(this.recentLatencies.subarray(0, this.recentCount)).sort((a, b) => a - b);
    let succeeded = 0;
    for (let index = 0; index < this.recentCount; index += 1) succeeded += this.recentOk[index]!;
    const state = this.state;
    const snapshot: HealthSnapshot = {
      state,
      consecutive_failures: this.consecutiveFailures,
      success_rate: this.recentCount === 0 ? null : succeeded / this.recentCount,
      latency_p50_ms: percentile(latencies, 0.5),
      latency_p95_ms: percentile(latencies, 0.95),
      recent_calls: this.recentCount,
    };
    if (state === 'open') snapshot.retry_after_ms = this.suspendedUntil() - this.now();
    if (this.lastError) snapshot.last_error = this.lastError;
    return snapshot;
  }
}
