import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createOutboundRateLimiter, OutboundRateLimited, type OutboundRateLimiter } from '../../src/rate-limit/outbound-limiter.js';
import { parseRateLimit } from '../../src/rate-limit/rate-limit-setting.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../support/redis-server.js';

const PREFIX = 'fedsearch:ratelimit:v1:';
const oncePerMinute = parseRateLimit('1/min', 'TEST_RATE_LIMIT')!;
const plenty = parseRateLimit('1000/s', 'TEST_RATE_LIMIT')!;
/** The breaker's longest suspension the limiter is given (BREAKER_MAX_COOLDOWN_MS): no replica keeps a longer wait. */
const LONGEST_HOLD_MS = 600_000;
const TEN_YEARS_MS = 10 * 365 * 86_400_000;
/** A caller's own deadline: ten seconds from now. */
const inTenSeconds = (): number => performance.now() + 10_000;

/** Polls `check` until it holds, at most `timeoutMs`: for things that happen on Redis' clock. */
async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** What acquire() did: resolved (a slot), or the refusal it threw. */
async function outcomeOf(call: Promise<void>): Promise<'granted' | OutboundRateLimited> {
  try {
    await call;
    return 'granted';
  } catch (error) {
    if (error instanceof OutboundRateLimited) return error;
    throw error;
  }
}

describeWithRedis('outbound rate-limit state another writer left in the shared Redis', () => {
  let server: RedisServer;
  let raw: Redis;
  let limiter: OutboundRateLimiter;

  beforeAll(async () => {
    server = await startRedisServer();
    raw = new Redis(server.url);
    limiter = createOutboundRateLimiter({ redisUrl: server.url, logger: pino({ level: 'silent' }), longestHoldMs: LONGEST_HOLD_MS, sleep: async () => undefined });
    // Resolves once the limiter's reservations reach Redis (its connection is up).
    await eventually(async () => {
      await limiter.acquire('ready', plenty, Number.POSITIVE_INFINITY);
      return (await raw.exists(`${PREFIX}ready`)) === 1;
    });
  });
  afterAll(async () => {
    await limiter.close();
    raw.disconnect();
    await server.stop();
  });

  it('ignores an upstream wait of ten years, longer than any this service keeps, and replaces it with its own', async () => {
    await raw.set(`${PREFIX}ten-years:retry-after`, '1', 'PX', TEN_YEARS_MS);
    expect(await outcomeOf(limiter.acquire('ten-years', oncePerMinute, inTenSeconds()))).toBe('granted');

    limiter.hold('ten-years', 5000);
    await eventually(async () => (await raw.pttl(`${PREFIX}ten-years:retry-after`)) <= 5000);
    const refusal = await outcomeOf(limiter.acquire('ten-years', oncePerMinute, inTenSeconds()));
    expect(refusal).toBeInstanceOf(OutboundRateLimited);
    expect((refusal as OutboundRateLimited).retryAfterMs).toBeLessThanOrEqual(5000);
  });

  it('still heeds a wait within the longest it keeps', async () => {
    await raw.set(`${PREFIX}a-minute:retry-after`, '1', 'PX', 60_000);
    const refusal = await outcomeOf(limiter.acquire('a-minute', oncePerMinute, inTenSeconds()));
    expect(refusal).toBeInstanceOf(OutboundRateLimited);
    expect((refusal as OutboundRateLimited).retryAfterMs).toBeGreaterThan(50_000);
    expect((refusal as OutboundRateLimited).retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it.each([
    ['a reservation ten years ahead', async (key: string) => raw.set(key, String((await redisNow()) + TEN_YEARS_MS), 'PX', TEN_YEARS_MS)],
    ['a number past any float', async (key: string) => raw.set(key, '1e400')],
    ['inf', async (key: string) => raw.set(key, 'inf')],
    ['nan', async (key: string) => raw.set(key, 'nan')],
    ['a negative time', async (key: string) => raw.set(key, '-1e300')],
    ['words', async (key: string) => raw.set(key, 'not a time')],
  ])('reads a bucket holding %s as a bucket with nothing reserved', async (name, write) => {
    const key = `hostile-${name.replace(/\W+/g, '-')}`;
    await write(PREFIX + key);
    // The first caller of a fresh bucket gets its slot at once; the next one waits a minute, past its deadline.
    expect(await outcomeOf(limiter.acquire(key, oncePerMinute, inTenSeconds()))).toBe('granted');
    const second = await outcomeOf(limiter.acquire(key, oncePerMinute, inTenSeconds()));
    expect(second).toBeInstanceOf(OutboundRateLimited);
    expect((second as OutboundRateLimited).retryAfterMs).toBeGreaterThan(50_000);
    expect((second as OutboundRateLimited).retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  /** Redis' clock in ms, which the bucket's times are on. */
  async function redisNow(): Promise<number> {
    const [seconds, micros] = await raw.time();
    return Number(seconds) * 1000 + Number(micros) / 1000;
  }
});
