import { LRUCache } from 'lru-cache';

/** Where complete answers are kept between identical searches: in process, or shared (Redis) in front of it. */
export interface AnswerCache<T> {
  get(key: string): Promise<T | undefined>;
  set(key: string, value: T): Promise<void>;
}

export interface MemoryCacheOptions {
  ttlMs: number;
  maxEntries: number;
  maxBytes: number;
}

/** An LRU bounded by entries and by the JSON size of what it holds, each entry living ttlMs. */
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
    get: async (key) => cache.get(key),
    set: async (key, value) => {
      if (options.ttlMs > 0) cache.set(key, value);
    },
  };
}
