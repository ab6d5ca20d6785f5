import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Redis } from 'ioredis';
import { openFailFastRedis } from '../transport/redis-connection.js';
import type { RateLimit } from './rate-limit-setting.js';
import { bucketShape, type Reservation } from './token-bucket.js';

/**
 * The bucket of token-bucket.ts on state in Redis, in one atomic script, so every replica draws from the
 * same bucket. Redis's own clock (TIME) is the only clock: replicas' clocks never have to agree.
 * KEYS[1] the bucket (the time its reservations run until), KEYS[2] its upstream's wait (HOLD_SCRIPT); ARGV ms per
 * request, burst in ms, longest acceptable wait in ms, longest wait any caller accepts (LONGEST_WAIT_MS), longest
 * upstream wait kept. Returns {1, wait ms} for a slot taken, {0, ms until the next one} for a refusal, {2, ms left}
 * while the upstream's wait lasts (no token is taken then).
 * Whoever can write to the Redis can leave anything under these keys. A wait longer than this replica keeps, or
 * reservations running further ahead than any caller's slot could (a day past the burst), were not written by this
 * service: they are read as none, so that no other writer holds a provider for years (nor a "nan" or "inf" for ever).
 */
const TAKE_TOKEN_SCRIPT = `
local held = redis.call('PTTL', KEYS[2])
if held > 0 and held <= tonumber(ARGV[5]) then return {2, held} end
local msPerRequest = tonumber(ARGV[1])
local burstMs = tonumber(ARGV[2])
local maxWait = tonumber(ARGV[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local kept = tonumber(redis.call('GET', KEYS[1]))
local from = now
if kept and kept > now and kept - now <= burstMs + msPerRequest + tonumber(ARGV[4]) then from = kept end
local wait = math.max(0, math.ceil(from - burstMs - now - 0.000001))
if wait > 0 and wait >= maxWait then return {0, wait} end
local reservedUntil = from + msPerRequest
-- Once its reservations have run out the key says nothing a missing key does not: let it go then.
redis.call('SET', KEYS[1], string.format('%.3f', reservedUntil), 'PX', math.ceil(reservedUntil - now) + 1000)
return {1, wait}
`;

/**
 * The upstream asked to wait (Retry-After): KEYS[1] lives ARGV[1] ms, unless a longer wait is kept there already (one
 * no longer than ARGV[2], the longest kept: a longer one is another writer's, which TAKE_TOKEN_SCRIPT ignores). The
 * key's lifetime is the wait, so it can never outstay it, and Redis's clock measures it for every replica.
 */
const HOLD_SCRIPT = `
local ms = tonumber(ARGV[1])
local kept = redis.call('PTTL', KEYS[1])
if kept < ms or kept > tonumber(ARGV[2]) then redis.call('SET', KEYS[1], '1', 'PX', ms) end
return 1
`;

type ScriptedRedis = Redis & {
  takeToken(bucketKey: string, holdKey: string, msPerRequest: number, burstMs: number, maxWaitMs: number, longestWaitMs: number, longestHoldMs: number): Promise<[number, number]>;
  holdUpstream(holdKey: string, ms: number, longestHoldMs: number): Promise<number>;
};

export interface SharedBuckets {
  /** The reservation from Redis, or undefined when Redis cannot answer now (the caller limits locally). */
  reserve(key: string, limit: RateLimit, maxWaitMs: number): Promise<Reservation | undefined>;
  /**
   * The upstream behind bucket `key` asked to wait `waitMs` (Retry-After): every replica's reserve() refuses until then
   * (at most LONGEST_HOLD_MS). Redis away: nothing is kept, and each replica's breaker holds only itself, as before.
   */
  hold(key: string, waitMs: number): Promise<void>;
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
  /**
   * The longest upstream wait this replica keeps, and heeds when another replica kept it (its breaker's longest
   * suspension, BREAKER_MAX_COOLDOWN_MS); at most, and by default, LONGEST_HOLD_MS.
   */
  longestHoldMs?: number;
}

/** Outbound bucket keys after the service's REDIS_KEY_PREFIX. */
export const OUTBOUND_BUCKET_KEYS = 'ratelimit:v1:';
const DEFAULT_KEY_PREFIX = `fedsearch:${OUTBOUND_BUCKET_KEYS}`;
export const CONNECTION_NAME = 'fedsearch-outbound-rate-limits';
const DEFAULT_COMMAND_TIMEOUT_MS = 250;
/** Redis takes integers; "no deadline" becomes a day. */
const LONGEST_WAIT_MS = 86_400_000;
/** The longest upstream wait kept for every replica: a Retry-After of a year (or a date mistyped) must not outlive an hour. */
const LONGEST_HOLD_MS = 3_600_000;
/** Where a bucket's upstream wait is kept: beside the bucket, under its name (a bucket's name never ends so). */
const HOLD_KEY_SUFFIX = ':retry-after';

/**
 * Buckets shared through Redis. Redis down or slow never stops a call: commands fail fast (no offline queue,
 * a short timeout), the caller falls back to its local bucket, and one warning is logged per outage.
 */
export function createRedisBuckets(options: RedisBucketsOptions): SharedBuckets {
  const prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const longestHoldMs = Math.ceil(Math.min(options.longestHoldMs ?? LONGEST_HOLD_MS, LONGEST_HOLD_MS));
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
      client.defineCommand('takeToken', { numberOfKeys: 2, lua: TAKE_TOKEN_SCRIPT });
      client.defineCommand('holdUpstream', { numberOfKeys: 1, lua: HOLD_SCRIPT });
      return client as ScriptedRedis;
    },
  );

  return {
    async reserve(key, limit, maxWaitMs) {
      const { msPerRequest, burstMs } = bucketShape(limit);
      const bucketKey = prefix + key;
      const reply = await redis.attempt((client) =>
        client.takeToken(bucketKey, bucketKey + HOLD_KEY_SUFFIX, msPerRequest, burstMs, Math.max(0, Math.min(LONGEST_WAIT_MS, maxWaitMs)), LONGEST_WAIT_MS, longestHoldMs),
      );
      if (reply === undefined) return undefined;
      const [granted, waitMs] = reply;
      if (granted === 1) return { granted: true, waitMs };
      return granted === 2 ? { granted: false, retryAfterMs: waitMs, upstreamAskedToWait: true } : { granted: false, retryAfterMs: waitMs };
    },

    async hold(key, waitMs) {
      const ms = Math.ceil(Math.min(waitMs, longestHoldMs));
      if (!(ms > 0)) return;
      await redis.attempt((client) => client.holdUpstream(prefix + key + HOLD_KEY_SUFFIX, ms, longestHoldMs));
    },

    close: () => redis.close(),
  };
}
