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

/** Who is using one bucket: the callers with calls waiting, and those refused a slot lately. */
class BucketCallers {
  readonly waiting = new Map<string, CallerWaits>();
  /** Caller → until when its refusal counts as contention (its deadline's length after it was refused). */
  readonly refusedUntil = new Map<string, number>();

  /**
   * Whether a caller other than `caller` contends for this bucket: has a call waiting, or was refused for want of a
   * slot within its deadline's length. Forgets refusals that no longer count.
   */
  contendedBesides(caller: string, now: number): boolean {
    const { waiting, refusedUntil } = this;
    if (waiting.size > 1 || (waiting.size === 1 && !waiting.has(caller))) return true;
    let contended = false;
    for (const [other, until] of refusedUntil) {
      if (until <= now) refusedUntil.delete(other);
      else if (other !== caller) contended = true;
    }
    return contended;
  }

  get unused(): boolean {
    return this.waiting.size === 0 && this.refusedUntil.size === 0;
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
    if (!callers || !waits || !callers.contendedBesides(caller, now)) return undefined;
    return waits.pastShare(limit, maxWaitMs, now);
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
    callers.refusedUntil.set(caller, Math.max(callers.refusedUntil.get(caller) ?? 0, now + maxWaitMs));
  }

  /** One waiting call has left (its slot came, or its caller went away): a caller with none left is forgotten. */
  release(waits: CallerWaits, leavesAt: number, now: number): void {
    if (!waits.remove(leavesAt)) return;
    const callers = this.buckets.get(waits.bucket);
    if (callers?.waiting.get(waits.caller) !== waits) return;
    callers.waiting.delete(waits.caller);
    // Prunes the refusals that no longer count, so that a bucket nobody uses any more is forgotten.
    callers.contendedBesides(waits.caller, now);
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
