/**
 * Hearing of an AbortSignal's abort without adding a listener to it. Node's AbortSignal is an EventTarget:
 * adding a listener and removing it again cost about a microsecond each, and every upstream request did both
 * (about 1 % of a busy replica's CPU; docs/benchmarks.md, ninth round). The owner of a signal that can tell
 * listeners itself (the provider calls' deadline, engine/call-deadline.ts) offers a watch for it; a request
 * on any other signal listens to the signal as before.
 */

/** What hears an abort: a function or an object with handleEvent, as for an EventTarget. */
export type AbortListener = (() => void) | { handleEvent(): void };

/**
 * The owner's side. Its promise, as for a listener added to the signal with `once`: a listener added before
 * the abort is called once, when the signal aborts (after the signal's own listeners); one removed before
 * is never called; one added after the abort is never called.
 */
export interface AbortWatch {
  add(listener: AbortListener): void;
  remove(listener: AbortListener): void;
}

const watches = new WeakMap<AbortSignal, AbortWatch>();

/** Offers a watch for a signal its caller owns; the watch lives as long as the signal. */
export function offerAbortWatch(signal: AbortSignal, watch: AbortWatch): void {
  watches.set(signal, watch);
}

/** Calls `listener` once when `signal` aborts, through the signal's watch if it has one. */
export function listenForAbort(signal: AbortSignal, listener: AbortListener): void {
  const watch = watches.get(signal);
  if (watch) watch.add(listener);
  else signal.addEventListener('abort', listener, { once: true });
}

/** Undoes listenForAbort; harmless when the listener was already called or never added. */
export function stopListeningForAbort(signal: AbortSignal, listener: AbortListener): void {
  const watch = watches.get(signal);
  if (watch) watch.remove(listener);
  else signal.removeEventListener('abort', listener);
}

/**
 * The listeners of one watch, for an owner to keep: added and removed in a plain array (a fan-out has a few
 * requests in flight at a time), all called once and dropped when the owner fires them. Also what the engine's
 * own cancellations keep (engine/cancellation.ts).
 */
export class AbortListeners implements AbortWatch {
  private listeners: AbortListener[] = [];
  private fired = false;

  add(listener: AbortListener): void {
    if (!this.fired && !this.listeners.includes(listener)) this.listeners.push(listener);
  }

  remove(listener: AbortListener): void {
    const index = this.listeners.indexOf(listener);
    if (index !== -1) this.listeners.splice(index, 1);
  }

  /** Calls every listener once, in the order they were added; later ones are never called. */
  fire(): void {
    if (this.fired) return;
    this.fired = true;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) {
      try {
        if (typeof listener === 'function') listener();
        else listener.handleEvent();
      } catch (error) {
        // As an EventTarget does: a throwing listener is reported, and the others still hear of the abort.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}
