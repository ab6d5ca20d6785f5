import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CONNECTION_NAME } from '../../src/rate-limit/redis-token-bucket.js';
import { expectPaced, recordBraveArrivals } from '../support/arrivals.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../support/redis-server.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

/** Polls `check` until it holds, at most `timeoutMs`: for connections being made on the OS's clock. */
async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeWithRedis('two service instances sharing one Redis and one outbound rate limit', () => {
  let redis: RedisServer;
  let upstream: FakeUpstream;
  let replicas: RunningService[];
  let arrivals: number[];

  beforeAll(async () => {
    redis = await startRedisServer();
    upstream = await startFakeUpstream();
    arrivals = recordBraveArrivals(upstream);
    const env = { ...providerEnv(upstream.origin), BRAVE_API_KEY: 'k-123456', BRAVE_RATE_LIMIT: '2/s', REDIS_URL: redis.url, LOG_LEVEL: 'silent' };
    replicas = [await startService(env), await startService(env)];
    // Both limiters must be connected before the burst, or a replica would (rightly) limit on its own.
    const raw = new Redis(redis.url);
    await eventually(async () => {
      const clients = (await raw.client('LIST')) as string;
      return clients.split('\n').filter((line) => line.includes(`name=${CONNECTION_NAME}`)).length >= 2;
    });
    raw.disconnect();
  });
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
    await upstream.stop();
    await redis.stop();
  });

  it('stays under the limit together: at most 2 requests in any second (plus a burst of 1) from both', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, async (_, index) => {
        const replica = replicas[index % 2]!;
        const response = await request(replica.origin, `/v1/search/web?q=two+replicas+${index}&providers=brave&timeout_ms=2000`);
        return (await response.json()).providers[0];
      }),
    );
    expect(answers).toHaveLength(20);
    expectPaced(answers, arrivals, 3);
    // One bucket for both: the burst of 1, then 2 a second over the time the requests went out in (about 2 s, each
    // request's timeout_ms, longer when a loaded machine lets the 20 arrive over a while). Two separate buckets would
    // let about twice as many go in the same time.
    const spanSeconds = (arrivals.at(-1)! - arrivals[0]!) / 1000;
    expect(arrivals.length).toBeLessThanOrEqual(2 + Math.floor(2 * spanSeconds));
  });
});
