import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../support/redis-server.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

/** The inbound limiter's command timeout (transport/redis-connection.ts): a request this slow waited it out. */
const COMMAND_TIMEOUT_MS = 500;
const RATE_LIMIT_MAX = 1000;

async function remainingAfterRequest(service: RunningService): Promise<number> {
  const response = await request(service.origin, '/v1/providers');
  expect(response.status).toBe(200);
  return Number(response.headers.get('x-ratelimit-remaining'));
}

describeWithRedis('the inbound rate limiter while Redis is stalled', () => {
  let redis: RedisServer;
  let upstream: FakeUpstream;
  let replicaA: RunningService;
  let replicaB: RunningService;

  beforeAll(async () => {
    redis = await startRedisServer();
    upstream = await startFakeUpstream();
    const env = { ...providerEnv(upstream.origin), REDIS_URL: redis.url, RATE_LIMIT_MAX: String(RATE_LIMIT_MAX), LOG_LEVEL: 'warn' };
    replicaA = await startService(env);
    replicaB = await startService(env);
  });
  afterAll(async () => {
    redis.resume();
    await replicaA.stop();
    await replicaB.stop();
    await upstream.stop();
    await redis.stop();
  });

  it('lets requests pass at once after the first one waits out the command timeout, then counts in Redis again', async () => {
    // Both limiters count in Redis before the stall: one request on each, the second sees the first's count.
    await expect.poll(async () => (await remainingAfterRequest(replicaA)) - (await remainingAfterRequest(replicaB))).toBe(1);
    redis.stall();
    const durations: number[] = [];
    try {
      for (let index = 0; index < 8; index += 1) {
        const started = performance.now();
        const response = await request(replicaA.origin, '/v1/providers');
        durations.push(performance.now() - started);
        expect(response.status).toBe(200);
      }
    } finally {
      redis.resume();
    }
    // One request pays the timeout; the rest skip Redis until it answers again (without that every one of them would).
    const waitedOut = durations.filter((duration) => duration >= COMMAND_TIMEOUT_MS);
    expect(waitedOut.length, `durations: ${durations.map(Math.round).join(', ')} ms`).toBeGreaterThanOrEqual(1);
    expect(waitedOut.length, `durations: ${durations.map(Math.round).join(', ')} ms`).toBeLessThanOrEqual(2);
    // One warning for the episode, not one per request; it names where Redis is, never its password.
    expect(replicaA.logs.filter((line) => line.includes('"level":40') && line.includes('rate limits: Redis unavailable')).length).toBe(1);

    // After the pause the two replicas share one count again.
    await expect
      .poll(async () => (await remainingAfterRequest(replicaA)) - (await remainingAfterRequest(replicaB)), { timeout: 10_000, interval: 200 })
      .toBe(1);
  }, 30_000);
});
