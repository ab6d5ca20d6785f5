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
   * `keepExisting`, an entry already kept under `key` stays and `value` is dropped.
   */
  set(key: string, value: T, ttlMs?: number, options?: { keepExisting?: boolean }): Promise<void>;
  /** True when set() keeps nothing (a TTL of 0): what only a later reader would need need not be built. */
  readonly storesNothing?: boolean;
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
      if (ttl > 0 && !(setOptions?.keepExisting === true && cache.has(key))) cache.set(key, value, { ttl });
    },
    storesNothing: options.ttlMs <= 0,
  };
}
