import { createHash } from 'node:crypto';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { Redis } from 'ioredis';
import { closeRedisClient, describeRedisUrl } from '../transport/redis-connection.js';
import { entryTtl, type AnswerCache } from './answer-cache.js';

export interface RedisCacheOptions<T> {
  /** redis://[:password@]host:port[/db] or rediss:// for TLS. */
  url: string;
  /** How long an answer lives in Redis (PX); 0 caches nothing, as the in-process cache does. */
  ttlMs: number;
  /** Namespace for keys, so several services (or answer formats) can share one Redis. */
  keyPrefix?: string;
  logger: Logger;
  /** The in-process cache asked first and filled on every Redis hit. */
  front: AnswerCache<T>;
  /** Longest wait for one Redis command before the local cache is used alone. Default 250 ms. */
  commandTimeoutMs?: number;
}

export type RedisCache<T> = AnswerCache<T> & { close(): Promise<void> };

/** v2: answers carry the time they were gathered (cached_at); v1 entries are simply not read. */
const DEFAULT_KEY_PREFIX = 'fedsearch:answer:v2:';
const DEFAULT_COMMAND_TIMEOUT_MS = 250;
const CONNECT_TIMEOUT_MS = 1000;
/** Reconnect pauses grow 100, 200, 400 … ms up to this. */
const MAX_RECONNECT_DELAY_MS = 2000;
/** After a failed command on a live connection (Redis slow, not gone), leave it alone this long. */
const PAUSE_AFTER_FAILURE_MS = 2000;

/**
 * A two-level answer cache: the in-process `front` first, then Redis, shared by every replica. Redis being
 * down or slow never reaches callers: commands fail fast (no offline queue, a short timeout), the local
 * cache answers alone, and one warning is logged per outage rather than one per request.
 */
export function createRedisCache<T>(options: RedisCacheOptions<T>): RedisCache<T> {
  const { front, logger, ttlMs } = options;
  const prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const where = describeRedisUrl(options.url);
  const client = new Redis(options.url, {
    enableOfflineQueue: false,
    commandTimeout: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(100 * 2 ** (attempt - 1), MAX_RECONNECT_DELAY_MS),
  });

  let available = true;
  let pausedUntil = 0;

  const reportFailure = (error: unknown): void => {
    const message = error instanceof Error ? error.message : String(error);
    if (available) {
      available = false;
      logger.warn({ redis: where, reason: message }, 'shared cache (Redis) unavailable; answering from the local cache until it returns');
    } else {
      logger.debug({ redis: where, reason: message }, 'shared cache (Redis) still unavailable');
    }
  };
  const reportSuccess = (): void => {
    if (available) return;
    available = true;
    logger.info({ redis: where }, 'shared cache (Redis) is back');
  };

  // Without a listener ioredis prints every reconnect failure to the console.
  client.on('error', reportFailure);
  client.on('ready', () => {
    pausedUntil = 0;
    reportSuccess();
  });

  /** Runs one command if Redis can take it now; any failure means "no answer from Redis", never an error. */
  const attempt = async <R>(command: () => Promise<R>): Promise<R | undefined> => {
    if (client.status !== 'ready' || Date.now() < pausedUntil) return undefined;
    try {
      const result = await command();
      reportSuccess();
      return result;
    } catch (error) {
      pausedUntil = Date.now() + PAUSE_AFTER_FAILURE_MS;
      reportFailure(error);
      return undefined;
    }
  };

  return {
    async get(key) {
      const local = await front.get(key);
      if (local !== undefined) return local;
      const redisEntry = redisKey(prefix, key);
      // The entry's remaining lifetime comes with it, so the local copy expires when the shared one does.
      const replies = await attempt(() => client.multi().get(redisEntry).pttl(redisEntry).exec());
      const [[, stored] = [], [, remainingMs] = []] = replies ?? [];
      if (typeof stored !== 'string') return undefined;
      let value: T;
      try {
        value = JSON.parse(stored) as T;
      } catch {
        logger.debug({ redis: where }, 'shared cache entry is not JSON; ignored');
        return undefined;
      }
      if (typeof remainingMs === 'number' && remainingMs > 0) await front.set(key, value, remainingMs);
      return value;
    },

    async set(key, value, requestedTtlMs) {
      await front.set(key, value, requestedTtlMs);
      const ttl = entryTtl(ttlMs, requestedTtlMs);
      if (ttl <= 0) return;
      const payload = JSON.stringify(value);
      await attempt(() => client.set(redisKey(prefix, key), payload, 'PX', ttl));
    },

    storesNothing: ttlMs <= 0,

    async close() {
      await closeRedisClient(client, reportFailure);
    },
  };
}

/** Cache keys are long JSON strings; a digest keeps Redis keys short and free of odd characters. */
function redisKey(prefix: string, key: string): string {
  return prefix + createHash('sha256').update(key).digest('base64url');
}
