import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ANSWER_KEYS } from '../../src/engine/cached-answer.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { describeWithRedis } from '../support/redis-server.js';
import { startSharedReplicas, type SharedReplicas } from '../support/shared-replicas.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE_PATH = '/brave/res/v1/web/search';

describeWithRedis('two replicas sharing one Redis', () => {
  let redis: RedisServer;
  let upstream: FakeUpstream;
  let replicaA: RunningService;
  let replicaB: RunningService;

  beforeAll(async () => {
    redis = await startRedisServer();
    upstream = await startFakeUpstream();
    upstream.json(BRAVE_PATH, { web: { results: [{ title: 'Shared', url: 'https://shared.example/' }] } });
    const env = { ...providerEnv(upstream.origin), BRAVE_API_KEY: 'k-123456', REDIS_URL: redis.url };
    replicaA = await startService(env);
    replicaB = await startService(env);
  });
  afterAll(async () => {
    await replicaA.stop();
    await replicaB.stop();
    await upstream.stop();
    await redis.stop();
  });

  it('serves an answer one replica found from the other, without asking the provider again', async () => {
    const first = await (await request(replicaA.origin, '/v1/search/web?q=shared+cache&providers=brave')).json();
    const calls = upstream.requestsTo(BRAVE_PATH).length;
    const second = await (await request(replicaB.origin, '/v1/search/web?q=shared+cache&providers=brave')).json();
    expect(first.cached).toBe(false);
    expect(second.cached).toBe(true);
    expect(second.results).toEqual(first.results);
    expect(upstream.requestsTo(BRAVE_PATH).length).toBe(calls);
  });

  it('searches again when the shared entry is not an answer it can serve, and replaces it', async () => {
    const raw = new Redis(redis.url);
    try {
      // What another writer might have left: each not an answer, or one whose results are of the wrong types.
      const foreignEntries = ['{}', '[1,2]', '{"results":[{"title":1}],"providers":[],"depth":11,"cached_at":0}'];
      for (const [index, foreign] of foreignEntries.entries()) {
        const path = `/v1/search/web?q=foreign+entry+${index}&providers=brave`;
        const before = new Set(await raw.keys(`fedsearch:${ANSWER_KEYS}*`));
        expect((await request(replicaA.origin, path)).status).toBe(200);
        const key = (await raw.keys(`fedsearch:${ANSWER_KEYS}*`)).find((candidate) => !before.has(candidate))!;
        await raw.set(key, foreign, 'PX', 60_000);

        const calls = upstream.requestsTo(BRAVE_PATH).length;
        const response = await request(replicaB.origin, path);
        expect(response.status).toBe(200);
        expect(await response.json()).toMatchObject({ cached: false, results: [{ title: 'Shared', url: 'https://shared.example/' }] });
        expect(upstream.requestsTo(BRAVE_PATH).length).toBe(calls + 1);
        await expect.poll(async () => JSON.parse((await raw.get(key)) ?? '{}').results?.[0]?.title).toBe('Shared');
      }
    } finally {
      raw.disconnect();
    }
  });

  it('keeps answering, from the local cache and the providers, when Redis goes down', async () => {
    await redis.kill();
    const response = await request(replicaA.origin, '/v1/search/web?q=redis+is+down&providers=brave');
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.providers[0]).toMatchObject({ status: 'ok', count: 1 });
    const again = await (await request(replicaA.origin, '/v1/search/web?q=redis+is+down&providers=brave')).json();
    expect(again.cached).toBe(true);
    await expect.poll(() => replicaA.logs.some((line) => line.includes('unavailable'))).toBe(true);
  });
});

describeWithRedis('partial answers in the shared cache', () => {
  let replicas: SharedReplicas;

  beforeAll(async () => {
    replicas = await startSharedReplicas({ BRAVE_API_KEY: 'k-123456' });
  });
  afterAll(() => replicas.stop());

  /** The lifetimes Redis holds for the answers written so far, in ms. */
  const lifetimes = async () => Promise.all((await replicas.raw.keys('fedsearch:answer:*')).map((key) => replicas.raw.pttl(key)));

  it('keeps an answer with a failed provider 15 s at most, a complete one for CACHE_TTL_SECONDS, and tells the other replica its age', async () => {
    replicas.upstream.json(BRAVE_PATH, { error: 'down' }, 500);
    const started = Date.now();
    const partial = await (await request(replicas.a.origin, '/v1/search/web?q=provider&providers=brave,local')).json();
    expect(partial.providers.find((outcome: { provider: string }) => outcome.provider === 'brave')).toMatchObject({ status: 'error' });
    await expect.poll(lifetimes).toHaveLength(1);
    const [partialLifetime] = await lifetimes();
    expect(partialLifetime).toBeGreaterThan(0);
    expect(partialLifetime).toBeLessThanOrEqual(15_000);

    const fromB = await (await request(replicas.b.origin, '/v1/search/web?q=provider&providers=brave,local')).json();
    expect(fromB.cached).toBe(true);
    expect(fromB.cache_age_ms).toBeGreaterThanOrEqual(0);
    expect(fromB.cache_age_ms).toBeLessThanOrEqual(Date.now() - started);

    replicas.upstream.json(BRAVE_PATH, { web: { results: [{ title: 'Whole', url: 'https://whole.example/' }] } });
    await request(replicas.a.origin, '/v1/search/web?q=whole+answer&providers=brave,local');
    await expect.poll(lifetimes).toHaveLength(2);
    expect(Math.max(...(await lifetimes()))).toBeGreaterThan(15_000);
  });
});

describeWithRedis('rate limits shared through Redis', () => {
  let redis: RedisServer;
  let replicaA: RunningService;
  let replicaB: RunningService;

  beforeAll(async () => {
    redis = await startRedisServer();
    const env = { REDIS_URL: redis.url, RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000', LOG_LEVEL: 'silent' };
    replicaA = await startService(env);
    replicaB = await startService(env);
  });
  afterAll(async () => {
    await replicaA.stop();
    await replicaB.stop();
    await redis.stop();
  });

  it('counts one caller across replicas', async () => {
    const path = '/v1/search/web?q=provider&providers=local';
    const statuses = [
      (await request(replicaA.origin, path)).status,
      (await request(replicaB.origin, path)).status,
      (await request(replicaA.origin, path)).status,
    ];
    expect(statuses).toEqual([200, 200, 200]);
    const limited = await request(replicaB.origin, path);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).not.toBeNull();
  });
});

describeWithRedis('two deployments sharing one Redis under different REDIS_KEY_PREFIX', () => {
  let redis: RedisServer;
  let raw: Redis;
  let upstream: FakeUpstream;
  let production: RunningService;
  let staging: RunningService;

  beforeAll(async () => {
    redis = await startRedisServer();
    raw = new Redis(redis.url);
    upstream = await startFakeUpstream();
    upstream.json(BRAVE_PATH, { web: { results: [{ title: 'Prefixed', url: 'https://prefixed.example/' }] } });
    // One request a window per client: a count shared across the deployments would refuse the second one's first request.
    const env = { ...providerEnv(upstream.origin), BRAVE_API_KEY: 'k-123456', BRAVE_RATE_LIMIT: '50/s', REDIS_URL: redis.url, RATE_LIMIT_MAX: '1' };
    production = await startService(env);
    staging = await startService({ ...env, REDIS_KEY_PREFIX: 'staging:' });
  });
  afterAll(async () => {
    raw.disconnect();
    await production.stop();
    await staging.stop();
    await upstream.stop();
    await redis.stop();
  });

  it('neither serves the other an answer nor counts its callers, and writes every key under its own prefix', async () => {
    const path = '/v1/search/web?q=prefixed+deployments&providers=brave';
    const fromProduction = await request(production.origin, path);
    expect(fromProduction.status).toBe(200);
    expect((await fromProduction.json()).cached).toBe(false);
    await expect.poll(async () => (await raw.keys(`fedsearch:${ANSWER_KEYS}*`)).length).toBe(1);

    const calls = upstream.requestsTo(BRAVE_PATH).length;
    const fromStaging = await request(staging.origin, path);
    expect(fromStaging.status).toBe(200);
    expect((await fromStaging.json()).cached).toBe(false);
    expect(upstream.requestsTo(BRAVE_PATH).length).toBe(calls + 1);
    await expect.poll(async () => (await raw.keys(`staging:${ANSWER_KEYS}*`)).length).toBe(1);

    const keys = await raw.keys('*');
    const staged = keys.filter((key) => key.startsWith('staging:'));
    expect(staged.some((key) => key.startsWith('staging:client-limit:v1:'))).toBe(true);
    expect(staged.some((key) => key.startsWith('staging:ratelimit:v1:'))).toBe(true);
    expect(keys.filter((key) => !key.startsWith('staging:')).every((key) => key.startsWith('fedsearch:'))).toBe(true);
    // Each deployment's one allowed request is spent, in its own count.
    expect((await request(production.origin, path)).status).toBe(429);
    expect((await request(staging.origin, path)).status).toBe(429);
  });
});
