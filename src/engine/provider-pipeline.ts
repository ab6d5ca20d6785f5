import type { ProviderOutcome } from '../domain/outcome.js';
import type { SearchFilters } from '../domain/query.js';
import type { Provider, UpstreamTransport } from '../providers/provider.js';
import { CallDeadline, type CallDeadlines } from './call-deadline.js';
import type { CallerSignal } from './cancellation.js';
import { concurrencyLimit, type ConcurrencyLimit } from './concurrency-limit.js';
import { unsupportedFilters } from './filters.js';
import { failureOutcome, notAsked, okOutcome, turnedOff } from './provider-outcome.js';
import type { Admission } from './provider-health.js';
import { CallTransport } from './upstream-transport.js';

/** What one provider did for one task, as health, metrics and the log line hear of it. */
export interface ProviderReport {
  provider: Provider;
  outcome: ProviderOutcome;
  /** What was asked: `search`, `lookup`, or a capability (`videoDetails`, `captions`, `scrape`, `readDocument`). */
  task: string;
}

/** One piece of work for one provider: a search, a lookup by id, or a capability such as captions. */
export interface ProviderTask<T> {
  name: string;
  /** Filters the work needs the provider to apply; a provider that cannot apply one of them is skipped. */
  filters?: SearchFilters;
  run(provider: Provider, transport: UpstreamTransport, signal: AbortSignal): Promise<T>;
  /** How many results the answer holds, for the outcome's count. */
  count(value: T): number;
}

export interface PipelineLimits {
  /** The caller's deadline; the provider gets the smaller of this and its own timeout. */
  timeoutMs?: number;
  /** Aborts the call (the client went away). */
  signal?: CallerSignal;
  /**
   * Deadlines shared with the other calls of one fan-out (one timer and signal per timeout, made with the same
   * `signal`); whoever passes them finishes them when every call is over. Without it, each call has its own.
   */
  deadlines?: CallDeadlines;
}

export interface PipelineDependencies {
  transportFor(provider: Provider): UpstreamTransport;
  limiterFor(provider: Provider): ConcurrencyLimit;
  secrets(): string[];
  /** The circuit breaker's word on whether this provider may be called now. */
  admit?(provider: Provider): Admission;
  /**
   * Waits for this provider's next outbound request slot while `deadline` (performance.now() time) allows;
   * throws OutboundRateLimited when the slot lies past it. Every request takes one: follow-ups and retries too.
   */
  rateLimit?(provider: Provider, deadline: number, signal: AbortSignal): Promise<void>;
  onOutcome?(report: ProviderReport): void;
}

/** A task's answer: its value when the provider answered, else only what happened (and the error, if one was thrown). */
export type PipelineResult<T> =
  | { ok: true; provider: Provider; outcome: ProviderOutcome; value: T }
  | { ok: false; provider: Provider; outcome: ProviderOutcome; error?: unknown };

/** Per-provider concurrency limits, created on first use and kept for the life of the engine. */
export function createLimiters(): (provider: Provider) => ConcurrencyLimit {
  const limiters = new Map<string, ConcurrencyLimit>();
  return (provider) => {
    let limiter = limiters.get(provider.name);
    if (!limiter) {
      limiter = concurrencyLimit(provider.config.concurrency);
      limiters.set(provider.name, limiter);
    }
    return limiter;
  };
}

/**
 * The one way to an upstream, for every task of every operation: turned off? → configured? → filters
 * supported? → breaker admission → outbound rate limit → concurrency limit → deadline and abort → transport
 * (one retry within the deadline) → parse / follow-ups → outcome → health, metrics and log (onOutcome).
 * Never rejects: a failure is an outcome.
 */
export function runPipeline<T>(
  provider: Provider,
  task: ProviderTask<T>,
  limits: PipelineLimits,
  dependencies: PipelineDependencies,
): Promise<PipelineResult<T>> {
  const refusal = refuse(provider, task);
  if (refusal) return Promise.resolve({ ok: false, provider, outcome: refusal });
  const admission = dependencies.admit?.(provider) ?? { allowed: true };
  if (!admission.allowed) {
    const outcome = notAsked(provider, 'suspended', admission.reason, {
      code: 'PROVIDER_SUSPENDED',
      retry_after_ms: Math.max(0, Math.round(admission.retryAfterMs)),
    });
    dependencies.onOutcome?.({ provider, outcome, task: task.name });
    return Promise.resolve({ ok: false, provider, outcome });
  }
  return runAdmitted(provider, task, limits, dependencies);
}

/** The outcome of a provider that must not be asked for this task (off, not configured, a filter it lacks). */
function refuse(provider: Provider, task: ProviderTask<unknown>): ProviderOutcome | undefined {
  const off = turnedOff(provider);
  if (off) return notAsked(provider, 'skipped', off);
  const missing = provider.missingSettings();
  if (missing.length > 0) return notAsked(provider, 'not_configured', `set ${missing.join(', ')} to enable`, { missing: [...missing] });
  const unsupported = unsupportedFilters(task.filters ?? {}, provider.settings.filters ?? []);
  if (unsupported.length > 0) return notAsked(provider, 'skipped', `cannot filter by ${unsupported.join(', ')}`);
  return undefined;
}

/** An admitted call, from its deadline to its reported outcome: the one async step of the pipeline itself. */
async function runAdmitted<T>(
  provider: Provider,
  task: ProviderTask<T>,
  limits: PipelineLimits,
  dependencies: PipelineDependencies,
): Promise<PipelineResult<T>> {
  const timeoutMs = Math.min(provider.config.timeoutMs, limits.timeoutMs ?? Number.POSITIVE_INFINITY);
  const started = performance.now();
  const shared = limits.deadlines?.for(timeoutMs);
  const call = shared ?? new CallDeadline(timeoutMs, limits.signal);
  const { signal, aborted, at: deadline } = call;
  let result: PipelineResult<T>;
  try {
    // A provider with no outbound limit has no slot to wait for: no limiter call and no race on its way out.
    const takeSlot =
      dependencies.rateLimit && provider.config.rateLimit ? (slotSignal: AbortSignal) => dependencies.rateLimit!(provider, deadline, slotSignal) : undefined;
    // The first request's slot is taken before the concurrency limit: a request that may not go never holds a place there.
    // The race guarantees the deadline even if an adapter ignores its signal (a CPU-bound parse, a stuck queue).
    if (takeSlot) await Promise.race([takeSlot(signal), aborted]);
    const work = dependencies.limiterFor(provider)(() => {
      // Queued behind the concurrency limit past the deadline: do not start at all.
      if (signal.aborted) throw signal.reason;
      return task.run(provider, new CallTransport(dependencies.transportFor(provider), deadline, takeSlot), signal);
    });
    // The race observes both promises at once: neither is left to reject unhandled, whichever loses.
    const value = await Promise.race([work, aborted]);
    result = { ok: true, provider, value, outcome: okOutcome(provider, task.count(value), started) };
  } catch (error) {
    result = { ok: false, provider, error, outcome: failureOutcome(provider, error, started, signal, dependencies.secrets()) };
  } finally {
    // A shared deadline is finished by whoever made it, once all its calls are over.
    if (!shared) call.finish();
  }
  dependencies.onOutcome?.({ provider, outcome: result.outcome, task: task.name });
  return result;
}
