import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../support/redis-server.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE_PATH = '/brave/res/v1/web/search';

/**
 * Replicas sharing one Redis (and one REDIS_KEY_PREFIX) while their provider settings differ: a rolling deploy
 * that adds a key or changes a weight, or one replica started without a secret. An answer is only as good as the
 * configuration that gathered it, so one replica must never serve another's under a different configuration.
 */
describeWithRedis('replicas sharing one Redis with different provider settings', () => {
  let redis: RedisServer;
  let upstream: FakeUpstream;
  let raw: Redis;
  const replicas: RunningService[] = [];

  const start = async (env: Record<string, string>): Promise<RunningService> => {
    const replica = await startService({ ...providerEnv(upstream.origin), REDIS_URL: redis.url, CACHE_TTL_SECONDS: '300', LOG_LEVEL: 'silent', ...env });
    replicas.push(replica);
    return replica;
  };

  /** How many answers Redis holds: a replica's write does not hold up its answer, so a test waits for it to land. */
  const answersKept = async (): Promise<number> => (await raw.keys('fedsearch:answer:*')).length;

  beforeAll(async () => {
    redis = await startRedisServer();
    raw = new Redis(redis.url);
    upstream = await startFakeUpstream();
    upstream.json(BRAVE_PATH, { web: { results: [{ title: 'Configured', url: 'https://configured.example/' }] } });
  });
  afterAll(async () => {
    raw.disconnect();
    for (const replica of replicas) await replica.stop();
    await upstream.stop();
    await redis.stop();
  });

  it('does not serve "not_configured" from a replica without the key to one that has it', async () => {
    const withoutKey = await start({});
    const withKey = await start({ BRAVE_API_KEY: 'test-key-1' });
    const path = '/v1/search/web?q=rolling+deploy&providers=brave,local';

    const kept = await answersKept();
    const first = await (await request(withoutKey.origin, path)).json();
    expect(first.providers.find((outcome: { provider: string }) => outcome.provider === 'brave')).toMatchObject({ status: 'not_configured' });
    await expect.poll(answersKept).toBe(kept + 1);

    const second = await (await request(withKey.origin, path)).json();
    expect(second.providers.find((outcome: { provider: string }) => outcome.provider === 'brave')).toMatchObject({ status: 'ok', count: 1 });
    expect(second.results.map((result: { url: string }) => result.url)).toContain('https://configured.example/');
  });

  it('explains a score by the weight of the replica answering, not that of the one that gathered it', async () => {
    const light = await start({ BRAVE_API_KEY: 'test-key-1', BRAVE_WEIGHT: '1' });
    const heavy = await start({ BRAVE_API_KEY: 'test-key-1', BRAVE_WEIGHT: '3' });
    const path = '/v1/search/web?q=weighted+replicas&providers=brave&explain=true';

    const kept = await answersKept();
    const first = await (await request(light.origin, path)).json();
    expect(first.results[0].explain).toMatchObject([{ provider: 'brave', weight: 1 }]);
    await expect.poll(answersKept).toBe(kept + 1);

    const second = await (await request(heavy.origin, path)).json();
    expect(second.results[0].explain).toMatchObject([{ provider: 'brave', weight: 3 }]);
  });

  it('still shares answers between replicas configured alike', async () => {
    const one = await start({ BRAVE_API_KEY: 'test-key-1' });
    const other = await start({ BRAVE_API_KEY: 'test-key-1' });
    const path = '/v1/search/web?q=alike+replicas&providers=brave';

    const kept = await answersKept();
    expect((await (await request(one.origin, path)).json()).cached).toBe(false);
    await expect.poll(answersKept).toBe(kept + 1);
    const calls = upstream.requestsTo(BRAVE_PATH).length;
    expect((await (await request(other.origin, path)).json()).cached).toBe(true);
    expect(upstream.requestsTo(BRAVE_PATH).length).toBe(calls);
  });
});
