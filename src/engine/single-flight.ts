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
 * keeps nothing of what it tells (it tells nothing: no step per event, no log): a caller that listens joins it all the
 * same, waits as one that does not, and is told when it ends what its value says was told (`toldBy`), all at once,
 * before that value. A run of its own would ask everything again (for a search: every provider, spending their rate
 * limits and quotas twice) and end no sooner than the run already going.
 */
export class SingleFlight<T, E = never> {
  private readonly inFlight = new Map<string, Flight<T, E>>();

  /**
   * `faultReason`: what a run is aborted with when its last caller leaves because its listener threw (a fault of the
   * caller's own code, not a client going away): the work may tell the two apart (a provider cut short by it is not
   * reported as cancelled by its client). The listener's error by default.
   *
   * `toldBy`: the events a finished run's value says it told, for a listener that joined a run keeping none (none
   * when unset). Worked out only for such a listener, when the run ends: a run nobody listens to pays nothing for it.
   */
  constructor(
    private readonly faultReason?: unknown,
    private readonly toldBy?: (value: T) => readonly E[],
  ) {}

  run(
    key: string,
    signal: CallerSignal | undefined,
    work: FlightWork<T, E>,
    startedAt = 0,
    joinWithinMs = Number.POSITIVE_INFINITY,
    listener?: FlightListener<E>,
  ): Promise<T> {
    let flight = this.inFlight.get(key);
    if (!flight || Math.abs(startedAt - flight.startedAt) > joinWithinMs) flight = this.start(key, work, startedAt, listener !== undefined);
    const shared = flight;
    shared.waiters += 1;
    if (!listener) return this.wait(key, shared, signal);
    if (shared.events) return this.listenTo(key, shared, signal, listener);
    return this.wait(key, shared, signal).then((value) => this.tellAtEnd(value, listener));
  }

  /** When the run began: for a caller that joined it, whose deadline and timings count from then (`startedAt` of run()). */
  startedAtOf(key: string): number | undefined {
    return this.inFlight.get(key)?.startedAt;
  }

  /**
   * A listener that joined a run keeping no events, told them once the run has ended, then given its value. A listener
   * that throws fails its own caller only: the run is over, and the others have its value.
   */
  private tellAtEnd(value: T, listener: FlightListener<E>): T {
    // Each with more at once, the last too: the value follows at once, and holds what they add up to (a search's
    // results), so work a listener does per event (fusing results so far) is left to the value.
    const told = this.toldBy?.(value) ?? [];
    for (const event of told) listener(event, true);
    return value;
  }

  /** A caller that does not listen: the run's value, unless its signal aborts first (then it alone leaves). */
  private wait(key: string, shared: Flight<T, E>, signal: CallerSignal | undefined): Promise<T> {
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
