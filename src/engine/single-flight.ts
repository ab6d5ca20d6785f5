import { Cancellation, type CallerSignal } from './cancellation.js';

/**
 * Identical concurrent requests share one run. Each caller brings its own abort signal; the shared run is
 * aborted only when every caller waiting on it has gone away.
 *
 * A run may be bound to when its first caller arrived (`startedAt`): its deadline counts from then. A caller that
 * arrives more than `joinWithinMs` before or after it starts a run of its own instead (which then takes the key): it
 * joined, it would be answered by the first caller's deadline, not by its own (cut short by the time it came later,
 * its providers reported as timed out while it still had time), or wait past its own.
 */
export class SingleFlight<T> {
  private readonly inFlight = new Map<string, { promise: Promise<T>; controller: Cancellation; waiters: number; startedAt: number }>();

  run(
    key: string,
    signal: CallerSignal | undefined,
    work: (signal: CallerSignal) => Promise<T>,
    startedAt = 0,
    joinWithinMs = Number.POSITIVE_INFINITY,
  ): Promise<T> {
    let flight = this.inFlight.get(key);
    if (!flight || Math.abs(startedAt - flight.startedAt) > joinWithinMs) {
      const controller = new Cancellation();
      // Not finally(): that adds a promise and two closures more per flight, and waits a turn before passing the value on.
      // Only this flight: one abandoned by every caller is forgotten at once, and another may have its key by now.
      const forget = (): void => {
        if (this.inFlight.get(key) === flight) this.inFlight.delete(key);
      };
      const promise = work(controller).then(
        (value) => {
          forget();
          return value;
        },
        (error: unknown) => {
          forget();
          throw error;
        },
      );
      flight = { promise, controller, waiters: 0, startedAt };
      this.inFlight.set(key, flight);
    }
    const shared = flight;
    shared.waiters += 1;
    if (!signal) return shared.promise;
    return new Promise<T>((resolve, reject) => {
      const leave = (): void => {
        shared.waiters -= 1;
        if (shared.waiters === 0) {
          // An aborted run is no run to join: a caller with the same key now starts a fresh one.
          if (this.inFlight.get(key) === shared) this.inFlight.delete(key);
          shared.controller.abort(signal.reason);
        }
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

  get size(): number {
    return this.inFlight.size;
  }
}
