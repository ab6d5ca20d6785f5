import { FedsearchError, type ErrorCode } from '../domain/errors.js';
import { noWordProblem } from '../domain/closed-query.js';
import type { ProviderOutcome } from '../domain/outcome.js';
import type { SearchFilters } from '../domain/query.js';
import type { ProviderItem } from '../domain/result.js';
import type { Provider, ProviderSettings, UpstreamTransport } from '../providers/provider.js';
import { CallDeadline, type CallDeadlines } from './call-deadline.js';
import type { CallerSignal } from './cancellation.js';
import { concurrencyLimit, type ConcurrencyLimit } from './concurrency-limit.js';
import { unsupportedFilters } from './filters.js';
import { CALLS_FINISHED, cutShortOutcome, failureOutcome, notAsked, okOutcome, ServiceStopping, turnedOff } from './provider-outcome.js';
import type { Admission } from './provider-health.js';
import { CallTransport, type RequestBreaker } from './upstream-transport.js';
import { redactSecrets } from './redact.js';

/** What one provider did for one task, as health, metrics and the log line hear of it. */
export interface ProviderReport {
  provider: Provider;
  outcome: ProviderOutcome;
  /** What was asked: `search`, `lookup`, or a capability (`videoDetails`, `captions`, `scrape`, `readDocument`). */
  task: string;
  /**
   * The call failed for a reason that says nothing of the upstream's health, so the circuit breaker, which every
   * caller shares, does not count it: a deadline the caller made shorter than the provider's own timeout, a
   * request the upstream refused for what it asked (a malformed identifier), or a timeout that came while the
   * call waited here, for an outbound rate-limit slot or a concurrency place, so that the upstream had less than
   * its timeout. Otherwise one caller, or a burst of ordinary load, could suspend a healthy provider for everyone.
   */
  saysNothingOfUpstream?: boolean;
  /** The call was the breaker's half-open probe (Admission.probe): its outcome, and only its, ends the probe. */
  probe?: true;
  /** The host the call asked, when it has a breaker of its own (Provider.upstreamHost): its breaker hears the outcome. */
  host?: string;
  /**
   * A failure as every caller may read it (provider health's last_error): the outcome's message without the
   * upstream's own words (FedsearchError.sharedMessage), redacted. Unset: the outcome's message is all ours.
   */
  sharedMessage?: string;
}

/** One piece of work for one provider: a search, a lookup by id, or a capability such as captions. */
export interface ProviderTask<T> {
  name: string;
  /** Filters the work needs the provider to apply; a provider that cannot apply one of them is skipped. */
  filters?: SearchFilters;
  /** The words a search sends; a provider whose API would refuse them is skipped (maxQueryLength, Provider.queryProblem). */
  queryText?: string | undefined;
  /**
   * The words this provider is sent, where providers are sent different ones (a web search's site: terms go only to
   * those that read them: site-terms.ts); without it, every provider is sent queryText. Its API judges those words.
   */
  queryTextFor?(provider: Provider): string;
  /** `deadline` is the performance.now() time by which the call must be done, for work that judges whether another request fits. */
  run(provider: Provider, transport: UpstreamTransport, signal: AbortSignal, deadline: number): Promise<T>;
  /** How many results the answer holds, for the outcome's count. */
  count(value: T): number;
  /**
   * The answer of a call whose deadline passed after its search had read these items, on its way to more (a later
   * page, a deeper round: UpstreamTransport.readSoFar). Without it, such a call answers nothing.
   */
  answerFromItemsRead?(provider: Provider, items: ProviderItem[]): T;
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
  /**
   * Who asked (domain/client-key.ts): under an outbound rate limit each caller may hold only a share of the calls
   * waiting for the provider's slots. Unset: the call is not counted per caller.
   */
  caller?: string | undefined;
}

/**
 * Waits for one outbound request slot before `deadline` (performance.now() time), or throws OutboundRateLimited,
 * also when `caller` already has its share of the calls waiting for the provider's slots (rate-limit/caller-shares.ts).
 */
export type TakeSlot = (deadline: number, signal: AbortSignal, caller?: string) => Promise<void>;

export interface PipelineDependencies {
  transportFor(provider: Provider): UpstreamTransport;
  limiterFor(provider: Provider): ConcurrencyLimit;
  secrets(): string[];
  /** The circuit breaker's word on whether this provider may be called now (`host`: Provider.upstreamHost's breaker). */
  admit?(provider: Provider, host: string | undefined): Admission;
  /** The same breaker as each request of an admitted call meets it: asked again before it leaves, told of Retry-After. */
  breakerFor?(provider: Provider, host: string | undefined): RequestBreaker;
  /**
   * How this provider takes an outbound request slot, or undefined when it has no limit. The slot taker waits
   * for the next slot of the provider's bucket while `deadline` (performance.now() time) allows, and throws
   * OutboundRateLimited when the slot lies past it. Every request takes one: follow-ups and retries too.
   */
  rateLimitFor?(provider: Provider): TakeSlot | undefined;
  onOutcome?(report: ProviderReport): void;
  /** Aborts every call still running, as its deadline would: the service is shutting down (SearchService.cutCallsShort). */
  stopping?: CallerSignal;
}

/** A task's answer: its value when the provider answered, else only what happened (and the error, if one was thrown). */
export type PipelineResult<T> =
  | { ok: true; provider: Provider; outcome: ProviderOutcome; value: T }
  | {
      ok: false;
      provider: Provider;
      outcome: ProviderOutcome;
      error?: unknown;
      /** What the provider had given when its deadline passed (ProviderTask.answerFromItemsRead); the outcome counts it. */
      readBeforeDeadline?: T;
    };

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
  if (refusal) {
    // Counted like any outcome (a provider missing its key shows as not_configured on /metrics); health ignores it.
    dependencies.onOutcome?.({ provider, outcome: refusal, task: task.name });
    return Promise.resolve({ ok: false, provider, outcome: refusal });
  }
  // A host with a breaker of its own: one Wikipedia edition failing suspends it alone, not every language's searches.
  const host = task.filters === undefined ? undefined : provider.upstreamHost?.(task.filters);
  const admission = dependencies.admit?.(provider, host) ?? { allowed: true };
  if (!admission.allowed) {
    const outcome = notAsked(provider, 'suspended', admission.reason, {
      code: 'PROVIDER_SUSPENDED',
      retry_after_ms: Math.max(0, Math.round(admission.retryAfterMs)),
    });
    const report: ProviderReport = { provider, outcome, task: task.name };
    if (host !== undefined) report.host = host;
    dependencies.onOutcome?.(report);
    return Promise.resolve({ ok: false, provider, outcome });
  }
  return new AdmittedCall(provider, task, limits, dependencies, admission.probe === true, host).run();
}

/**
 * The outcome of a provider that must not be asked for this task (off, not configured, a filter it lacks, a setting
 * this search needs, a query its API would refuse).
 */
function refuse(provider: Provider, task: ProviderTask<unknown>): ProviderOutcome | undefined {
  const off = turnedOff(provider);
  if (off) return notAsked(provider, 'skipped', off);
  const missing = provider.missingSettings();
  if (missing.length > 0) return notAsked(provider, 'not_configured', `set ${missing.join(', ')} to enable`, { missing: [...missing] });
  const filters = task.filters ?? {};
  const unsupported = unsupportedFilters(filters, provider.settings.filters ?? [], provider.settings.undated);
  if (unsupported.length > 0) return notAsked(provider, 'skipped', `cannot filter by ${unsupported.join(', ')}`);
  const filterProblem = provider.filterProblem?.(filters);
  if (filterProblem !== undefined) return notAsked(provider, 'skipped', filterProblem);
  if (task.queryText === undefined) return undefined;
  const missingHere = provider.missingSettingsFor?.(filters);
  if (missingHere !== undefined && missingHere.length > 0) {
    return notAsked(provider, 'not_configured', `set ${missingHere.join(', ')} for this search`, { missing: [...missingHere] });
  }
  const sent = task.queryTextFor ? task.queryTextFor(provider) : task.queryText;
  // A text with no word at all (`(`, `AND "`, `-`) is no search for any provider: each would be asked for punctuation,
  // answer with anything, or refuse it (GitHub, 422).
  const refused = queryTooLong(sent, provider.settings) ?? noWordProblem(sent) ?? provider.queryProblem?.(sent, filters);
  if (refused) return notAsked(provider, 'skipped', refused);
  return undefined;
}

/** Why a query is longer than a provider's API accepts, in characters as the API counts them (code points) or in words. */
function queryTooLong(text: string, { maxQueryLength, maxQueryWords }: ProviderSettings): string | undefined {
  // A string's length counts UTF-16 units, never fewer than its characters: most queries are decided by it alone.
  if (maxQueryLength !== undefined && text.length > maxQueryLength) {
    const characters = [...text].length;
    if (characters > maxQueryLength) return `accepts queries of at most ${maxQueryLength} characters; this one has ${characters}`;
  }
  // Each word past the first takes a space before it: a text this short cannot hold more words than allowed.
  if (maxQueryWords === undefined || text.length < 2 * maxQueryWords + 1) return undefined;
  const words = text.match(/\S+/g)?.length ?? 0;
  return words > maxQueryWords ? `accepts queries of at most ${maxQueryWords} words; this one has ${words}` : undefined;
}

/** A timeout counts against an upstream that had at least this share of its timeout. */
const UPSTREAM_SHARE_COUNTED = 0.9;

/**
 * An admitted call, from its deadline to its reported outcome: one object and one pair of continuations
 * rather than an async function, whose frame would be held for the whole wait (a search has one of these
 * per provider, and a busy replica thousands of searches waiting at once).
 */
class AdmittedCall<T> {
  private readonly started = performance.now();
  /** A deadline shared with the other calls of the fan-out; whoever made it finishes it. */
  private readonly shared: CallDeadline | undefined;
  private readonly call: CallDeadline;
  /** The caller's deadline is shorter than the provider's own timeout: a timeout is then the caller's doing. */
  private readonly callerShortened: boolean;
  /** When the work began, its first slot and concurrency place in hand; undefined while it waits for them. */
  private ranAt: number | undefined;
  /** The work's transport, which knows how long its later requests waited here for their slots. */
  private transport: CallTransport | undefined;
  /** Who asked, for the outbound limit's share per caller (PipelineLimits.caller). */
  private readonly caller: string | undefined;

  constructor(
    private readonly provider: Provider,
    private readonly task: ProviderTask<T>,
    limits: PipelineLimits,
    private readonly dependencies: PipelineDependencies,
    private readonly probe: boolean,
    private readonly host: string | undefined,
  ) {
    const timeoutMs = Math.min(provider.config.timeoutMs, limits.timeoutMs ?? Number.POSITIVE_INFINITY);
    this.callerShortened = timeoutMs < provider.config.timeoutMs;
    this.caller = limits.caller;
    this.shared = limits.deadlines?.for(timeoutMs);
    this.call = this.shared ?? new CallDeadline(timeoutMs, limits.signal, { stopping: dependencies.stopping });
  }

  run(): Promise<PipelineResult<T>> {
    const { provider, dependencies, call, caller } = this;
    // A provider with no outbound limit has no slot to wait for: no limiter call and no race on its way out.
    const slot = dependencies.rateLimitFor?.(provider);
    const takeSlot = slot ? (slotSignal: AbortSignal) => slot(call.at, slotSignal, caller) : undefined;
    let work: Promise<T>;
    try {
      work = this.start(takeSlot);
    } catch (error) {
      return Promise.resolve(this.failed(error));
    }
    return work.then(
      (value) => this.answered(value),
      (error: unknown) => this.failed(error),
    );
  }

  private start(takeSlot: ((signal: AbortSignal) => Promise<void>) | undefined): Promise<T> {
    const { provider, dependencies } = this;
    const { signal, aborted } = this.call;
    const work = dependencies.limiterFor(provider)(() => {
      // Queued behind the concurrency limit past the deadline: do not start at all.
      if (signal.aborted) throw signal.reason;
      if (!takeSlot) return this.begin(undefined);
      // The first request's slot is taken with a concurrency place in hand, so that the request leaves at its
      // slot's time: slots taken before the queue passed while their calls waited there, and the requests then
      // left back to back, past the rate. A slot that cannot come before the deadline is refused at once, so the
      // place is held no longer than a wait the call would make anyway. The race keeps the deadline however the
      // wait goes.
      return Promise.race([takeSlot(signal), aborted]).then(() => this.begin(takeSlot));
    });
    // The race observes both promises at once: neither is left to reject unhandled, whichever loses.
    return Promise.race([work, aborted]);
  }

  /** The work itself, its first slot and concurrency place in hand. */
  private begin(takeSlot: ((signal: AbortSignal) => Promise<void>) | undefined): Promise<T> {
    const { provider, task, dependencies } = this;
    const { signal, at: deadline } = this.call;
    this.ranAt = performance.now();
    this.transport = new CallTransport(dependencies.transportFor(provider), deadline, takeSlot, dependencies.breakerFor?.(provider, this.host));
    return task.run(provider, this.transport, signal, deadline);
  }

  private answered(value: T): PipelineResult<T> {
    let outcome: ProviderOutcome;
    try {
      outcome = okOutcome(this.provider, this.task.count(value), this.started);
    } catch (error) {
      return this.failed(error);
    }
    return this.reported({ ok: true, provider: this.provider, value, outcome });
  }

  private failed(error: unknown): PipelineResult<T> {
    const outcome = failureOutcome(this.provider, error, this.started, this.call.signal, this.dependencies.secrets());
    // A call cut short by its search's own failure (CALLS_FINISHED) says nothing of the upstream either.
    const saysNothingOfUpstream =
      (outcome.status === 'timeout' && (this.callerShortened || this.waitedHere() || this.call.signal.reason instanceof ServiceStopping)) ||
      this.call.signal.reason === CALLS_FINISHED ||
      refusedForWhatWasAsked(error);
    const read = outcome.status === 'timeout' ? this.readBeforeDeadline() : undefined;
    if (read) {
      // Still a timeout (the upstream did not give what was asked in time, and the answer is partial), but one that
      // counts what it did give.
      const cutShort = cutShortOutcome(outcome, read.count, this.call.timeoutMs);
      return this.reported({ ok: false, provider: this.provider, error, outcome: cutShort, readBeforeDeadline: read.value }, saysNothingOfUpstream);
    }
    return this.reported({ ok: false, provider: this.provider, error, outcome }, saysNothingOfUpstream, this.sharedMessageOf(error, outcome));
  }

  /** The failure's message for every caller, when part of the outcome's is the upstream's (ProviderReport.sharedMessage). */
  private sharedMessageOf(error: unknown, outcome: ProviderOutcome): string | undefined {
    if (outcome.status !== 'error' || !(error instanceof FedsearchError) || error.sharedMessage === error.message) return undefined;
    return redactSecrets(error.sharedMessage, this.dependencies.secrets());
  }

  /**
   * What the search had read when its deadline passed during a later page or a deeper round, when that is some
   * results. Only a call that read more than one page has any (CallTransport.itemsReadSoFar).
   */
  private readBeforeDeadline(): { value: T; count: number } | undefined {
    const items = this.transport?.itemsReadSoFar();
    if (items === undefined || !this.task.answerFromItemsRead) return undefined;
    try {
      const value = this.task.answerFromItemsRead(this.provider, items);
      const count = this.task.count(value);
      return count > 0 ? { value, count } : undefined;
    } catch {
      // The timeout is the answer: a filter that throws on what was read is no reason to lose the outcome.
      return undefined;
    }
  }

  /**
   * Whether the upstream had less than its timeout (less a tenth, for the work's own start): the call spent the
   * rest waiting here for a rate-limit slot (its first request's, or a later page's) or a concurrency place, or
   * never left.
   */
  private waitedHere(): boolean {
    if (this.ranAt === undefined) return true;
    const upstreamMs = this.call.at - this.ranAt - (this.transport?.slotWaitMs() ?? 0);
    return upstreamMs < this.provider.config.timeoutMs * UPSTREAM_SHARE_COUNTED;
  }

  /** The call is over: its own deadline is finished, then health, metrics and the log hear of it. */
  private reported(result: PipelineResult<T>, saysNothingOfUpstream = false, sharedMessage?: string): PipelineResult<T> {
    if (!this.shared) this.call.finish();
    const report: ProviderReport = { provider: this.provider, outcome: result.outcome, task: this.task.name };
    if (saysNothingOfUpstream) report.saysNothingOfUpstream = true;
    if (this.probe) report.probe = true;
    if (this.host !== undefined) report.host = this.host;
    if (sharedMessage !== undefined) report.sharedMessage = sharedMessage;
    this.dependencies.onOutcome?.(report);
    return result;
  }
}

/** The codes an adapter throws while building a request, before any is sent (Provider.buildRequest). */
const REFUSED_BEFORE_SENDING: ReadonlySet<ErrorCode> = new Set(['QUERY_INVALID', 'PROVIDER_NOT_CONFIGURED']);

/**
 * An upstream's 4xx refusal of what it was asked (400, 404, 422, …): the request's content, which the caller
 * chose. A refused key and a used-up limit have codes of their own, whatever status the API sends them with
 * (engine/status-error.ts), and do count, as does 408, the upstream's own timeout. So is a call the adapter refused
 * before sending anything (arXiv given no word it can search for, GitHub's code search without GITHUB_TOKEN): no
 * upstream was asked, and one such call suspended the provider for every caller. So is such a refusal sent with
 * HTTP 200 in the body (upstreamRefusal: MediaWiki's regular expression it cannot parse): one caller's crafted
 * queries suspended Wikipedia for everyone.
 */
function refusedForWhatWasAsked(error: unknown): boolean {
  if (!(error instanceof FedsearchError)) return false;
  if (error.refusedRequest || REFUSED_BEFORE_SENDING.has(error.code)) return true;
  if (error.code !== 'PROVIDER_HTTP') return false;
  const status = error.upstreamStatus;
  return status !== undefined && status >= 400 && status < 500 && status !== 408;
}
