import { AbortListeners, offerAbortWatch } from '../transport/abort-watch.js';
import type { CallerSignal } from './cancellation.js';
import { CALLS_FINISHED, ProviderTimeout } from './provider-outcome.js';

/**
 * The deadline and abort signal of provider calls that start together with the same timeout: one timer, one
 * AbortController and one listener on the caller's signal, however many calls share it (a fan-out's providers).
 * `aborted` rejects with the signal's reason the moment the deadline passes or the caller goes away; it is
 * rejected directly, not through a listener on the signal. The calls' upstream requests hear of the abort
 * through the signal's watch (transport/abort-watch.ts), not through listeners on the signal.
 */
export class CallDeadline {
  readonly signal: AbortSignal;
  /** performance.now() time by which the calls must be done. */
  readonly at: number;
  readonly aborted: Promise<never>;
  private readonly controller = new AbortController();
  private readonly watchers = new AbortListeners();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private finished = false;
  private readonly stopping: CallerSignal | undefined;
  private rejectAborted!: (reason: unknown) => void;

  /**
   * `armed: false` leaves the timer to arm(), for calls that send their requests first (CallDeadlines). `stopping`
   * aborts the calls as the deadline would (the service shutting down: SearchService.cutCallsShort); its reason
   * is the calls' abort reason. `startedAt` (performance.now() time) is when the caller's request arrived, when
   * that was earlier: the timeout counts from then, so time spent before the calls (a slow Redis) is part of it.
   */
  constructor(
    readonly timeoutMs: number,
    private readonly callerSignal?: CallerSignal,
    { armed = true, stopping, startedAt }: { armed?: boolean; stopping?: CallerSignal | undefined; startedAt?: number | undefined } = {},
  ) {
    this.signal = this.controller.signal;
    offerAbortWatch(this.signal, this.watchers);
    this.at = (startedAt ?? performance.now()) + timeoutMs;
    this.aborted = new Promise<never>((_, reject) => {
      this.rejectAborted = reject;
    });
    this.aborted.catch(() => undefined);
    if (armed) this.arm();
    if (callerSignal?.aborted) this.abortFromCaller();
    else callerSignal?.addEventListener('abort', this.abortFromCaller, { once: true });
    this.stopping = stopping;
    if (stopping?.aborted) this.abortFromStopping();
    else stopping?.addEventListener('abort', this.abortFromStopping, { once: true });
  }

  /** Starts the timer, once, for what is left of the time: the deadline stays `at`, however late it is armed. */
  arm(): void {
    if (this.timer !== undefined || this.finished) return;
    this.timer = setTimeout(() => this.abort(new ProviderTimeout(this.timeoutMs)), Math.max(0, this.at - performance.now()));
  }

  /**
   * Stops whatever the calls left running, with a reason made once (abort() without one builds a DOMException,
   * stack and all). The timer and the abort wait for the check phase: the abort costs more than anything else
   * the end of a fan-out does (an Event, dispatched through EventTarget), and the answer the calls were for
   * need not wait for either. Nothing is lost: what was left running is stopped as soon as the answer is on
   * its way, and a deadline passing in between no longer counts.
   */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.callerSignal?.removeEventListener('abort', this.abortFromCaller);
    this.stopping?.removeEventListener('abort', this.abortFromStopping);
    setImmediate(endCalls, this);
  }

  /** finish()'s deferred half. */
  end(): void {
    clearTimeout(this.timer);
    if (this.signal.aborted) return;
    this.controller.abort(CALLS_FINISHED);
    this.watchers.fire();
  }

  private readonly abortFromCaller = (): void => this.abort(this.callerSignal?.reason);

  private readonly abortFromStopping = (): void => this.abort(this.stopping?.reason);

  private abort(reason: unknown): void {
    if (this.signal.aborted || this.finished) return;
    this.controller.abort(reason);
    this.watchers.fire();
    this.rejectAborted(this.signal.reason);
  }
}

function endCalls(deadline: CallDeadline): void {
  deadline.end();
}

/**
 * One CallDeadline per timeout for calls started together: providers with the same timeout share one timer.
 * The timers start when arm() is called, once every call has sent its first request: setting a timer is
 * bookkeeping the requests need not wait for, and the deadlines themselves count from when they were made.
 */
export class CallDeadlines {
  private readonly byTimeout = new Map<number, CallDeadline>();
  private armed = false;

  /** `startedAt`: when the caller's request arrived, if earlier than now (CallDeadline). */
  constructor(
    private readonly callerSignal?: CallerSignal,
    private readonly stopping?: CallerSignal,
    private readonly startedAt?: number,
  ) {}

  for(timeoutMs: number): CallDeadline {
    let deadline = this.byTimeout.get(timeoutMs);
    if (!deadline) {
      deadline = new CallDeadline(timeoutMs, this.callerSignal, { armed: this.armed, stopping: this.stopping, startedAt: this.startedAt });
      this.byTimeout.set(timeoutMs, deadline);
    }
    return deadline;
  }

  /** Starts every deadline's timer, and those of deadlines made later at once. */
  arm(): void {
    this.armed = true;
    for (const deadline of this.byTimeout.values()) deadline.arm();
  }

  finish(): void {
    for (const deadline of this.byTimeout.values()) deadline.finish();
  }
}
