import { setTimeout as sleepFor } from 'node:timers/promises';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { FedsearchError } from '../domain/errors.js';
import type { RateLimit } from './rate-limit-setting.js';
import { createRedisBuckets, type SharedBuckets } from './redis-token-bucket.js';
import { CallerShares, type WaitingCall } from './caller-shares.js';
import { TokenBucket, type Reservation } from './token-bucket.js';

/**
 * No request slot before the deadline, or none while the upstream's Retry-After (heard by any replica sharing Redis)
 * lasts: the call is not made; the outcome is `rate_limited`.
 */
export class OutboundRateLimited extends FedsearchError {
  constructor(
    readonly provider: string,
    readonly limit: RateLimit,
    retryAfterMs: number,
    /** Refused for an upstream's Retry-After, not for want of a slot: every caller is refused alike. */
    readonly upstreamAskedToWait = false,
    callerShareTaken = false,
  ) {
    super(
      'PROVIDER_RATE_LIMITED',
      upstreamAskedToWait
        ? 'the upstream asked to wait (Retry-After, heard by a replica sharing this Redis): no request until then'
        : callerShareTaken
          ? `outbound rate limit ${limit.text} (${limit.variable}): this caller already has its share of the requests waiting for a slot`
          : `outbound rate limit ${limit.text} (${limit.variable}): no request slot before the deadline`,
      { retryAfterMs },
    );
  }
}

/** Every upstream request passes here first: it waits for its slot, or is refused at once. */
export interface OutboundRateLimiter {
  /**
   * Resolves when a request under `key` (a bucket: rate-limit-buckets.ts) may be sent. Waits (without polling) for
   * a slot that starts before `deadline` (in `now()` time, performance.now() by default); throws OutboundRateLimited
   * at once when the next free slot lies past it, and rejects when `signal` aborts the wait. No limit: resolves at
   * once. `provider` names the instance asking, for metrics (the key by default): a bucket's key is no label.
   * `caller` is the client key of the search asking (domain/client-key.ts): while another caller contends for this
   * bucket, a caller that already has its share of the calls waiting for it (CallerShares) is refused at once, so that
   * it cannot take every slot before the deadlines of all; a lone caller is never held to a share. A call refused for
   * want of a slot takes instead one that another caller, with more than its share waiting, took ahead (a newcomer
   * after a lone caller's burst): that caller's call asks again (CallerShares.handOver). Without `caller` (work no
   * client asked for) the call is not counted per caller.
   */
  acquire(key: string, limit: RateLimit | undefined, deadline: number, signal?: AbortSignal, provider?: string, caller?: string): Promise<void>;
  /**
   * The upstream behind bucket `key` answered with Retry-After: with Redis, every replica's acquire() for it refuses
   * until the wait is over (SharedBuckets.hold). Without Redis it does nothing: the breaker holds this replica.
   */
  hold(key: string, waitMs: number): void;
  close(): Promise<void>;
}

export interface OutboundLimiterOptions {
  /** When set, every replica using this Redis shares one bucket per key. */
  redisUrl?: string;
  /** What the buckets' keys start with (REDIS_KEY_PREFIX and OUTBOUND_BUCKET_KEYS); createRedisBuckets' default when unset. */
  redisKeyPrefix?: string;
  /** The longest upstream wait kept in, and heeded from, Redis (BREAKER_MAX_COOLDOWN_MS); createRedisBuckets' longest when unset. */
  longestHoldMs?: number;
  logger: Logger;
  /** Called for every request that had to wait for its slot (metrics), with the instance that asked. */
  onWait?(provider: string, waitMs: number): void;
  /** Called for every request refused its slot (metrics), with the instance that asked. */
  onRefused?(provider: string): void;
  /** Test seams: the clock deadlines are measured on, and how a wait is spent. */
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Replaces the Redis buckets (tests). */
  shared?: SharedBuckets;
}

/**
 * A slot Redis gave that starts at or after the deadline, as the answer's delay left it: refused, like one the bucket
 * refuses itself (the slot stays taken: erring low). A slot free at once is always taken, as the buckets do.
 */
function refusedPastDeadline(reservation: Reservation, maxWaitMs: number): Reservation {
  if (!reservation.granted || reservation.waitMs <= 0 || reservation.waitMs < maxWaitMs) return reservation;
  return { granted: false, retryAfterMs: reservation.waitMs };
}

/**
 * Outbound rate limits: one token bucket per key (the quota a provider instance spends), in Redis when REDIS_URL is set, so replicas
 * together stay under the limit, and in this process otherwise or while Redis is away. A slot that was
 * reserved and then not used (the caller went away) is not given back: erring low is what a limit is for.
 */
export function createOutboundRateLimiter(options: OutboundLimiterOptions): OutboundRateLimiter {
  const now = options.now ?? (() => performance.now());
  const sleep = options.sleep ?? ((ms: number, signal?: AbortSignal) => sleepFor(ms, undefined, { signal }));
  const shared =
    options.shared ?? (options.redisUrl ? createRedisBuckets({ url: options.redisUrl, logger: options.logger, keyPrefix: options.redisKeyPrefix, longestHoldMs: options.longestHoldMs }) : undefined);
  const local = new Map<string, TokenBucket>();
  const shares = new CallerShares();

  const reserveLocally = (key: string, limit: RateLimit, maxWaitMs: number): Reservation => {
    let bucket = local.get(key);
    if (!bucket) {
      bucket = new TokenBucket(limit, now());
      local.set(key, bucket);
    }
    return bucket.reserve(now(), maxWaitMs);
  };

  /** Reserves the next slot before the deadline: how long until it starts, or why there is none. */
  const reserve = async (key: string, limit: RateLimit, deadline: number): Promise<Reservation> => {
    const fromRedis = await shared?.reserve(key, limit, deadline - now());
    // Measured again once Redis has answered or been given up on: a stalled Redis takes its command timeout off
    // the deadline, and a slot that starts past it would only hold the call until its deadline ended it as a timeout.
    const maxWaitMs = deadline - now();
    return refusedPastDeadline(fromRedis ?? reserveLocally(key, limit, maxWaitMs), maxWaitMs);
  };

  const refuse = (provider: string, limit: RateLimit, retryAfterMs: number, upstreamAskedToWait: boolean, callerShareTaken: boolean): never => {
    options.onRefused?.(provider);
    throw new OutboundRateLimited(provider, limit, retryAfterMs, upstreamAskedToWait, callerShareTaken);
  };

  const waitFor = async (waitMs: number, provider: string, signal: AbortSignal | undefined): Promise<void> => {
    if (waitMs <= 0) return;
    options.onWait?.(provider, waitMs);
    await sleep(waitMs, signal);
  };

  /**
   * Waits for the slot starting `waitMs` from now that `call` holds; false when the slot was given up to another
   * caller before it came (CallerShares.handOver), and the call must ask again.
   */
  const waitHolding = async (call: WaitingCall, waitMs: number, signal: AbortSignal | undefined): Promise<boolean> => {
    const handedOver = new AbortController();
    call.holds(now() + waitMs, () => handedOver.abort());
    try {
      await sleep(waitMs, signal ? AbortSignal.any([signal, handedOver.signal]) : handedOver.signal);
    } catch (error) {
      if (!handedOver.signal.aborted || signal?.aborted) throw error;
    }
    // This slot's, not an earlier one's: a call handed over once and given a later slot goes when that one comes.
    return !handedOver.signal.aborted;
  };

  /** acquire() for a call some caller asked for: its share, and a slot handed over to it when it found none. */
  const acquireFor = async (caller: string, key: string, limit: RateLimit, deadline: number, signal: AbortSignal | undefined, provider: string): Promise<void> => {
    // Asked before a slot is reserved: a caller past its share (held to it only while another caller contends for
    // the bucket) would only wait, so it takes none.
    const overShare = shares.pastShare(key, caller, limit, deadline - now(), now());
    if (overShare !== undefined) {
      shares.refused(key, caller, now(), deadline - now());
      return refuse(provider, limit, overShare, false, true);
    }
    // Counted from now, until its deadline at the latest: its own calls asking at the same time (while Redis
    // answers) see it, or a burst would all pass the check above before any of them waited.
    const call = shares.add(key, caller, deadline);
    let waitingSince: number | undefined;
    try {
      for (;;) {
        const reservation = await reserve(key, limit, deadline);
        let waitMs: number;
        if (reservation.granted) waitMs = reservation.waitMs;
        else {
          // An upstream's Retry-After refuses every caller alike: no contention, and no slot to hand over.
          if (reservation.upstreamAskedToWait) return refuse(provider, limit, reservation.retryAfterMs, true, false);
          // Refused for want of a slot: a slot a caller holds past its share goes to this call instead. Without one,
          // the other callers are held to their shares for a deadline's length, so that this caller's next calls
          // find room. A call whose own slot was handed over is refused as past its share.
          const handed = call.handedOver ? undefined : shares.handOver(key, caller, limit, deadline - now(), now());
          if (handed === undefined) {
            shares.refused(key, caller, now(), deadline - now());
            return refuse(provider, limit, reservation.retryAfterMs, false, call.handedOver);
          }
          waitMs = handed - now();
        }
        if (waitMs <= 0) return;
        waitingSince ??= now();
        if (await waitHolding(call, waitMs, signal)) return;
      }
    } finally {
      // Counted once, for the time it waited, when its wait is over: a call whose slot was handed over waits again
      // (or is refused), and counting each wait as it began counted one request twice, with a wait it never made.
      if (waitingSince !== undefined) options.onWait?.(provider, now() - waitingSince);
      shares.release(call, now());
    }
  };

  return {
    async acquire(key, limit, deadline, signal, provider = key, caller) {
      if (!limit) return;
      signal?.throwIfAborted();
      if (caller !== undefined) return acquireFor(caller, key, limit, deadline, signal, provider);
      const reservation = await reserve(key, limit, deadline);
      if (!reservation.granted) return refuse(provider, limit, reservation.retryAfterMs, reservation.upstreamAskedToWait === true, false);
      return waitFor(reservation.waitMs, provider, signal);
    },
    hold(key, waitMs) {
      // Never awaited by the call that heard it: its failure is its answer, and Redis's reply adds nothing to it.
      void shared?.hold(key, waitMs);
    },
    close: async () => shared?.close(),
  };
}
