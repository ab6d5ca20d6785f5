/**
 * By default (UV_THREADPOOL_SIZE unset: FetchSettings.callerLookupSlots sets it), how many lookups of hosts a caller named (fetch_url, paper_read, /v1/papers/download, and every redirect they
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
const DEFAULT_CALLER_LOOKUP_SLOTS = callerLookupSlots(undefined);

/** libuv's own reading of UV_THREADPOOL_SIZE (atoi; 0 means 1; at most 1024), then one fewer than its slow-I/O share. */
export function callerLookupSlots(threadPoolSize: string | undefined): number {
  const parsed = threadPoolSize === undefined ? 4 : Number.parseInt(threadPoolSize, 10);
  const threads = Number.isNaN(parsed) || parsed === 0 ? 1 : parsed < 0 || parsed > 1024 ? 1024 : parsed;
  const slowIoThreads = Math.floor((threads + 1) / 2);
  return Math.max(1, slowIoThreads - 1);
}

/**
 * One fetch's place in the queue for a slot: `queuedAt` (performance.now()) is set while it waits and cleared once it
 * is given one, so a fetch that runs out of time can tell its caller it was waiting for other fetches' lookups, not
 * for the site.
 */
export interface SlotWait {
  queuedAt?: number;
}

/** How the slots are used right now, and since the process started; read by /metrics when scraped. */
export interface LookupSlotCounts {
  /** Callers queued for a slot. */
  waiting: number;
  /** Lookups holding a slot (and a thread of libuv's pool) until the resolver answers, their fetch waiting or not. */
  running: number;
  /** Fetches that ran out of time while queued for a slot (counted by the fetcher, which knows why it ended). */
  timedOutWaiting: number;
}

/**
 * A fixed number of slots for lookups that cannot be cancelled. A slot is given back when the lookup itself ends,
 * never when its caller stops waiting: the thread stays busy until then. A caller waits for a slot under its own
 * signal, and one aborted while waiting leaves the queue without a lookup being started for it.
 */
export class LookupSlots {
  #size: number;
  #free: number;
  #running = 0;
  #timedOutWaiting = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(size: number) {
    this.#size = size;
    this.#free = size;
  }

  /** How many lookups may run at once. */
  get size(): number {
    return this.#size;
  }

  /**
   * Sets how many lookups may run at once: the app does so from its configuration (FetchSettings.callerLookupSlots,
   * libuv's UV_THREADPOOL_SIZE) as it is built. A slot taken stays taken until its lookup ends; one added goes to the
   * longest waiting caller.
   */
  resize(size: number): void {
    this.#free += size - this.#size;
    this.#size = size;
    while (this.#free > 0 && this.#waiting.length > 0) {
      this.#free -= 1;
      this.#waiting.shift()!();
    }
  }

  /** `wait`, when given, shows whether this caller is queued (see SlotWait). */
  async run<T>(lookup: () => Promise<T>, signal: AbortSignal | undefined, wait?: SlotWait): Promise<T> {
    await this.#acquire(signal, wait);
    if (signal?.aborted) {
      // Aborted between being handed the slot and running: the slot goes on unused.
      this.#release();
      throw signal.reason;
    }
    this.#running += 1;
    const pending = new Promise<T>((resolve) => resolve(lookup()));
    pending.then(this.#lookupEnded, this.#lookupEnded);
    return untilAborted(pending, signal);
  }

  counts(): LookupSlotCounts {
    return { waiting: this.#waiting.length, running: this.#running, timedOutWaiting: this.#timedOutWaiting };
  }

  /** A fetch ran out of time while queued here (its caller got FETCH_TIMEOUT saying so). */
  recordTimedOutWaiting(): void {
    this.#timedOutWaiting += 1;
  }

  #acquire(signal: AbortSignal | undefined, wait: SlotWait | undefined): Promise<void> {
    signal?.throwIfAborted();
    if (this.#free > 0) {
      this.#free -= 1;
      return Promise.resolve();
    }
    if (wait) wait.queuedAt = performance.now();
    return new Promise<void>((resolve, reject) => {
      const granted = (): void => {
        signal?.removeEventListener('abort', onAbort);
        if (wait) wait.queuedAt = undefined;
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

  readonly #lookupEnded = (): void => {
    this.#running -= 1;
    this.#release();
  };

  /** Hands the slot straight to the longest waiting caller, or frees it. */
  readonly #release = (): void => {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free += 1;
  };
}

/** The slots of every lookup of a caller-named host in this process (sized by the app: resize). */
export const callerLookups = new LookupSlots(DEFAULT_CALLER_LOOKUP_SLOTS);

/**
 * What a fetch out of time adds to its FETCH_TIMEOUT message when it was queued for a slot of callerLookups, which it
 * counts (fedsearch_fetch_dns_slot_timeouts_total): other fetches' lookups, not the site, took its time. '' when it
 * was not queued. One wording and one count for every caller that checks a fetched host (the fetcher, Firecrawl's check).
 */
export function slotWaitNote(wait: SlotWait): string {
  const queuedAt = wait.queuedAt;
  if (queuedAt === undefined) return '';
  callerLookups.recordTimedOutWaiting();
  return ` (waiting ${Math.round(performance.now() - queuedAt)} ms for a DNS lookup slot: other fetches' lookups were still running)`;
}

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
