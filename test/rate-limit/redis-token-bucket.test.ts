import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createOutboundRateLimiter, OutboundRateLimited, type OutboundRateLimiter } from '../../src/rate-limit/outbound-limiter.js';
import { parseRateLimit } from '../../src/rate-limit/rate-limit-setting.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../support/redis-server.js';

const PREFIX = 'fedsearch:ratelimit:v1:';
const WARN = 40;
const INFO = 30;
const DEBUG = 20;
const oncePerMinute = parseRateLimit('1/min', 'TEST_RATE_LIMIT')!;
const twoPerSecond = parseRateLimit('2/s', 'TEST_RATE_LIMIT')!;
const plenty = parseRateLimit('1000/s', 'TEST_RATE_LIMIT')!;

interface LogLine {
  level: number;
  msg: string;
}

/** A plain client for looking at keys; quiet about the outage the test causes on purpose. */
function rawClient(url: string): Redis {
  const client = new Redis(url);
  client.on('error', () => undefined);
  return client;
}

/** Polls `check` until it holds, at most `timeoutMs`: for things that happen on Redis' or the OS's clock. */
async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeWithRedis('outbound rate limits shared through Redis', () => {
  let server: RedisServer;
  let raw: Redis;
  const opened: OutboundRateLimiter[] = [];

  /** A limiter on the test's Redis whose waits are recorded and end at once, and whose log lines are kept. */
  function open(): { limiter: OutboundRateLimiter; slept: number[]; lines: LogLine[] } {
    const slept: number[] = [];
    const lines: LogLine[] = [];
    const logger: FastifyBaseLogger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
    const limiter = createOutboundRateLimiter({ redisUrl: server.url, logger, sleep: async (ms) => void slept.push(ms) });
    opened.push(limiter);
    return { limiter, slept, lines };
  }

  /** Resolves once the limiter's reservations reach Redis (its connection is up). */
  async function shared(limiter: OutboundRateLimiter): Promise<void> {
    const key = `ready-${Math.random().toString(36).slice(2)}`;
    await eventually(async () => {
      await limiter.acquire(key, plenty, Number.POSITIVE_INFINITY);
      return (await raw.exists(PREFIX + key)) === 1;
    });
  }

  beforeAll(async () => {
    server = await startRedisServer();
    raw = rawClient(server.url);
  });
  afterAll(async () => {
    await Promise.all(opened.map((limiter) => limiter.close()));
    raw.disconnect();
    await server.stop();
  });

  it('gives two replicas one bucket: each caller waits behind the other\'s reservations', async () => {
    const a = open();
    const b = open();
    await Promise.all([shared(a.limiter), shared(b.limiter)]);
    await a.limiter.acquire('together', oncePerMinute, Number.POSITIVE_INFINITY);
    await b.limiter.acquire('together', oncePerMinute, Number.POSITIVE_INFINITY);
    await a.limiter.acquire('together', oncePerMinute, Number.POSITIVE_INFINITY);
    // Slots are a minute apart on Redis' clock; the few milliseconds between the calls come off the wait.
    expect(b.slept).toHaveLength(1);
    expect(b.slept[0]).toBeGreaterThan(59_000);
    expect(b.slept[0]).toBeLessThanOrEqual(60_000);
    expect(a.slept).toHaveLength(1);
    expect(a.slept[0]).toBeGreaterThan(119_000);
    expect(a.slept[0]).toBeLessThanOrEqual(120_000);
    await expect(b.limiter.acquire('together', oncePerMinute, 100_000)).rejects.toBeInstanceOf(OutboundRateLimited);
  });

  it('keeps its keys under a prefix and lets them expire once the reservations have run out', async () => {
    const { limiter } = open();
    await shared(limiter);
    await limiter.acquire('expiring', oncePerMinute, Number.POSITIVE_INFINITY);
    const ttl = await raw.pttl(`${PREFIX}expiring`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(61_000);
  });

  it("refuses every replica's slots while an upstream's wait (Retry-After) heard by one of them lasts, taking none", async () => {
    const a = open();
    const b = open();
    await Promise.all([shared(a.limiter), shared(b.limiter)]);
    a.limiter.hold('asked-to-wait', 60_000);
    await eventually(async () => (await raw.exists(`${PREFIX}asked-to-wait:retry-after`)) === 1);
    const refused = await b.limiter.acquire('asked-to-wait', plenty, Number.POSITIVE_INFINITY).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(OutboundRateLimited);
    expect((refused as OutboundRateLimited).message).toMatch(/asked to wait \(Retry-After/);
    expect((refused as OutboundRateLimited).retryAfterMs).toBeGreaterThan(50_000);
    expect((refused as OutboundRateLimited).retryAfterMs).toBeLessThanOrEqual(60_000);
    // No token was taken: the bucket itself was never written.
    expect(await raw.exists(`${PREFIX}asked-to-wait`)).toBe(0);
  });

  it("keeps the longer of two waits, and no wait longer than an hour, each key expiring with its wait", async () => {
    const { limiter } = open();
    await shared(limiter);
    limiter.hold('longer', 60_000);
    limiter.hold('longer', 1000);
    limiter.hold('a-year', 365 * 86_400_000);
    // Commands on one connection are answered in order: once this one is through, so are the holds before it.
    await limiter.acquire('after-holds', plenty, Number.POSITIVE_INFINITY);
    expect(await raw.pttl(`${PREFIX}longer:retry-after`)).toBeGreaterThan(50_000);
    const yearLeft = await raw.pttl(`${PREFIX}a-year:retry-after`);
    expect(yearLeft).toBeGreaterThan(3_500_000);
    expect(yearLeft).toBeLessThanOrEqual(3_600_000);
  });

  it('measures a slot against what is left of the deadline once a stalled Redis has been waited out', async () => {
    const { limiter, slept } = open();
    await shared(limiter);
    server.stall();
    let results: Array<PromiseSettledResult<void>>;
    const deadline = performance.now() + 600;
    try {
      // Under 2/s the second slot starts 500 ms after the first: before the deadline when asked, not once the
      // command timeout (250 ms) has passed, with about 350 ms left.
      results = await Promise.allSettled([limiter.acquire('stalled', twoPerSecond, deadline), limiter.acquire('stalled', twoPerSecond, deadline)]);
    } finally {
      server.resume();
    }
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected']);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(OutboundRateLimited);
    expect(slept.filter((ms) => ms > 0)).toEqual([]);
  });

  it('refuses a slot Redis gives late that then starts past the deadline', async () => {
    const { limiter, slept } = open();
    await shared(limiter);
    server.stall();
    // Redis answers after 150 ms, within the command timeout (250 ms): the second slot, 500 ms after the first on
    // Redis' clock, then starts past the deadline, which has about 450 ms left.
    const resume = setTimeout(() => server.resume(), 150);
    const deadline = performance.now() + 600;
    let results: Array<PromiseSettledResult<void>>;
    try {
      results = await Promise.allSettled([limiter.acquire('late', twoPerSecond, deadline), limiter.acquire('late', twoPerSecond, deadline)]);
    } finally {
      clearTimeout(resume);
      server.resume();
    }
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected']);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(OutboundRateLimited);
    expect(slept.filter((ms) => ms > 0)).toEqual([]);
  });

  it('limits each replica on its own while Redis is down, warns once, and shares again when it returns', async () => {
    const { limiter, slept, lines } = open();
    await shared(limiter);
    const port = server.port;
    await server.kill();
    await eventually(() => lines.some((line) => line.level === WARN));
    // Reconnect attempts keep failing; each is a debug line, never another warning.
    await eventually(() => lines.filter((line) => line.level === DEBUG).length >= 2);

    const results = await Promise.allSettled(Array.from({ length: 5 }, () => limiter.acquire('outage', twoPerSecond, performance.now() + 1200)));
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected']);
    expect(slept.filter((ms) => ms > 0)).toHaveLength(2);
    expect(lines.filter((line) => line.level === WARN)).toHaveLength(1);
    expect(lines.find((line) => line.level === WARN)!.msg).toMatch(/Redis unavailable; each replica limits on its own/);

    server = await startRedisServer({ port });
    raw.disconnect();
    raw = rawClient(server.url);
    await shared(limiter);
    expect(lines.some((line) => line.level === INFO && /Redis is back/.test(line.msg))).toBe(true);
    expect(lines.filter((line) => line.level === WARN)).toHaveLength(1);
  });
});
