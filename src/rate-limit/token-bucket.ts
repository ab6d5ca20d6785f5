import type { RateLimit } from './rate-limit-setting.js';

/**
 * A request slot: taken (go after `waitMs`) or refused because the next free one lies past the deadline, or because
 * the upstream asked every replica to wait (`upstreamAskedToWait`: a Retry-After kept in Redis, redis-token-bucket.ts).
 */
export type Reservation = { granted: true; waitMs: number } | { granted: false; retryAfterMs: number; upstreamAskedToWait?: true };

/** The arithmetic the local bucket and the Redis script share, in milliseconds. */
export function bucketShape(limit: RateLimit): { msPerRequest: number; burstMs: number } {
  const msPerRequest = limit.intervalMs / limit.requests;
  return { msPerRequest, burstMs: (limit.burst - 1) * msPerRequest };
}

/** Whole milliseconds, rounded up; the epsilon keeps float noise (1000 / 3 × 3) from adding one. */
export function wholeMs(ms: number): number {
  return Math.max(0, Math.ceil(ms - 1e-6));
}

/**
 * A token bucket of capacity `burst` refilled at `requests / intervalMs`, kept as one number: the time its
 * reservations run until (the generic cell rate algorithm, GCRA). Reserving moves that time on by one
 * request's share, so with N callers at once the k-th waits k shares and nobody polls; a caller whose slot
 * would start at or after its deadline takes nothing. The Redis script (redis-token-bucket.ts) does the same
 * on shared state.
 */
export class TokenBucket {
  private reservedUntil: number;

  constructor(
    private readonly limit: RateLimit,
    now: number,
  ) {
    this.reservedUntil = now;
  }

  /** Takes the next slot if it starts before `maxWaitMs` from `now` (a slot free at once is always taken). */
  reserve(now: number, maxWaitMs: number): Reservation {
    const { msPerRequest, burstMs } = bucketShape(this.limit);
    const from = Math.max(this.reservedUntil, now);
    const waitMs = wholeMs(from - burstMs - now);
    if (waitMs > 0 && waitMs >= maxWaitMs) return { granted: false, retryAfterMs: waitMs };
    this.reservedUntil = from + msPerRequest;
    return { granted: true, waitMs };
  }
}
