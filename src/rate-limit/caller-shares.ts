import type { RateLimit } from './rate-limit-setting.js';
import { bucketShape, wholeMs } from './token-bucket.js';

/**
 * The calls of one caller waiting for slots of one bucket, by the time each leaves. A bucket hands out slots first
 * come, first served, so without a share one caller's burst reserved every slot up to the deadline, and every
 * other caller of the replica was refused (`rate_limited`) for as long as that caller kept sending.
 */
export class CallerWaits {
  private readonly leaving: number[] = [];

  constructor(
    readonly bucket: string,
    readonly caller: string,
  ) {}

  /**
   * Undefined while this caller may wait for another slot before a deadline `maxWaitMs` away; otherwise how long
   * until its first waiting call leaves, freeing a place. Its share is half the slots that fit before the deadline
   * (at least one): the other half stays for the other callers, whose calls would otherwise come after all of its.
   * CallerShares passes the shorter of its own deadline and the other callers' (see BucketCallers.refused).
   */
  pastShare(limit: RateLimit, maxWaitMs: number, now: number): number | undefined {
    if (this.leaving.length === 0) return undefined;
    const share = Math.max(1, Math.floor(maxWaitMs / bucketShape(limit).msPerRequest / 2));
    if (this.leaving.length < share) return undefined;
    return Math.max(1, wholeMs(Math.min(...this.leaving) - now));
  }

  add(leavesAt: number): void {
    this.leaving.push(leavesAt);
  }

  /** A waiting call now knows when it leaves (its slot's start), no longer only its deadline. */
  retime(from: number, to: number): void {
    const at = this.leaving.indexOf(from);
    if (at >= 0) this.leaving[at] = to;
  }

  /** Takes one waiting call off; whether none is left. */
  remove(leavesAt: number): boolean {
    const at = this.leaving.indexOf(leavesAt);
    if (at >= 0) this.leaving.splice(at, 1);
    return this.leaving.length === 0;
  }
}

/** A caller's refusal: until when it counts as contention, and the deadline's length it was refused within. */
interface Refusal {
  until: number;
  maxWaitMs: number;
}

/** Who is using one bucket: the callers with calls waiting, and those refused a slot lately. */
class BucketCallers {
  readonly waiting = new Map<string, CallerWaits>();
  /**
   * Caller → its refusal, which counts as contention for its deadline's length after it. That length bounds the
   * others' shares too: held to half the slots before a deadline of its own (30 s at 1/s: fifteen calls waiting), a
   * caller kept a queue longer than another's whole deadline (5 s), whose every call found no slot before it, and was
   * refused for as long as the first kept its share full.
   */
  readonly refused = new Map<string, Refusal>();

  /**
   * Undefined when no caller other than `caller` contends for this bucket; else the shortest deadline (ms) of those
   * refused for want of a slot lately, Infinity when they only have calls waiting. Forgets refusals that no longer count.
   */
  contendingWaitBesides(caller: string, now: number): number | undefined {
    const { waiting, refused } = this;
    let shortest = waiting.size > 1 || (waiting.size === 1 && !waiting.has(caller)) ? Infinity : undefined;
    for (const [other, refusal] of refused) {
      if (refusal.until <= now) refused.delete(other);
      else if (other !== caller) shortest = Math.min(shortest ?? Infinity, refusal.maxWaitMs);
    }
    return shortest;
  }

  get unused(): boolean {
    return this.waiting.size === 0 && this.refused.size === 0;
  }
}

/**
 * Every caller's waiting calls, per bucket, in this process. Counted per replica, not in Redis: the share keeps one
 * caller from taking all of a replica's waiting places, and a caller spread over replicas has a share at each.
 * The share holds only while another caller contends for the bucket: a lone caller (a private instance's one agent)
 * keeps every slot that fits before its deadline, as without the share.
 */
export class CallerShares {
  private readonly buckets = new Map<string, BucketCallers>();

  /**
   * CallerWaits.pastShare for this caller of this bucket while another caller contends for it; undefined when it has
   * no call waiting or no other caller contends.
   */
  pastShare(bucket: string, caller: string, limit: RateLimit, maxWaitMs: number, now: number): number | undefined {
    const callers = this.buckets.get(bucket);
    const waits = callers?.waiting.get(caller);
    if (!callers || !waits) return undefined;
    const othersWaitMs = callers.contendingWaitBesides(caller, now);
    if (othersWaitMs === undefined) return undefined;
    return waits.pastShare(limit, Math.min(maxWaitMs, othersWaitMs), now);
  }

  /** A call of this caller waits for its slot until `leavesAt` at the latest: release() it once the wait is over, however it ends. */
  add(bucket: string, caller: string, leavesAt: number): CallerWaits {
    const callers = this.callersOf(bucket);
    let waits = callers.waiting.get(caller);
    if (!waits) {
      waits = new CallerWaits(bucket, caller);
      callers.waiting.set(caller, waits);
    }
    waits.add(leavesAt);
    return waits;
  }

  /**
   * This caller was refused a slot (none before its deadline, or past its share) at `now`: for `maxWaitMs` (its
   * deadline's length) the other callers of the bucket are held to their shares, so that its next calls find room.
   */
  refused(bucket: string, caller: string, now: number, maxWaitMs: number): void {
    const callers = this.callersOf(bucket);
    const earlier = callers.refused.get(caller);
    const counts = earlier !== undefined && earlier.until > now;
    callers.refused.set(caller, {
      until: Math.max(counts ? earlier.until : 0, now + maxWaitMs),
      maxWaitMs: counts ? Math.min(earlier.maxWaitMs, maxWaitMs) : maxWaitMs,
    });
  }

  /** One waiting call has left (its slot came, or its caller went away): a caller with none left is forgotten. */
  release(waits: CallerWaits, leavesAt: number, now: number): void {
    if (!waits.remove(leavesAt)) return;
    const callers = this.buckets.get(waits.bucket);
    if (callers?.waiting.get(waits.caller) !== waits) return;
    callers.waiting.delete(waits.caller);
    // Prunes the refusals that no longer count, so that a bucket nobody uses any more is forgotten.
    callers.contendingWaitBesides(waits.caller, now);
    if (callers.unused) this.buckets.delete(waits.bucket);
  }

  private callersOf(bucket: string): BucketCallers {
    let callers = this.buckets.get(bucket);
    if (!callers) {
      callers = new BucketCallers();
      this.buckets.set(bucket, callers);
    }
    return callers;
  }
}
