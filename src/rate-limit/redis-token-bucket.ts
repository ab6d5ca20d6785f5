import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Redis } from 'ioredis';
import { openFailFastRedis } from '../transport/redis-connection.js';
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

/** Outbound bucket keys after the service's REDIS_KEY_PREFIX. */
export const OUTBOUND_BUCKET_KEYS = 'ratelimit:v1:';
const DEFAULT_KEY_PREFIX = `fedsearch:${OUTBOUND_BUCKET_KEYS}`;
export const CONNECTION_NAME = 'fedsearch-outbound-rate-limits';
const DEFAULT_COMMAND_TIMEOUT_MS = 250;
/** Redis takes integers; "no deadline" becomes a day. */
const LONGEST_WAIT_MS = 86_400_000;

/**
 * Buckets shared through Redis. Redis down or slow never stops a call: commands fail fast (no offline queue,
 * a short timeout), the caller falls back to its local bucket, and one warning is logged per outage.
 */
export function createRedisBuckets(options: RedisBucketsOptions): SharedBuckets {
  const prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const redis = openFailFastRedis<ScriptedRedis>(
    {
      url: options.url,
      logger: options.logger,
      purpose: 'outbound rate limits',
      whileDown: 'each replica limits on its own',
      commandTimeoutMs: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
      // Named, so CLIENT LIST shows which connections hold the limits (and tests can wait for them).
      connectionName: CONNECTION_NAME,
    },
    (client) => {
      // defineCommand sends EVALSHA and loads the script again when Redis restarted without it.
      client.defineCommand('takeToken', { numberOfKeys: 1, lua: TAKE_TOKEN_SCRIPT });
      return client as ScriptedRedis;
    },
  );

  return {
    async reserve(key, limit, maxWaitMs) {
      const { msPerRequest, burstMs } = bucketShape(limit);
      const reply = await redis.attempt((client) =>
        client.takeToken(prefix + key, msPerRequest, burstMs, Math.max(0, Math.min(LONGEST_WAIT_MS, maxWaitMs))),
      );
      if (reply === undefined) return undefined;
      const [granted, waitMs] = reply;
      return granted === 1 ? { granted: true, waitMs } : { granted: false, retryAfterMs: waitMs };
    },

    close: () => redis.close(),
  };
}
