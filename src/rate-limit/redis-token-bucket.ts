import type { FastifyBaseLogger as Logger } from 'fastify';
import { Redis } from 'ioredis';
import { closeRedisClient, describeRedisUrl } from '../transport/redis-connection.js';
import type { RateLimit } from './rate-limit-setting.js';
import { bucketShape, type Reservation } from './token-bucket.js';

/**
 * The bucket of token-bucket.ts on state in Redis, in one atomic script, so every replica draws from the
 * same bucket. Redis's own clock (TIME) is the only clock: replicas' clocks never have to agree.
 * KEYS[1] the bucket (the time its reservations run until); ARGV ms per request, burst in ms, longest
 * acceptable wait in ms. Returns {1, wait ms} for a slot taken, {0, ms until the next one} for a refusal.
 */
const TAKE_TOKEN_SCRIPT = `
local msPerRequest = tonumber(ARGV[1])
local burstMs = tonumber(ARGV[2])
local maxWait = tonumber(ARGV[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local from = math.max(tonumber(redis.call('GET', KEYS[1])) or now, now)
local wait = math.max(0, math.ceil(from - burstMs - now - 0.000001))
if wait > 0 and wait >= maxWait then return {0, wait} end
local reservedUntil = from + msPerRequest
-- Once its reservations have run out the key says nothing a missing key does not: let it go then.
redis.call('SET', KEYS[1], string.format('%.3f', reservedUntil), 'PX', math.ceil(reservedUntil - now) + 1000)
return {1, wait}
`;

type ScriptedRedis = Redis & {
  takeToken(key: string, msPerRequest: number, burstMs: number, maxWaitMs: number): Promise<[number, number]>;
};

export interface SharedBuckets {
  /** The reservation from Redis, or undefined when Redis cannot answer now (the caller limits locally). */
  reserve(key: string, limit: RateLimit, maxWaitMs: number): Promise<Reservation | undefined>;
  close(): Promise<void>;
}

export interface RedisBucketsOptions {
  /** redis://[:password@]host:port[/db] or rediss:// for TLS. */
  url: string;
  logger: Logger;
  /** Namespace for keys, so several services can share one Redis. */
  keyPrefix?: string;
  /** Longest wait for one Redis command before the local bucket is used. Default 250 ms. */
  commandTimeoutMs?: number;
}

const DEFAULT_KEY_PREFIX = 'fedsearch:ratelimit:v1:';
export const CONNECTION_NAME = 'fedsearch-outbound-rate-limits';
const DEFAULT_COMMAND_TIMEOUT_MS = 250;
const CONNECT_TIMEOUT_MS = 1000;
const MAX_RECONNECT_DELAY_MS = 2000;
/** After a failed command on a live connection (Redis slow, not gone), leave it alone this long. */
const PAUSE_AFTER_FAILURE_MS = 2000;
/** Redis takes integers; "no deadline" becomes a day. */
const LONGEST_WAIT_MS = 86_400_000;

/**
 * Buckets shared through Redis. Redis down or slow never stops a call: commands fail fast (no offline queue,
 * a short timeout), the caller falls back to its local bucket, and one warning is logged per outage.
 */
export function createRedisBuckets(options: RedisBucketsOptions): SharedBuckets {
  const { logger } = options;
  const prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const where = describeRedisUrl(options.url);
  const client = new Redis(options.url, {
    enableOfflineQueue: false,
    commandTimeout: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(100 * 2 ** (attempt - 1), MAX_RECONNECT_DELAY_MS),
    // Named, so CLIENT LIST shows which connections hold the limits (and tests can wait for them).
    connectionName: CONNECTION_NAME,
  }) as ScriptedRedis;
  // defineCommand sends EVALSHA and loads the script again when Redis restarted without it.
  client.defineCommand('takeToken', { numberOfKeys: 1, lua: TAKE_TOKEN_SCRIPT });

  let available = true;
  let pausedUntil = 0;
  const reportFailure = (error: unknown): void => {
    const reason = error instanceof Error ? error.message : String(error);
    if (available) {
      available = false;
      logger.warn({ redis: where, reason }, 'outbound rate limits: Redis unavailable; each replica limits on its own until it returns');
    } else {
      logger.debug({ redis: where, reason }, 'outbound rate limits: Redis still unavailable');
    }
  };
  const reportSuccess = (): void => {
    if (available) return;
    available = true;
    logger.info({ redis: where }, 'outbound rate limits: Redis is back; limits are shared again');
  };
  // Without a listener ioredis prints every reconnect failure to the console.
  client.on('error', reportFailure);
  client.on('ready', () => {
    pausedUntil = 0;
  });

  return {
    async reserve(key, limit, maxWaitMs) {
      if (client.status !== 'ready' || Date.now() < pausedUntil) return undefined;
      try {
        const { msPerRequest, burstMs } = bucketShape(limit);
        const [granted, waitMs] = await client.takeToken(prefix + key, msPerRequest, burstMs, Math.max(0, Math.min(LONGEST_WAIT_MS, maxWaitMs)));
        reportSuccess();
        return granted === 1 ? { granted: true, waitMs } : { granted: false, retryAfterMs: waitMs };
      } catch (error) {
        pausedUntil = Date.now() + PAUSE_AFTER_FAILURE_MS;
        reportFailure(error);
        return undefined;
      }
    },

    async close() {
      await closeRedisClient(client, reportFailure);
    },
  };
}
