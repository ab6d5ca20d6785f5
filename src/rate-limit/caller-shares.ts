import type { RateLimit } from './rate-limit-setting.js';
import { bucketShape, wholeMs } from './token-bucket.js';

/**
 * One call waiting for a slot of one bucket. While it holds a slot that starts later and its caller has more than its
 * share waiting, the slot may be given up to another caller refused one (CallerShares.handOver): its wait then ends
 * early, and it asks for a slot again.
 */
export class WaitingCall {
  /** When it leaves: its deadline while it asks for a slot, then its slot's start. */
  leavesAt: number;
  /** Its slot went to another caller (it asks again; refused, it is refused as past its share). */
  handedOver = false;
  /** Ends the wait for the slot it holds; unset while it asks for one (Redis answering). */
  private endWait: (() => void) | undefined;

  constructor(
    /** Its caller's calls waiting for the bucket, this one among them. */
    readonly waits: CallerWaits,
    readonly deadline: number,
  ) {
    this.leavesAt = deadline;
  }

  /** It holds the slot starting at `slotAt`, and waits for it until then or until `endWait` is called. */
  holds(slotAt: number, endWait: () => void): void {
    this.leavesAt = slotAt;
    this.endWait = endWait;
  }

  /** Whether it holds a slot starting after `now` and before `before`. */
  holdsSlotBetween(now: number, before: number): boolean {
    return this.endWait !== undefined && this.leavesAt > now && this.leavesAt < before;
  }

  /** Gives its slot up: its wait ends, and it asks again, until its deadline at the latest. */
  handOver(): void {
    const endWait = this.endWait;
    this.endWait = undefined;
    this.handedOver = true;
    this.leavesAt = this.deadline;
    endWait?.();
  }
}

/** A caller's share while another contends: half the slots that fit in `maxWaitMs`, at least one. */
function shareOf(limit: RateLimit, maxWaitMs: number): number {
  return Math.max(1, Math.floor(maxWaitMs / bucketShape(limit).msPerRequest / 2));
}

/**
 * The calls of one caller waiting for slots of one bucket. A bucket hands out slots first come, first served, so
 * without a share one caller's burst reserved every slot up to the deadline, and every other caller of the replica
 * was refused (`rate_limited`) for as long as that caller kept sending.
 */
class CallerWaits {
  readonly calls: WaitingCall[] = [];

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
    const { calls } = this;
    if (calls.length === 0 || calls.length < shareOf(limit, maxWaitMs)) return undefined;
    const first = calls.reduce((soonest, call) => Math.min(soonest, call.leavesAt), Number.POSITIVE_INFINITY);
    return Math.max(1, wholeMs(first - now));
  }

  /** Takes one waiting call off; whether none is left. */
  remove(call: WaitingCall): boolean {
    const at = this.calls.indexOf(call);
    if (at >= 0) this.calls.splice(at, 1);
    return this.calls.length === 0;
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

  /** A call of this caller waits for its slot until `deadline` at the latest: release() it once the wait is over, however it ends. */
  add(bucket: string, caller: string, deadline: number): WaitingCall {
    const callers = this.callersOf(bucket);
    let waits = callers.waiting.get(caller);
    if (!waits) {
      waits = new CallerWaits(bucket, caller);
      callers.waiting.set(caller, waits);
    }
    const call = new WaitingCall(waits, deadline);
    waits.calls.push(call);
    return call;
  }

  /**
   * `caller` was refused for want of a slot before its deadline, `maxWaitMs` away. A newcomer's first search meets
   * this when a lone caller had taken every slot up to its own, longer, deadline (nobody contended as it took them).
   * A caller with more than its share waiting (half the slots before that deadline) keeps the slots of its first
   * calls to leave, its share; the earliest of its other slots that starts before the deadline is given up to this
   * caller, and the call that held it asks for a slot again. The earliest, not the latest: the newcomer's request
   * still has its upstream's answer to wait for before its deadline. Returns the slot's start; undefined when no such
   * slot is held. A lone caller's calls are never handed over: no other caller is refused.
   */
  handOver(bucket: string, caller: string, limit: RateLimit, maxWaitMs: number, now: number): number | undefined {
    const callers = this.buckets.get(bucket);
    if (!callers) return undefined;
    const share = shareOf(limit, maxWaitMs);
    let earliest: WaitingCall | undefined;
    for (const [other, waits] of callers.waiting) {
      if (other === caller || waits.calls.length <= share) continue;
      const pastItsShare = [...waits.calls].sort((first, second) => first.leavesAt - second.leavesAt).slice(share);
      const given = pastItsShare.find((call) => call.holdsSlotBetween(now, now + maxWaitMs));
      if (given && (!earliest || given.leavesAt < earliest.leavesAt)) earliest = given;
    }
    if (!earliest) return undefined;
    const slotAt = earliest.leavesAt;
    earliest.handOver();
    return slotAt;
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
  release(call: WaitingCall, now: number): void {
    const { waits } = call;
    if (!waits.remove(call)) return;
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
