import pino from 'pino';
import { createMemoryCache, type AnswerCache } from '../../src/engine/answer-cache.js';
import { isStoredAnswer } from '../../src/engine/cached-answer.js';
import { createRedisCache, type RedisCache, type RedisCacheOptions } from '../../src/engine/redis-cache.js';
import type { CachedAnswer } from '../../src/engine/search-service.js';

/**
 * A replica's answer cache as search-setup.ts makes it with REDIS_URL, for engine tests of replicas sharing one Redis:
 * a minute's TTL, an in-process front, and shared entries served when isStoredAnswer reads them as answers. `options`
 * replaces any of these (a check of its own, a bound on shared entries); `frontMaxBytes` bounds the front.
 */
export function sharedAnswerCache(
  redisUrl: string,
  { frontMaxBytes = 1_000_000, ...options }: Partial<Pick<RedisCacheOptions<CachedAnswer>, 'isServable' | 'maxEntryBytes'>> & { frontMaxBytes?: number } = {},
): RedisCache<CachedAnswer> {
  return createRedisCache<CachedAnswer>({
    url: redisUrl,
    ttlMs: 60_000,
    logger: pino({ level: 'silent' }),
    front: createMemoryCache<CachedAnswer>({ ttlMs: 60_000, maxEntries: 100, maxBytes: frontMaxBytes }),
    isServable: isStoredAnswer,
    ...options,
  });
}

/** The cache, with every write's promise noted: a test waits for the write it caused, not for time to pass. */
export function notingWrites(cache: AnswerCache<CachedAnswer>, writes: Promise<void>[]): AnswerCache<CachedAnswer> {
  return {
    get: (key, usable) => cache.get(key, usable),
    set: (key, value, ttlMs, options) => {
      const write = cache.set(key, value, ttlMs, options);
      writes.push(write);
      return write;
    },
    storesNothing: cache.storesNothing,
  };
}
