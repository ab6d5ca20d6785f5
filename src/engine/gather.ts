import pLimit, { type LimitFunction } from 'p-limit';
import { FedsearchError } from '../domain/errors.js';
import type { ProviderOutcome } from '../domain/outcome.js';
import type { SearchQuery } from '../domain/query.js';
import type { ProviderItem } from '../domain/result.js';
import type { Provider, UpstreamTransport } from '../providers/provider.js';
import { variablePrefixes } from '../providers/provider-config.js';
import { OutboundRateLimited } from '../rate-limit/outbound-limiter.js';
import { applyPostFilters, unsupportedFilters } from './filters.js';
import type { Admission } from './provider-health.js';
import { redactSecrets } from './redact.js';
import { withOneRetry } from './upstream-transport.js';

/** One provider's part of a fan-out: what it found (possibly nothing) and what happened. */
export interface ProviderAnswer {
  provider: Provider;
  items: ProviderItem[];
  outcome: ProviderOutcome;
}

export interface GatherOptions {
  /** The caller's deadline; each provider gets the smaller of this and its own timeout. */
  timeoutMs?: number;
  /** Aborts every provider at once (the client went away). */
  signal?: AbortSignal;
  /** What to ask each provider; a search by default (a paper lookup by identifier, for instance). */
  task?: (provider: Provider, transport: UpstreamTransport, signal: AbortSignal) => Promise<ProviderItem[]>;
  /**
   * Told of each provider's answer the moment it is known, in finish order, including those never asked
   * (not configured, skipped, suspended): a streamed search shows each one as it comes.
   */
  onAnswer?(answer: ProviderAnswer): void;
}

export interface GatherDependencies {
  transportFor(provider: Provider): UpstreamTransport;
  limiterFor(provider: Provider): LimitFunction;
  secrets(): string[];
  /** The circuit breaker's word on whether this provider may be called now. */
  admit?(provider: Provider): Admission;
  /**
   * Waits for this provider's next outbound request slot while `deadline` (performance.now() time) allows;
   * throws OutboundRateLimited when the slot lies past it. Every request takes one: follow-ups and retries too.
   */
  rateLimit?(provider: Provider, deadline: number, signal: AbortSignal): Promise<void>;
  onOutcome?(answer: ProviderAnswer): void;
}

class ProviderTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
  }
}

/** Per-provider concurrency limits, created on first use and kept for the life of the engine. */
export function createLimiters(): (provider: Provider) => LimitFunction {
  const limiters = new Map<string, LimitFunction>();
  return (provider) => {
    let limiter = limiters.get(provider.name);
    if (!limiter) {
      limiter = pLimit(provider.config.concurrency);
      limiters.set(provider.name, limiter);
    }
    return limiter;
  };
}

/**
 * Asks every provider at once. Each runs under its own deadline and abort signal; a late provider is aborted
 * and reported as `timeout`, a failing one as `error`, and neither holds up the others. Never rejects.
 */
export async function gatherResults(
  providers: Provider[],
  query: SearchQuery,
  options: GatherOptions,
  dependencies: GatherDependencies,
): Promise<ProviderAnswer[]> {
  return Promise.all(
    providers.map(async (provider) => {
      const answer = await askProvider(provider, query, options, dependencies);
      options.onAnswer?.(answer);
      return answer;
    }),
  );
}

async function askProvider(
  provider: Provider,
  query: SearchQuery,
  options: GatherOptions,
  dependencies: GatherDependencies,
): Promise<ProviderAnswer> {
  const off = turnedOff(provider);
  if (off) return { provider, items: [], outcome: notAsked(provider, 'skipped', off) };
  const missing = provider.missingSettings();
  if (missing.length > 0) {
    return { provider, items: [], outcome: notAsked(provider, 'not_configured', `set ${missing.join(', ')} to enable`, { missing }) };
  }
  const unsupported = unsupportedFilters(query.filters, provider.settings.filters ?? []);
  if (unsupported.length > 0) {
    return { provider, items: [], outcome: notAsked(provider, 'skipped', `cannot filter by ${unsupported.join(', ')}`) };
  }
  const admission = dependencies.admit?.(provider) ?? { allowed: true };
  if (!admission.allowed) {
    const outcome = notAsked(provider, 'suspended', admission.reason, {
      code: 'PROVIDER_SUSPENDED',
      retry_after_ms: Math.max(0, Math.round(admission.retryAfterMs)),
    });
    const answer = { provider, items: [], outcome };
    dependencies.onOutcome?.(answer);
    return answer;
  }
  const timeoutMs = Math.min(provider.config.timeoutMs, options.timeoutMs ?? Number.POSITIVE_INFINITY);
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new ProviderTimeout(timeoutMs)), timeoutMs);
  const abortFromCaller = (): void => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', abortFromCaller, { once: true });
  if (options.signal?.aborted) abortFromCaller();

  // The race guarantees the deadline even if an adapter ignores its signal (a CPU-bound parse, a stuck queue).
  const aborted = new Promise<never>((_, reject) => {
    const rejectWithReason = (): void => reject(controller.signal.reason);
    if (controller.signal.aborted) rejectWithReason();
    else controller.signal.addEventListener('abort', rejectWithReason, { once: true });
  });
  aborted.catch(() => undefined);
  try {
    const deadline = started + timeoutMs;
    const takeSlot = dependencies.rateLimit && ((signal: AbortSignal) => dependencies.rateLimit!(provider, deadline, signal));
    // The first request's slot is taken before the concurrency limit: a request that may not go never holds a place there.
    if (takeSlot) await Promise.race([takeSlot(controller.signal), aborted]);
    const work = dependencies.limiterFor(provider)(() => {
      // Queued behind the concurrency limit past the deadline: do not start at all.
      if (controller.signal.aborted) throw controller.signal.reason;
      const sender = dependencies.transportFor(provider);
      const transport = withOneRetry(takeSlot ? slotPerFollowUp(sender, takeSlot) : sender, deadline);
      return options.task ? options.task(provider, transport, controller.signal) : provider.search(query, transport, controller.signal);
    });
    work.catch(() => undefined);
    const items = applyPostFilters(await Promise.race([work, aborted]), query.filters, provider.settings.filters ?? []);
    const answer = { provider, items, outcome: okOutcome(provider, items.length, started) };
    dependencies.onOutcome?.(answer);
    return answer;
  } catch (error) {
    const outcome = failureOutcome(provider, error, started, controller.signal, dependencies.secrets());
    const answer = { provider, items: [], outcome };
    dependencies.onOutcome?.(answer);
    return answer;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', abortFromCaller);
    if (!controller.signal.aborted) controller.abort();
  }
}

/**
 * Why a provider is off, or undefined when it is on. Weight 0 means off rather than "ranked last": its
 * results would still fill a list that has room, so the only way to keep them out is not to ask.
 */
export function turnedOff(provider: Provider): string | undefined {
  if (provider.config.weight !== 0) return undefined;
  return `turned off: ${variablePrefixes(provider.settings)[0]}_WEIGHT=0`;
}

/** The first request uses the slot askProvider took; each later one (a follow-up, a retry) takes its own. */
function slotPerFollowUp(transport: UpstreamTransport, takeSlot: (signal: AbortSignal) => Promise<void>): UpstreamTransport {
  let firstSlotUnused = true;
  return {
    async send(request, signal) {
      if (!firstSlotUnused) await takeSlot(signal);
      firstSlotUnused = false;
      return transport.send(request, signal);
    },
  };
}

/** The outcome of a provider that was not asked at all (not configured, skipped, suspended). */
export function notAsked(
  provider: Provider,
  status: 'not_configured' | 'skipped' | 'suspended',
  message: string,
  extra: Partial<ProviderOutcome> = {},
): ProviderOutcome {
  return { provider: provider.name, status, count: 0, latency_ms: 0, message, ...extra };
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}

function okOutcome(provider: Provider, count: number, started: number): ProviderOutcome {
  return { provider: provider.name, status: 'ok', count, latency_ms: elapsed(started) };
}

function failureOutcome(
  provider: Provider,
  error: unknown,
  started: number,
  signal: AbortSignal,
  secrets: string[],
): ProviderOutcome {
  const base = { provider: provider.name, count: 0, latency_ms: elapsed(started) };
  const reason: unknown = signal.aborted ? signal.reason : undefined;
  if (reason instanceof ProviderTimeout || error instanceof ProviderTimeout) {
    const timeoutMs = (reason instanceof ProviderTimeout ? reason : (error as ProviderTimeout)).timeoutMs;
    return { ...base, status: 'timeout', code: 'PROVIDER_TIMEOUT', message: `no answer within ${timeoutMs} ms` };
  }
  if (error instanceof OutboundRateLimited) {
    return { ...base, status: 'rate_limited', code: error.code, message: error.message, retry_after_ms: error.retryAfterMs };
  }
  if (error instanceof FedsearchError) {
    const outcome: ProviderOutcome = {
      ...base,
      status: 'error',
      code: error.code,
      message: redactSecrets(error.message, secrets),
    };
    if (error.retryAfterMs !== undefined) outcome.retry_after_ms = error.retryAfterMs;
    return outcome;
  }
  if (signal.aborted) {
    return { ...base, status: 'error', code: 'REQUEST_CANCELLED', message: 'cancelled: the client went away' };
  }
  // An adapter bug (a TypeError on an unexpected shape) is this provider's error, never the process's crash.
  return { ...base, status: 'error', code: 'PROVIDER_PARSE', message: 'the response could not be read' };
}
