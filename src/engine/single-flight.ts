import { Cancellation, type CallerSignal } from './cancellation.js';
import { FlightEvents, type FlightListener } from './flight-events.js';

export type { FlightListener } from './flight-events.js';

/** A run's work: given the shared run's abort signal, and `tell` when its first caller listens (FlightEvents). */
export type FlightWork<T, E> = (signal: CallerSignal, tell: ((event: E) => void) | undefined) => Promise<T>;

interface Flight<T, E> {
  promise: Promise<T>;
  controller: Cancellation;
  waiters: number;
  startedAt: number;
  /** Only when the caller that started it listens: what the run has told so far, for callers that join it later. */
  events: FlightEvents<E> | undefined;
}

/**
 * Identical concurrent requests share one run. Each caller brings its own abort signal; the shared run is
 * aborted only when every caller waiting on it has gone away.
 *
 * A run may be bound to when its first caller arrived (`startedAt`): its deadline counts from then. A caller that
 * arrives more than `joinWithinMs` before or after it starts a run of its own instead (which then takes the key): it
 * joined, it would be answered by the first caller's deadline, not by its own (cut short by the time it came later,
 * its providers reported as timed out while it still had time), or wait past its own.
 *
 * A caller may listen to what the run tells as it goes (a streamed search hears each provider's answer). One that
 * joins is first told, at once, everything the run told before it came. A run started by a caller that does not listen
 * keeps nothing of what it tells (it tells nothing: no step per event, no log), so a caller that listens starts a run
 * of its own instead of joining it, and that run takes the key.
 */
export class SingleFlight<T, E = never> {
  private readonly inFlight = new Map<string, Flight<T, E>>();

  /**
   * `faultReason`: what a run is aborted with when its last caller leaves because its listener threw (a fault of the
   * caller's own code, not a client going away): the work may tell the two apart (a provider cut short by it is not
   * reported as cancelled by its client). The listener's error by default.
   */
  constructor(private readonly faultReason?: unknown) {}

  run(
    key: string,
    signal: CallerSignal | undefined,
    work: FlightWork<T, E>,
    startedAt = 0,
    joinWithinMs = Number.POSITIVE_INFINITY,
    listener?: FlightListener<E>,
  ): Promise<T> {
    let flight = this.inFlight.get(key);
    if (!flight || Math.abs(startedAt - flight.startedAt) > joinWithinMs || (listener !== undefined && flight.events === undefined)) {
      flight = this.start(key, work, startedAt, listener !== undefined);
    }
    const shared = flight;
    shared.waiters += 1;
    if (listener) return this.listenTo(key, shared, signal, listener);
    if (!signal) return shared.promise;
    return new Promise<T>((resolve, reject) => {
      const leave = (): void => {
        shared.waiters -= 1;
        if (shared.waiters === 0) this.abandon(key, shared, signal.reason);
        reject(signal.reason);
      };
      if (signal.aborted) return leave();
      signal.addEventListener('abort', leave, { once: true });
      shared.promise.then(
        (value) => {
          signal.removeEventListener('abort', leave);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', leave);
          reject(error);
        },
      );
    });
  }

  /**
   * A caller that listens: told what the run told before it came, then each event as it comes. Its leaving (its signal
   * aborted, or its listener threw) ends its own wait and hearing; a listener that throws fails its own caller, not
   * the run the others wait on.
   */
  private listenTo(key: string, shared: Flight<T, E>, signal: CallerSignal | undefined, listener: FlightListener<E>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let left = false;
      const hearing: FlightListener<E> = (event, moreAtOnce) => {
        if (left) return;
        try {
          listener(event, moreAtOnce);
        } catch (error) {
          leave(error, this.faultReason ?? error);
        }
      };
      const aborted = (): void => leave(signal!.reason, signal!.reason);
      const leave = (reason: unknown, abandonedFor: unknown): void => {
        if (left) return;
        left = true;
        signal?.removeEventListener('abort', aborted);
        shared.events!.stopListening(hearing);
        shared.waiters -= 1;
        if (shared.waiters === 0) this.abandon(key, shared, abandonedFor);
        reject(reason);
      };
      if (signal?.aborted) return leave(signal.reason, signal.reason);
      signal?.addEventListener('abort', aborted, { once: true });
      shared.events!.listen(hearing);
      shared.promise.then(
        (value) => {
          signal?.removeEventListener('abort', aborted);
          resolve(value);
        },
        (error: unknown) => {
          signal?.removeEventListener('abort', aborted);
          reject(error);
        },
      );
    });
  }

  /** A run every caller has left: aborted, and no run to join (a caller with the same key now starts a fresh one). */
  private abandon(key: string, shared: Flight<T, E>, reason: unknown): void {
    if (this.inFlight.get(key) === shared) this.inFlight.delete(key);
    shared.controller.abort(reason);
  }

  /** A run of its own under `key`, told to tell its events to its listeners when its first caller listens. */
  private start(key: string, work: FlightWork<T, E>, startedAt: number, listened: boolean): Flight<T, E> {
    const controller = new Cancellation();
    const events = listened ? new FlightEvents<E>() : undefined;
    // Not finally(): that adds a promise and two closures more per flight, and waits a turn before passing the value on.
    // Only this flight: one abandoned by every caller is forgotten at once, and another may have its key by now.
    const forget = (): void => {
      if (this.inFlight.get(key) === flight) this.inFlight.delete(key);
    };
    const promise = work(controller, events && ((event) => events.tell(event))).then(
      (value) => {
        forget();
        return value;
      },
      (error: unknown) => {
        forget();
        throw error;
      },
    );
    const flight: Flight<T, E> = { promise, controller, waiters: 0, startedAt, events };
    this.inFlight.set(key, flight);
    return flight;
  }

  get size(): number {
    return this.inFlight.size;
  }
}
