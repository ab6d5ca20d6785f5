/**
 * How many lookups of hosts a caller named (fetch_url, paper_read, /v1/papers/download, and every redirect they
 * follow) may be in flight at once, process-wide.
 *
 * Why: dns.lookup is getaddrinfo(3) run on libuv's thread pool, and it holds its thread until the system resolver
 * answers — with a DNS server that never answers, resolv.conf's timeout × attempts (10–20 s); abandoning the fetch
 * does not free it. libuv lets such "slow I/O" work use at most (threads + 1) / 2 of the pool at once (2 of the
 * default 4), so file reads and zlib keep their threads, but every other dns.lookup — the one undici makes for each
 * new connection to a provider — waits behind those two. Two fetches naming hosts of a zone that never answers
 * (anyone can run one) would stall every search's new connections for as long. Caller lookups therefore get one
 * slot fewer than libuv's share, at least one: with the default pool, one at a time, and a provider's lookup always
 * has a thread. Raising UV_THREADPOOL_SIZE raises both (8 threads: 4 slow, 3 for callers).
 *
 * Why not node:dns's Resolver (c-ares, no thread pool): it asks DNS servers only, without /etc/hosts or
 * nsswitch.conf, so a deployment that names hosts there would resolve them differently for fetches than for
 * everything else on the machine; a cap keeps the system resolver's answers and only bounds what it can hold up.
 */
export const CALLER_LOOKUP_SLOTS = callerLookupSlots(process.env.UV_THREADPOOL_SIZE);

/** libuv's own reading of UV_THREADPOOL_SIZE (atoi; 0 means 1; at most 1024), then one fewer than its slow-I/O share. */
export function callerLookupSlots(threadPoolSize: string | undefined): number {
  const parsed = threadPoolSize === undefined ? 4 : Number.parseInt(threadPoolSize, 10);
  const threads = Number.isNaN(parsed) || parsed === 0 ? 1 : parsed < 0 || parsed > 1024 ? 1024 : parsed;
  const slowIoThreads = Math.floor((threads + 1) / 2);
  return Math.max(1, slowIoThreads - 1);
}

/**
 * A fixed number of slots for lookups that cannot be cancelled. A slot is given back when the lookup itself ends,
 * never when its caller stops waiting: the thread stays busy until then. A caller waits for a slot under its own
 * signal, and one aborted while waiting leaves the queue without a lookup being started for it.
 */
export class LookupSlots {
  #free: number;
  readonly #waiting: Array<() => void> = [];

  constructor(size: number) {
    this.#free = size;
  }

  async run<T>(lookup: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    await this.#acquire(signal);
    if (signal?.aborted) {
      // Aborted between being handed the slot and running: the slot goes on unused.
      this.#release();
      throw signal.reason;
    }
    const pending = new Promise<T>((resolve) => resolve(lookup()));
    pending.then(this.#release, this.#release);
    return untilAborted(pending, signal);
  }

  #acquire(signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    if (this.#free > 0) {
      this.#free -= 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const granted = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = (): void => {
        this.#waiting.splice(this.#waiting.indexOf(granted), 1);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(granted);
    });
  }

  /** Hands the slot straight to the longest waiting caller, or frees it. */
  readonly #release = (): void => {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free += 1;
  };
}

/** The slots of every lookup of a caller-named host in this process. */
export const callerLookups = new LookupSlots(CALLER_LOOKUP_SLOTS);

/** DNS lookups cannot be cancelled; this stops waiting for one when the fetch is aborted. */
async function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  signal.throwIfAborted();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}
