import { AbortListeners } from '../transport/abort-watch.js';

/**
 * What the engine needs of a caller's abort signal: whether and why it was aborted, and to hear when it is.
 * An AbortSignal has all of it, so any caller may pass one.
 */
export interface CallerSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * A CallerSignal with its own abort(), for the engine's links between a caller and the provider calls: the
 * client going away, a shared fan-out whose callers all left. Node's AbortSignal is an EventTarget: making one
 * and adding its first listener cost microseconds each, and every search made two of them on its way to the
 * first upstream request only to pass an abort along. This is a plain object and an array. Provider calls
 * still get a real AbortSignal (CallDeadline), as adapters and undici expect.
 */
export class Cancellation implements CallerSignal {
  aborted = false;
  reason: unknown = undefined;
  private readonly listeners = new AbortListeners();

  /** Like AbortController.abort(): once only, listeners called in the order they were added, each once. */
  abort(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.listeners.fire();
  }

  /** As on an AbortSignal: a listener added after the abort is never called, and one added twice is called once. */
  addEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.add(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.remove(listener);
  }
}

/**
 * A Cancellation shared by every call of the process (the service shutting down): each fan-out adds a listener
 * and takes it away when done, thousands at once on a busy replica, so they are kept in a Set, where adding and
 * removing one does not search the others (Cancellation's array does: it holds the few of one request).
 */
export class SharedCancellation implements CallerSignal {
  aborted = false;
  reason: unknown = undefined;
  private readonly listeners = new Set<() => void>();

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = [...this.listeners];
    this.listeners.clear();
    for (const listener of listeners) listener();
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted) this.listeners.add(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.delete(listener);
  }
}
