import { LRUCache } from 'lru-cache';

/**
 * What a reader makes of an entry: serves it (true), refuses it (false: a miss for this reader), or serves it unless
 * a layer behind holds a deeper one (`shallow`: a search's list too short for the page asked, which the providers
 * will be asked to extend; another replica may have kept the deeper list an earlier page was shown from).
 */
export type EntryVerdict = boolean | 'shallow';

/** Where answers are kept between identical searches: in process, or shared (Redis) in front of it. */
export interface AnswerCache<T> {
  /**
   * The entry under `key`, as `usable` judges it (EntryVerdict). One it refuses is a miss for this reader, and a
   * cache in layers looks in the next layer behind it (another replica may have kept a better answer there); one
   * it finds shallow is served unless that layer holds a deeper one.
   */
  get(key: string, usable?: (value: T) => EntryVerdict): Promise<T | undefined>;
  /**
   * Keeps `value` for the cache's own TTL, or for `ttlMs` when that is shorter (a partial answer). With
   * `keepExisting`, an entry already kept under `key` stays and `value` is dropped. With `depth` (how deep `value`
   * was asked), an entry already kept deeper stays (keepsDeeper), and with `keepAsDeep` one kept as deep too.
   */
  set(key: string, value: T, ttlMs?: number, options?: SetOptions): Promise<void>;
  /** True when set() keeps nothing (a TTL of 0): what only a later reader would need need not be built. */
  readonly storesNothing?: boolean;
}

export interface SetOptions {
  keepExisting?: boolean;
  depth?: number;
  /**
   * With `depth`: an entry kept exactly as deep stays too. A partial answer that extends a kept list replaces a
   * shallower one, never one as deep, which may be complete (the same page gathered at once without a failure).
   */
  keepAsDeep?: boolean;
}

/**
 * Whether `kept` stays in place of an answer `depth` deep: it is deeper. Pages of one search fetched together
 * (page 1 and page 3) each gather their own list; one finishing last must not put a shallower list in place of
 * the one a later page was shown from, or the pages after it would be ranked from another list (a result shown
 * twice, another never).
 */
export function keepsDeeper(kept: unknown, depth: number | undefined, orAsDeep = false): boolean {
  if (depth === undefined || typeof kept !== 'object' || kept === null) return false;
  const keptDepth = (kept as { depth?: unknown }).depth;
  return typeof keptDepth === 'number' && (keptDepth > depth || (orAsDeep && keptDepth === depth));
}

/** Whether `entry` was asked deeper than `other` (keepsDeeper, for two entries). */
export function deeperThan(entry: unknown, other: unknown): boolean {
  const otherDepth = typeof other === 'object' && other !== null ? (other as { depth?: unknown }).depth : undefined;
  return typeof otherDepth === 'number' && keepsDeeper(entry, otherDepth);
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
      return value === undefined || usable === undefined || usable(value) !== false ? value : undefined;
    },
    set: async (key, value, ttlMs, setOptions) => {
      const ttl = entryTtl(options.ttlMs, ttlMs);
      if (ttl <= 0) return;
      if (setOptions?.keepExisting === true && cache.has(key)) return;
      // Most writes follow a miss: nothing is kept, and nothing is compared.
      if (setOptions?.depth !== undefined && keepsDeeper(cache.peek(key), setOptions.depth, setOptions.keepAsDeep)) return;
      cache.set(key, value, { ttl });
    },
    storesNothing: options.ttlMs <= 0,
  };
}
