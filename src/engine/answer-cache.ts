import { LRUCache } from 'lru-cache';

/** Where answers are kept between identical searches: in process, or shared (Redis) in front of it. */
export interface AnswerCache<T> {
  /**
   * The entry under `key`. One that `usable` refuses is a miss for this reader, and a cache in layers looks in
   * the next layer behind it (another replica may have kept a better answer there).
   */
  get(key: string, usable?: (value: T) => boolean): Promise<T | undefined>;
  /**
   * Keeps `value` for the cache's own TTL, or for `ttlMs` when that is shorter (a partial answer). With
   * `keepExisting`, an entry already kept under `key` stays and `value` is dropped. With `depth` (how deep `value`
   * was asked), an entry already kept deeper stays (keepsDeeper).
   */
  set(key: string, value: T, ttlMs?: number, options?: SetOptions): Promise<void>;
  /** True when set() keeps nothing (a TTL of 0): what only a later reader would need need not be built. */
  readonly storesNothing?: boolean;
}

export interface SetOptions {
  keepExisting?: boolean;
  depth?: number;
}

/**
 * Whether `kept` stays in place of an answer `depth` deep: it is deeper. Pages of one search fetched together
 * (page 1 and page 3) each gather their own list; one finishing last must not put a shallower list in place of
 * the one a later page was shown from, or the pages after it would be ranked from another list (a result shown
 * twice, another never).
 */
export function keepsDeeper(kept: unknown, depth: number | undefined): boolean {
  if (depth === undefined || typeof kept !== 'object' || kept === null) return false;
  const keptDepth = (kept as { depth?: unknown }).depth;
  return typeof keptDepth === 'number' && keptDepth > depth;
}

export interface MemoryCacheOptions {
  ttlMs: number;
  maxEntries: number;
  maxBytes: number;
}

/** The lifetime of one entry: the cache's TTL, shortened by the caller's; 0 or less means "do not keep". */
export function entryTtl(cacheTtlMs: number, requestedTtlMs: number | undefined): number {
  return Math.min(cacheTtlMs, requestedTtlMs ?? cacheTtlMs);
}

/** An LRU bounded by entries and by the JSON size of what it holds, each entry living ttlMs (or less). */
export function createMemoryCache<T extends object>(options: MemoryCacheOptions): AnswerCache<T> {
  const cache = new LRUCache<string, T>({
    max: options.maxEntries,
    maxSize: options.maxBytes,
    // An answer bigger than the whole budget is simply not cached.
    maxEntrySize: options.maxBytes,
    sizeCalculation: (value) => Math.max(1, JSON.stringify(value).length),
    ttl: options.ttlMs,
  });
  return {
    get: async (key, usable) => {
      const value = cache.get(key);
      return value === undefined || usable === undefined || usable(value) ? value : undefined;
    },
    set: async (key, value, ttlMs, setOptions) => {
      const ttl = entryTtl(options.ttlMs, ttlMs);
      if (ttl <= 0) return;
      if (setOptions?.keepExisting === true && cache.has(key)) return;
      // Most writes follow a miss: nothing is kept, and nothing is compared.
      if (setOptions?.depth !== undefined && keepsDeeper(cache.peek(key), setOptions.depth)) return;
      cache.set(key, value, { ttl });
    },
    storesNothing: options.ttlMs <= 0,
  };
}
