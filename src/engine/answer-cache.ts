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
   * was asked), an entry already kept stays when replacing it would change a page shown from it (keepsKept).
   */
  set(key: string, value: T, ttlMs?: number, options?: SetOptions): Promise<void>;
  /** True when set() keeps nothing (a TTL of 0): what only a later reader would need need not be built. */
  readonly storesNothing?: boolean;
}

export interface SetOptions {
  keepExisting?: boolean;
  depth?: number;
  /**
   * With `depth`: the answer is partial, and an entry kept exactly as deep stays even when the answer extends it. A
   * partial answer that extends a kept list replaces a shallower one, never one as deep, which may be complete (the
   * same page gathered at once without a failure).
   */
  keepAsDeep?: boolean;
  /** With `depth`: the kept list the answer extends (its first results are that list's); absent for one ranked afresh. */
  extending?: KeptList;
}

/**
 * Which kept list an answer extends: the kept entry's gathering time (`cached_at`), depth and length. A copy read
 * back from a shared cache is another object, so identity is not enough; two entries kept under one key differ in
 * these unless two replicas began gathering them in the same millisecond.
 */
export interface KeptList {
  cachedAt: number;
  depth: number;
  length: number;
}

/** What keepsKept reads of an entry; anything else may be kept under a key (another writer's value). */
interface EntryFields {
  depth?: unknown;
  cached_at?: unknown;
  results?: unknown;
  partial?: unknown;
}

/**
 * Whether `kept` stays in place of an answer set with `options`, because replacing it would change a page already
 * shown from it: the next page goes on from the kept list (search-service.ts), so a caller shown the first pages of
 * one list must not get the next page from another (a result shown twice, another never).
 * - A deeper entry stays: pages of one search fetched together (page 1 and page 3) each gather their own list, and
 *   page 1 finishing last must not put a shallower list in place of the one page 3 was shown from.
 * - An answer that extends the kept entry holds it as it was: it replaces it unless as deep and partial (keepAsDeep).
 * - Any other answer (ranked afresh, or extending a list that is no longer the one kept) replaces only a shallower
 *   entry, or a partial one as deep when it is complete itself: two fan-outs of one page (a caller asking page 2 with
 *   nothing kept while another extends the kept page 1; two of page 1 with different timeouts) must not swap the list
 *   a caller was shown for the one the fan-out finishing last ranked, perhaps from another upstream order. A partial
 *   entry lives only seconds, and a complete answer is worth more to every later caller than its pages' continuity.
 */
export function keepsKept(kept: unknown, options: SetOptions | undefined): boolean {
  const depth = options?.depth;
  if (depth === undefined || typeof kept !== 'object' || kept === null) return false;
  const entry = kept as EntryFields;
  const keptDepth = entry.depth;
  if (typeof keptDepth !== 'number' || keptDepth < depth) return false;
  if (keptDepth > depth) return true;
  const asDeepStays = options?.keepAsDeep === true;
  return isList(entry, options?.extending) ? asDeepStays : asDeepStays || entry.partial !== true;
}

/** Whether `entry` is the kept list `list` names. */
function isList(entry: EntryFields, list: KeptList | undefined): boolean {
  return list !== undefined && entry.cached_at === list.cachedAt && entry.depth === list.depth && Array.isArray(entry.results) && entry.results.length === list.length;
}

/** Whether `entry` was asked deeper than `other`. */
export function deeperThan(entry: unknown, other: unknown): boolean {
  const otherDepth = typeof other === 'object' && other !== null ? (other as EntryFields).depth : undefined;
  const entryDepth = typeof entry === 'object' && entry !== null ? (entry as EntryFields).depth : undefined;
  return typeof otherDepth === 'number' && typeof entryDepth === 'number' && entryDepth > otherDepth;
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
      if (setOptions?.depth !== undefined && keepsKept(cache.peek(key), setOptions)) return;
      cache.set(key, value, { ttl });
    },
    storesNothing: options.ttlMs <= 0,
  };
}
