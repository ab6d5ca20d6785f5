/** Runs a piece of work under a concurrency limit; resolves or rejects as the work does. */
export type ConcurrencyLimit = <T>(work: () => Promise<T> | T) => Promise<T>;

/**
 * At most `max` pieces of work at once; the rest wait in arrival order. Work starts at once while there is
 * room, with no queue entry and no microtask hop before it (p-limit queues every call).
 */
export function concurrencyLimit(max: number): ConcurrencyLimit {
  let active = 0;
  const waiting: Array<() => void> = [];
  const release = (): void => {
    const next = waiting.shift();
    // The slot passes straight to the next in line, so `active` stays as it is.
    if (next) next();
    else active -= 1;
  };
  // Without an async function: the frame it would keep while the work runs is one more object per call in flight.
  const run = <T>(work: () => Promise<T> | T): Promise<T> => {
    let done: Promise<T>;
    try {
      done = Promise.resolve(work());
    } catch (error) {
      release();
      return Promise.reject(error);
    }
    done.then(release, release);
    return done;
  };
  return <T>(work: () => Promise<T> | T): Promise<T> => {
    if (active < max) {
      active += 1;
      return run(work);
    }
    return new Promise<void>((resolve) => waiting.push(resolve)).then(() => run(work));
  };
}
