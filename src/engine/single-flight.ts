import { Cancellation, type CallerSignal } from './cancellation.js';
import { FlightEvents, type FlightListener } from './flight-events.js';

export type { FlightListener } from './flight-events.js';

/**
 * Where a run whose first caller does not listen may leave what it holds anyway (a search's fan-out: its providers'
 * answers to come), for a caller that listens and joins it later (run()'s `hearOffered`). One field, written once: a
 * run nobody joins keeps no log and tells nothing.
 */
export interface FlightOffer<S> {
  offered: S | undefined;
}

/**
 * A run's work: given the shared run's abort signal, `tell` when its first caller listens (FlightEvents), and where to
 * offer what a caller that joins it later may hear (read only when its first caller did not listen).
 */
export type FlightWork<T, E, S = never> = (signal: CallerSignal, tell: ((event: E) => void) | undefined, offer: FlightOffer<S>) => Promise<T>;

/** How a caller that listens hears a run keeping no events from what that run offered: what it missed at once, then the rest. */
export type HearOffered<E, S> = (offered: S, listener: FlightListener<E>) => void;

class Flight<T, E, S> implements FlightOffer<S> {
  /** Set as soon as the work has started (SingleFlight.start), before anyone can join. */
  promise!: Promise<T>;
  waiters = 0;
  offered: S | undefined = undefined;

  constructor(
    readonly controller: Cancellation,
    readonly startedAt: number,
    /** Only when the caller that started it listens: what the run has told so far, for callers that join it later. */
    readonly events: FlightEvents<E> | undefined,
  ) {}
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
 * keeps nothing of what it tells (it tells nothing: no step per event, no log), but may offer what it holds anyway
 * (FlightOffer): a caller that listens joins it all the same and hears from that (`hearOffered`), as it would from a
 * log. A run of its own would ask everything again (for a search: every provider, spending their rate limits and
 * quotas twice) and end no sooner than the run already going.
 */
export class SingleFlight<T, E = never, S = never> {
  private readonly inFlight = new Map<string, Flight<T, E, S>>();

  /**
   * `faultReason`: what a run is aborted with when its last caller leaves because its listener threw (a fault of the
   * caller's own code, not a client going away): the work may tell the two apart (a provider cut short by it is not
   * reported as cancelled by its client). The listener's error by default.
   */
  constructor(private readonly faultReason?: unknown) {}

  /**
   * `hearOffered`: how `listener` hears a run keeping no events from what it offered (FlightOffer); without it, or when
   * the run offered nothing, such a listener hears nothing and is given the value.
   */
  run(
    key: string,
    signal: CallerSignal | undefined,
    work: FlightWork<T, E, S>,
    startedAt = 0,
    joinWithinMs = Number.POSITIVE_INFINITY,
    listener?: FlightListener<E>,
    hearOffered?: HearOffered<E, S>,
  ): Promise<T> {
    let flight = this.inFlight.get(key);
    if (!flight || Math.abs(startedAt - flight.startedAt) > joinWithinMs) flight = this.start(key, work, startedAt, listener !== undefined);
    const shared = flight;
    shared.waiters += 1;
    if (!listener) return this.wait(key, shared, signal);
    if (shared.events || (shared.offered !== undefined && hearOffered)) return this.listenTo(key, shared, signal, listener, hearOffered);
    return this.wait(key, shared, signal);
  }

  /** When the run began: for a caller that joined it, whose deadline and timings count from then (`startedAt` of run()). */
  startedAtOf(key: string): number | undefined {
    return this.inFlight.get(key)?.startedAt;
  }

  /** A caller that does not listen: the run's value, unless its signal aborts first (then it alone leaves). */
  private wait(key: string, shared: Flight<T, E, S>, signal: CallerSignal | undefined): Promise<T> {
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
   * A caller that listens: told what the run told before it came, then each event as it comes, from the run's events,
   * else from what it offered (`hearOffered`). Its leaving (its signal aborted, or its listener threw) ends its own wait
   * and hearing; a listener that throws fails its own caller, not the run the others wait on.
   */
  private listenTo(
    key: string,
    shared: Flight<T, E, S>,
    signal: CallerSignal | undefined,
    listener: FlightListener<E>,
    hearOffered: HearOffered<E, S> | undefined,
  ): Promise<T> {
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
        // What was offered goes on telling: `left` keeps this caller from hearing it.
        shared.events?.stopListening(hearing);
        shared.waiters -= 1;
        if (shared.waiters === 0) this.abandon(key, shared, abandonedFor);
        reject(reason);
      };
      if (signal?.aborted) return leave(signal.reason, signal.reason);
      signal?.addEventListener('abort', aborted, { once: true });
      if (shared.events) shared.events.listen(hearing);
      else hearOffered!(shared.offered!, hearing);
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
  private abandon(key: string, shared: Flight<T, E, S>, reason: unknown): void {
    if (this.inFlight.get(key) === shared) this.inFlight.delete(key);
    shared.controller.abort(reason);
  }

  /** A run of its own under `key`, told to tell its events to its listeners when its first caller listens. */
  private start(key: string, work: FlightWork<T, E, S>, startedAt: number, listened: boolean): Flight<T, E, S> {
    const events = listened ? new FlightEvents<E>() : undefined;
    // The flight is where the work offers what it holds (FlightOffer): made before it starts.
    const flight = new Flight<T, E, S>(new Cancellation(), startedAt, events);
    // Not finally(): that adds a promise and two closures more per flight, and waits a turn before passing the value on.
    // Only this flight: one abandoned by every caller is forgotten at once, and another may have its key by now.
    const forget = (): void => {
      if (this.inFlight.get(key) === flight) this.inFlight.delete(key);
    };
    flight.promise = work(flight.controller, events && ((event) => events.tell(event)), flight).then(
      (value) => {
        forget();
        return value;
      },
      (error: unknown) => {
        forget();
        throw error;
      },
    );
    this.inFlight.set(key, flight);
    return flight;
  }

  get size(): number {
    return this.inFlight.size;
  }
}
