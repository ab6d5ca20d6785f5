import { FedsearchError } from '../domain/errors.js';
import type { ProviderOutcome } from '../domain/outcome.js';
import type { Provider } from '../providers/provider.js';
import { variablePrefixes } from '../providers/provider-config.js';
import { OutboundRateLimited } from '../rate-limit/outbound-limiter.js';
import { redactAndCut, redactSecrets } from './redact.js';

/**
 * The most of an error an upstream wrote in a body it sent as a success (PROVIDER_UPSTREAM: Tavily's `detail`, a
 * MediaWiki `error`) that an outcome repeats: the upstream's text, not ours, cut as an error status's is.
 */
const MAX_UPSTREAM_MESSAGE_CHARS = 200;

/** The abort reason of a provider's own deadline, told apart from the caller going away. */
export class ProviderTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
  }
}

/**
 * The abort reason of the calls still running when the service shuts down, shortly before SHUTDOWN_GRACE_MS ends
 * (SearchService.cutCallsShort): reported as a `timeout`, as a deadline passing is, so that a search in flight
 * answers with what its providers gave so far instead of being left with no answer when the grace is over.
 */
export class ServiceStopping extends Error {
  constructor() {
    super('no answer before the service shut down');
  }
}

/**
 * The abort reason of what provider calls leave running once they are over (CallDeadline.finish), made once. A call
 * still running then was cut short by the search it was for failing (gather.ts: hearing an answer threw, a fault of
 * the service's own): it was reported as REQUEST_CANCELLED, "the client went away", when no client had. Also the
 * reason a shared search is aborted with when its last caller left because hearing an answer threw (single-flight.ts).
 */
export const CALLS_FINISHED = new DOMException('the provider call is over', 'AbortError');

/**
 * A request not sent because the provider's breaker opened after its call was admitted (it waited here for a
 * rate-limit slot or a concurrency place, or it was a later page): the outcome is `suspended`, as if not asked.
 */
export class ProviderSuspended extends FedsearchError {
  constructor(reason: string, retryAfterMs: number) {
    super('PROVIDER_SUSPENDED', reason, { retryAfterMs });
  }
}

/**
 * Why a provider is off, or undefined when it is on. Weight 0 means off rather than "ranked last": its
 * results would still fill a list that has room, so the only way to keep them out is not to ask.
 */
export function turnedOff(provider: Provider): string | undefined {
  if (provider.config.weight !== 0) return undefined;
  // A file instance's weight is its entry's key; the built-in instance's variable is not read for it.
  if (provider.config.fromFile) return `turned off: weight of ${provider.name} in PROVIDERS_FILE is 0`;
  return `turned off: ${variablePrefixes(provider.settings)[0]}_WEIGHT=0`;
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

export function okOutcome(provider: Provider, count: number, started: number): ProviderOutcome {
  return { provider: provider.name, status: 'ok', count, latency_ms: elapsed(started) };
}

/**
 * The timeout of a call that had read `count` results when its deadline passed, on its way to more (a later
 * page, a deeper round): they are kept, and counted. The status stays `timeout`: the upstream did not give in
 * time what was asked, and the answer is partial (cached as such, paged as one whose provider has more).
 */
export function cutShortOutcome(timeout: ProviderOutcome, count: number, timeoutMs: number): ProviderOutcome {
  const results = count === 1 ? '1 result' : `${count} results`;
  return { ...timeout, count, message: `no answer to a later request within ${timeoutMs} ms; kept the ${results} read before it` };
}

/** What a failed call was: a timeout, our own rate limit, a typed upstream error, a cancellation or an adapter bug. */
export function failureOutcome(provider: Provider, error: unknown, started: number, signal: AbortSignal, secrets: string[]): ProviderOutcome {
  const base = { provider: provider.name, count: 0, latency_ms: elapsed(started) };
  const reason: unknown = signal.aborted ? signal.reason : undefined;
  if (reason instanceof ProviderTimeout || error instanceof ProviderTimeout) {
    const timeoutMs = (reason instanceof ProviderTimeout ? reason : (error as ProviderTimeout)).timeoutMs;
    return { ...base, status: 'timeout', code: 'PROVIDER_TIMEOUT', message: `no answer within ${timeoutMs} ms` };
  }
  if (reason instanceof ServiceStopping) return { ...base, status: 'timeout', code: 'PROVIDER_TIMEOUT', message: reason.message };
  if (reason === CALLS_FINISHED) return { ...base, status: 'error', code: 'INTERNAL', message: 'cut short: the search failed on an internal error before this provider answered' };
  if (error instanceof OutboundRateLimited) {
    return { ...base, status: 'rate_limited', code: error.code, message: error.message, retry_after_ms: error.retryAfterMs };
  }
  if (error instanceof ProviderSuspended) {
    return { ...base, status: 'suspended', code: error.code, message: error.message, retry_after_ms: Math.max(0, Math.round(error.retryAfterMs ?? 0)) };
  }
  if (error instanceof FedsearchError) {
    const outcome: ProviderOutcome = {
      ...base,
      status: 'error',
      code: error.code,
      message: error.code === 'PROVIDER_UPSTREAM' ? redactAndCut(error.message, MAX_UPSTREAM_MESSAGE_CHARS, secrets) : redactSecrets(error.message, secrets),
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
