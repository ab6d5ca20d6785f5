import type { CallerSignal } from './cancellation.js';
import { ProviderTimeout } from './provider-outcome.js';

/** The abort reason of calls that are over (answered or failed): nothing reads it, it only stops leftover work. */
const CALLS_FINISHED = new DOMException('the provider call is over', 'AbortError');

function abortLeftovers(controller: AbortController): void {
  if (!controller.signal.aborted) controller.abort(CALLS_FINISHED);
}

/**
 * The deadline and abort signal of provider calls that start together with the same timeout: one timer, one
 * AbortController and one listener on the caller's signal, however many calls share it (a fan-out's providers).
 * `aborted` rejects with the signal's reason the moment the deadline passes or the caller goes away; it is
 * rejected directly, not through a listener on the signal.
 */
export class CallDeadline {
  readonly signal: AbortSignal;
  /** performance.now() time by which the calls must be done. */
  readonly at: number;
  readonly aborted: Promise<never>;
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;
  private rejectAborted!: (reason: unknown) => void;

  constructor(
    readonly timeoutMs: number,
    private readonly callerSignal?: CallerSignal,
  ) {
    this.signal = this.controller.signal;
    this.at = performance.now() + timeoutMs;
    this.aborted = new Promise<never>((_, reject) => {
      this.rejectAborted = reject;
    });
    this.aborted.catch(() => undefined);
    this.timer = setTimeout(() => this.abort(new ProviderTimeout(timeoutMs)), timeoutMs);
    if (callerSignal?.aborted) this.abortFromCaller();
    else callerSignal?.addEventListener('abort', this.abortFromCaller, { once: true });
  }

  /**
   * Stops whatever the calls left running. The reason is made once: abort() without one builds a DOMException,
   * stack and all. The abort itself waits for the check phase: it costs more than anything else the end of a
   * fan-out does (an Event, dispatched through EventTarget), and the answer the calls were for need not wait
   * for it. Nothing is lost: whatever was left running is stopped as soon as the answer is on its way.
   */
  finish(): void {
    clearTimeout(this.timer);
    this.callerSignal?.removeEventListener('abort', this.abortFromCaller);
    if (!this.signal.aborted) setImmediate(abortLeftovers, this.controller);
  }

  private readonly abortFromCaller = (): void => this.abort(this.callerSignal?.reason);

  private abort(reason: unknown): void {
    if (this.signal.aborted) return;
    this.controller.abort(reason);
    this.rejectAborted(this.signal.reason);
  }
}

/** One CallDeadline per timeout for calls started together: providers with the same timeout share one timer. */
export class CallDeadlines {
  private readonly byTimeout = new Map<number, CallDeadline>();

  constructor(private readonly callerSignal?: CallerSignal) {}

  for(timeoutMs: number): CallDeadline {
    let deadline = this.byTimeout.get(timeoutMs);
    if (!deadline) {
      deadline = new CallDeadline(timeoutMs, this.callerSignal);
      this.byTimeout.set(timeoutMs, deadline);
    }
    return deadline;
  }

  finish(): void {
    for (const deadline of this.byTimeout.values()) deadline.finish();
  }
}
