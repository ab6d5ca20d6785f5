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
  private listeners: Array<() => void> = [];

  /** Like AbortController.abort(): once only, listeners called in the order they were added, each once. */
  abort(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        // As an EventTarget does: a throwing listener is reported, and the others still hear of the abort.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  /** As on an AbortSignal: a listener added after the abort is never called, and one added twice is called once. */
  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted && !this.listeners.includes(listener)) this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const index = this.listeners.indexOf(listener);
    if (index !== -1) this.listeners.splice(index, 1);
  }
}
