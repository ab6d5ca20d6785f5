import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createOutboundRateLimiter, OutboundRateLimited } from '../../src/rate-limit/outbound-limiter.js';
import { parseRateLimit } from '../../src/rate-limit/rate-limit-setting.js';
import type { Reservation } from '../../src/rate-limit/token-bucket.js';

const quiet: FastifyBaseLogger = pino({ level: 'silent' });
const onePerSecond = parseRateLimit('1/s', 'BRAVE_RATE_LIMIT')!;
const BUCKET = 'brave@api.search.brave.com';

interface Wait {
  ms: number;
  end(): void;
}

/** A limiter on a clock the test moves, whose waits last until the test ends them (or their signal aborts them). */
function heldWaitsLimiter() {
  const clock = { at: 0 };
  const waits: Wait[] = [];
  /** What the metrics are told (onWait): one entry per request that waited, with how long. */
  const waited: number[] = [];
  const limiter = createOutboundRateLimiter({
    logger: quiet,
    onWait: (_provider, ms) => void waited.push(ms),
    now: () => clock.at,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        waits.push({ ms, end: resolve });
        signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      }),
  });
  const acquire = (caller: string | undefined, deadline: number, signal?: AbortSignal) =>
    limiter.acquire(BUCKET, onePerSecond, deadline, signal, 'brave', caller);
  return { clock, waits, waited, acquire };
}

/** Settles what can settle now: the limiter's continuations run before the test looks. */
const settled = <T>(promise: Promise<T>) => promise.then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error }));

describe('outbound slots shared between callers', () => {
  it('gives a lone caller every slot that starts before its deadline, as without the share', async () => {
    const { waits, acquire } = heldWaitsLimiter();
    // At 1/s a 5 s deadline holds the slot free at once and the four starting 1, 2, 3 and 4 s later.
    const calls = Array.from({ length: 5 }, () => acquire('key:a', 5000));
    await new Promise((resolve) => setImmediate(resolve));
    expect(waits.map((wait) => wait.ms)).toEqual([1000, 2000, 3000, 4000]);
    // The sixth would start at 5 s, at its deadline: refused by the bucket, not by a share.
    await expect(acquire('key:a', 5000)).rejects.toThrow(/no request slot before the deadline/);
    for (const wait of waits) wait.end();
    await Promise.all(calls);
  });

  it('gives a newcomer refused for want of a slot the first slot before its deadline past the share of a caller over it', async () => {
    const { clock, waits, acquire } = heldWaitsLimiter();
    const ofA = Array.from({ length: 5 }, () => settled(acquire('key:a', 5000)));
    await new Promise((resolve) => setImmediate(resolve));
    // A alone took the slot free at once and those 1, 2, 3 and 4 s later: four calls waiting, past half of the five
    // slots before B's deadline (two). B finds none of its own before its 5 s deadline: A keeps its first two waiting
    // calls' slots, and B takes the next, at 3 s.
    const ofB = acquire('key:b', 5000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(waits.map((wait) => wait.ms)).toEqual([1000, 2000, 3000, 4000, 3000]);
    // A's call that held it asks again, finds no slot before its deadline, and is refused as past its share.
    const handedOver = await ofA[3]!;
    expect(handedOver.ok).toBe(false);
    const refusal = (handedOver as { error: unknown }).error as OutboundRateLimited;
    expect(refusal).toBeInstanceOf(OutboundRateLimited);
    expect(refusal.message).toMatch(/1\/s \(BRAVE_RATE_LIMIT\): this caller already has its share/);
    expect(refusal).toMatchObject({ code: 'PROVIDER_RATE_LIMITED', retryAfterMs: 5000 });
    // B waiting, A is held to its share: with three calls waiting its next is refused at once, without a slot, until
    // its first waiting call leaves at 1 s.
    await expect(acquire('key:a', 5000)).rejects.toMatchObject({ retryAfterMs: 1000, message: expect.stringMatching(/this caller already has its share/) });
    clock.at = 4000;
    for (const wait of waits) wait.end();
    await ofB;
    const kept = await Promise.all([ofA[0]!, ofA[1]!, ofA[2]!, ofA[4]!]);
    expect(kept.every((outcome) => outcome.ok)).toBe(true);
  });

  it('queues the call whose slot was handed over after the slots taken, when one still starts before its deadline', async () => {
    const { waits, acquire } = heldWaitsLimiter();
    // A, alone, with a 10 s deadline: the slot free at once and those at 1, 2 and 3 s.
    const ofA = Array.from({ length: 4 }, () => acquire('key:a', 10_000));
    await new Promise((resolve) => setImmediate(resolve));
    // B's 3 s deadline ends before the next free slot (4 s). Its share is one slot waiting: A keeps the one at 1 s, and
    // B takes the one at 2 s; A's call that held it takes the next free slot, at 4 s, well before its deadline.
    const ofB = acquire('key:b', 3000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(waits.map((wait) => wait.ms)).toEqual([1000, 2000, 3000, 2000, 4000]);
    for (const wait of waits) wait.end();
    await Promise.all([...ofA, ofB]);
  });

  it('counts each request that waited once in the metrics, with the time it waited, its slot handed over or not', async () => {
    const { clock, waits, waited, acquire } = heldWaitsLimiter();
    // As above: A's calls hold the slots at 0, 1, 2 and 3 s; B takes the one at 2 s and A's call that held it the
    // one at 4 s. Four requests waited: A's for 1, 3 and 4 s (the last from 0 s, through its hand-over), B's for 2 s.
    const ofA = Array.from({ length: 4 }, () => acquire('key:a', 10_000));
    await new Promise((resolve) => setImmediate(resolve));
    const ofB = acquire('key:b', 3000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(waits).toHaveLength(5);
    for (const second of [1, 2, 3, 4]) {
      clock.at = second * 1000;
      for (const wait of waits.filter((held) => held.ms === clock.at)) wait.end();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all([...ofA, ofB]);
    expect([...waited].sort((first, second) => first - second)).toEqual([1000, 2000, 3000, 4000]);
  });

  it('hands over no slot of a caller within its share, nor of a caller whose slots all start past the deadline', async () => {
    const withinShare = heldWaitsLimiter();
    // A 2 s deadline at 1/s: A takes the slot free at once and the one at 1 s; one call waiting, its share (half of two).
    const ofA = Array.from({ length: 2 }, () => withinShare.acquire('key:a', 2000));
    await new Promise((resolve) => setImmediate(resolve));
    await expect(withinShare.acquire('key:b', 2000)).rejects.toThrow(/no request slot before the deadline/);
    expect(withinShare.waits.map((wait) => wait.ms)).toEqual([1000]);
    for (const wait of withinShare.waits) wait.end();
    await Promise.all(ofA);

    // Apart from B's refusal, which holds the others to half the slots before its own deadline (see the last test).
    const pastDeadline = heldWaitsLimiter();
    // C, alone, with a 7 s deadline takes the slot free at once and those at 1, 2 and 3 s: three waiting, past its
    // share of a 1 s deadline (one), but D's 1 s deadline ends before any of C's slots past that share starts.
    const ofC = Array.from({ length: 4 }, () => pastDeadline.acquire('key:c', 7000));
    await new Promise((resolve) => setImmediate(resolve));
    await expect(pastDeadline.acquire('key:d', 1000)).rejects.toThrow(/no request slot before the deadline/);
    expect(pastDeadline.waits.map((wait) => wait.ms)).toEqual([1000, 2000, 3000]);
    for (const wait of pastDeadline.waits) wait.end();
    await Promise.all(ofC);
  });

  it('stops holding a caller to its share a deadline after the other caller was refused', async () => {
    const { clock, waits, acquire } = heldWaitsLimiter();
    const ofA = Array.from({ length: 5 }, () => acquire('key:a', 5000));
    await new Promise((resolve) => setImmediate(resolve));
    // B's 1 s deadline ends before A's first waiting slot starts: nothing to hand over, B is refused.
    await expect(acquire('key:b', 1000)).rejects.toBeInstanceOf(OutboundRateLimited);
    await expect(acquire('key:a', 5000)).rejects.toThrow(/this caller already has its share/);
    // 1 s on, B's refusal no longer counts. A still has three calls waiting, past its share of a deadline 4.5 s away
    // (two), but A is alone again: it takes the next slot, at 5 s, 4 s away.
    clock.at = 1000;
    waits[0]!.end();
    await ofA[1];
    const next = acquire('key:a', 5500);
    await new Promise((resolve) => setImmediate(resolve));
    expect(waits.map((wait) => wait.ms)).toEqual([1000, 2000, 3000, 4000, 4000]);
    for (const wait of waits) wait.end();
    await Promise.all([...ofA, next]);
  });

  it("holds a caller with a long deadline to half the slots before the deadline of the caller it kept refused", async () => {
    // Waits end as the test's clock passes them, as they would in time.
    const clock = { at: 0 };
    let pending: Array<{ due: number; end(): void }> = [];
    const limiter = createOutboundRateLimiter({
      logger: quiet,
      now: () => clock.at,
      sleep: (ms) => new Promise<void>((resolve) => void pending.push({ due: clock.at + ms, end: resolve })),
    });
    /** Whether the call was given a slot before its deadline (at once, or to wait for), rather than refused. */
    const given = async (caller: string, deadlineMs: number): Promise<boolean> => {
      let refused = false;
      const call = limiter.acquire(BUCKET, onePerSecond, clock.at + deadlineMs, undefined, 'brave', caller).catch((error: unknown) => {
        if (!(error instanceof OutboundRateLimited)) throw error;
        refused = true;
      });
      calls.push(call);
      await new Promise((resolve) => setImmediate(resolve));
      return !refused;
    };
    const calls: Array<Promise<void>> = [];
    const givenTo = { a: 0, b: 0 };
    // Each second, A asks with the longest deadline a search may have (30 s) and B with the default (5 s): together
    // twice what the provider takes (1/s). Counted once A's queue from the first seconds has had time to drain.
    for (let second = 0; second < 90; second += 1) {
      const ofA = await given('key:a', 30_000);
      const ofB = await given('key:b', 5000);
      if (second >= 45) {
        givenTo.a += Number(ofA);
        givenTo.b += Number(ofB);
      }
      clock.at += 1000;
      const due = pending.filter((wait) => wait.due <= clock.at);
      pending = pending.filter((wait) => wait.due > clock.at);
      for (const wait of due) wait.end();
    }
    // The provider's 45 slots of those seconds, shared: B was refused every one while A kept fifteen calls waiting.
    expect(givenTo.b).toBeGreaterThanOrEqual(15);
    expect(givenTo.a).toBeGreaterThanOrEqual(15);
    for (const wait of pending) wait.end();
    await Promise.all(calls);
  });

  it('counts no share for work no caller asked for: it waits as before, first come, first served', async () => {
    const { waits, acquire } = heldWaitsLimiter();
    const calls = Array.from({ length: 4 }, () => acquire(undefined, 4000));
    await new Promise((resolve) => setImmediate(resolve));
    expect(waits.map((wait) => wait.ms)).toEqual([1000, 2000, 3000]);
    for (const wait of waits) wait.end();
    await Promise.all(calls);
  });

  it('counts a call from the moment it asks, so a burst cannot all pass while Redis answers', async () => {
    const answers: Array<(reservation: Reservation) => void> = [];
    const limiter = createOutboundRateLimiter({
      logger: quiet,
      now: () => 0,
      sleep: async () => undefined,
      shared: {
        reserve: () => new Promise((resolve) => answers.push(resolve)),
        hold: async () => undefined,
        close: async () => undefined,
      },
    });
    // B asks first and waits for Redis: it contends. A 2 s deadline at 1/s: A has one place (half of two slots).
    const ofB = limiter.acquire(BUCKET, onePerSecond, 2000, undefined, 'brave', 'key:b');
    const first = limiter.acquire(BUCKET, onePerSecond, 2000, undefined, 'brave', 'key:a');
    const second = settled(limiter.acquire(BUCKET, onePerSecond, 2000, undefined, 'brave', 'key:a'));
    const result = await second;
    expect(result.ok).toBe(false);
    expect(answers).toHaveLength(2);
    for (const answer of answers) answer({ granted: true, waitMs: 0 });
    await Promise.all([ofB, first]);
  });
});
