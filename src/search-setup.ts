import type { FastifyBaseLogger } from 'fastify';
import type { Dispatcher } from 'undici';
import type { AppConfig } from './config.js';
import { createMemoryCache } from './engine/answer-cache.js';
import { answerConfigurationTag, answerContentsOf } from './engine/answer-configuration.js';
import { ANSWER_KEYS, isStoredAnswer } from './engine/cached-answer.js';
import { createRedisCache } from './engine/redis-cache.js';
import { SearchService, type CachedAnswer } from './engine/search-service.js';
import type { Metrics } from './observability/metrics.js';
import type { Provider } from './providers/provider.js';
import { createOutboundRateLimiter } from './rate-limit/outbound-limiter.js';
import { OUTBOUND_BUCKET_KEYS } from './rate-limit/redis-token-bucket.js';

export interface SearchSetup {
  /** Every instance, built from `config.providers` (createProviders): the app needs their secrets first, for its logger. */
  providers: Provider[];
  logger: FastifyBaseLogger;
  dispatcher: Dispatcher;
  metrics: Metrics;
  /** The answer cache's longest wait for one Redis command; createRedisCache's default when unset. */
  answerCacheCommandTimeoutMs?: number;
}

/**
 * The search service as configured: providers from the validated configuration, caches, metrics hooks, breakers. With
 * REDIS_URL, the embedded index is loaded first: its contents are part of the tag its shared answers are kept under.
 */
export async function createSearchService(
  config: AppConfig,
  { providers, logger, dispatcher, metrics, answerCacheCommandTimeoutMs }: SearchSetup,
): Promise<{ search: SearchService; close(): Promise<void> }> {
  const localCache = createMemoryCache<CachedAnswer>({
    ttlMs: config.CACHE_TTL_SECONDS * 1000,
    maxEntries: config.CACHE_MAX_ENTRIES,
    maxBytes: config.CACHE_MAX_BYTES,
  });
  // With Redis, replicas share answers; the local LRU stays in front and carries on alone if Redis goes away.
  const contents = config.REDIS_URL ? await answerContentsOf(providers) : undefined;
  const sharedCache = config.REDIS_URL
    ? createRedisCache<CachedAnswer>({
        url: config.REDIS_URL,
        ttlMs: config.CACHE_TTL_SECONDS * 1000,
        // Under this configuration's tag: a replica configured otherwise would not give these answers (answer-configuration.ts).
        keyPrefix: `${config.REDIS_KEY_PREFIX}${ANSWER_KEYS}${answerConfigurationTag(providers, config.RRF_K, contents)}:`,
        logger,
        front: localCache,
        isServable: (value): value is CachedAnswer => isStoredAnswer(value, providers.length),
        maxEntryBytes: config.CACHE_SHARED_MAX_BYTES,
        commandTimeoutMs: answerCacheCommandTimeoutMs,
      })
    : undefined;
  // With Redis, replicas draw from one bucket per provider; without it (or while it is away), each limits on its own.
  const rateLimiter = createOutboundRateLimiter({
    redisUrl: config.REDIS_URL,
    redisKeyPrefix: `${config.REDIS_KEY_PREFIX}${OUTBOUND_BUCKET_KEYS}`,
    // No replica holds a provider longer than its breaker would: a longer wait in Redis is not one this service kept.
    longestHoldMs: config.BREAKER_MAX_COOLDOWN_MS,
    logger,
    onWait: (provider, waitMs) => metrics.recordRateLimitWait(provider, waitMs),
    onRefused: (provider) => metrics.recordRateLimited(provider),
  });
  const search = new SearchService({
    providers,
    rateLimiter,
    cache: sharedCache ?? localCache,
    partialAnswerTtlMs: config.CACHE_PARTIAL_TTL_SECONDS * 1000,
    // Circuit states are read at scrape time (metrics.watch in app.ts), so every provider has one from the start.
    onProviderAnswer: (answer) => metrics.recordProviderAnswer(answer),
    onCacheLookup: (lookup) => metrics.recordCache(lookup),
    onSearchStarted: () => metrics.searchStarted(),
    dispatcher,
    logger,
    rrfK: config.RRF_K,
    maxUpstreamBytes: config.UPSTREAM_MAX_BYTES,
    breaker: {
      failureThreshold: config.BREAKER_FAILURES,
      cooldownMs: config.BREAKER_COOLDOWN_MS,
      maxCooldownMs: config.BREAKER_MAX_COOLDOWN_MS,
    },
  });
  return {
    search,
    close: async () => {
      await Promise.all([sharedCache?.close(), rateLimiter.close()]);
    },
  };
}
