import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createOutboundRateLimiter, OutboundRateLimited } from '../../src/rate-limit/outbound-limiter.js';
import { parseRateLimit } from '../../src/rate-limit/rate-limit-setting.js';

const quiet: FastifyBaseLogger = pino({ level: 'silent' });
const twoPerSecond = parseRateLimit('2/s', 'BRAVE_RATE_LIMIT')!;

/** A limiter on a clock that stands still, whose waits are recorded and end at once. */
function standingClockLimiter() {
  const slept: number[] = [];
  const waits: Array<[string, number]> = [];
  const refused: string[] = [];
  const limiter = createOutboundRateLimiter({
    logger: quiet,
    now: () => 0,
    sleep: async (ms) => void slept.push(ms),
    onWait: (key, ms) => void waits.push([key, ms]),
    onRefused: (key) => void refused.push(key),
  });
  return { limiter, slept, waits, refused };
}

describe('outbound rate limiter (local)', () => {
  it('lets callers that fit before the deadline wait their turn and refuses the rest with the time of the next slot', async () => {
    const { limiter, slept, waits, refused } = standingClockLimiter();
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => limiter.acquire('brave', twoPerSecond, 1200)));
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected']);
    expect(slept).toEqual([500, 1000]);
    expect(waits).toEqual([
      ['brave', 500],
      ['brave', 1000],
    ]);
    expect(refused).toEqual(['brave', 'brave']);
    const refusal = (results[3] as PromiseRejectedResult).reason as OutboundRateLimited;
    expect(refusal).toBeInstanceOf(OutboundRateLimited);
    expect(refusal).toMatchObject({ code: 'PROVIDER_RATE_LIMITED', retryAfterMs: 1500 });
    expect(refusal.message).toMatch(/2\/s \(BRAVE_RATE_LIMIT\)/);
  });

  it('keeps one bucket per key', async () => {
    const { limiter, slept } = standingClockLimiter();
    await limiter.acquire('brave', twoPerSecond, 10_000);
    await limiter.acquire('arxiv', twoPerSecond, 10_000);
    expect(slept).toEqual([]);
  });

  it('reports waits and refusals under the instance that asked, not under the bucket it shares', async () => {
    const { limiter, waits, refused } = standingClockLimiter();
    await limiter.acquire('brave@api.search.brave.com#0123456789abcdef', twoPerSecond, 600, undefined, 'brave');
    await limiter.acquire('brave@api.search.brave.com#0123456789abcdef', twoPerSecond, 600, undefined, 'brave-news');
    const refusal = limiter.acquire('brave@api.search.brave.com#0123456789abcdef', twoPerSecond, 600, undefined, 'brave-news');
    await expect(refusal).rejects.toMatchObject({ provider: 'brave-news' });
    expect(waits).toEqual([['brave-news', 500]]);
    expect(refused).toEqual(['brave-news']);
  });

  it('lets everything through at once when there is no limit', async () => {
    const { limiter, slept, refused } = standingClockLimiter();
    await Promise.all(Array.from({ length: 50 }, () => limiter.acquire('searxng', undefined, 0)));
    expect(slept).toEqual([]);
    expect(refused).toEqual([]);
  });

  it('stops waiting when the caller aborts', async () => {
    const limiter = createOutboundRateLimiter({ logger: quiet });
    const slow = parseRateLimit('1/min', 'ARXIV_RATE_LIMIT')!;
    await limiter.acquire('arxiv', slow, Number.POSITIVE_INFINITY);
    const controller = new AbortController();
    const waiting = limiter.acquire('arxiv', slow, Number.POSITIVE_INFINITY, controller.signal);
    controller.abort(new Error('client went away'));
    await expect(waiting).rejects.toThrow();
    const aborted = new AbortController();
    aborted.abort(new Error('already gone'));
    await expect(limiter.acquire('arxiv', slow, Number.POSITIVE_INFINITY, aborted.signal)).rejects.toThrow('already gone');
  });
});
