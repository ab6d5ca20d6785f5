import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { braveBody } from '../mcp/mcp-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../support/redis-server.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE_PATH = '/brave/res/v1/web/search';
const BRAVE_KEY = 'brave-test-key-0123456789';

type Outcome = { provider: string; status: string };

function search(service: RunningService, words: string, timeoutMs?: number) {
  const deadline = timeoutMs === undefined ? '' : `&timeout_ms=${timeoutMs}`;
  return request(service.origin, `/v1/search/web?q=${encodeURIComponent(words)}&providers=brave,local${deadline}`).then((response) => response.json());
}

function braveStatus(answer: { providers: Outcome[] }): string | undefined {
  return answer.providers.find((outcome) => outcome.provider === 'brave')?.status;
}

describe('the answer cache and the caller\'s timeout_ms', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: BRAVE_KEY, CACHE_TTL_SECONDS: '300', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('serves a complete answer to a later caller whatever timeout_ms it gives', async () => {
    upstream.json(BRAVE_PATH, JSON.parse(braveBody('https://brave.example/complete')));
    const asked = upstream.requestsTo(BRAVE_PATH).length;
    const first = await search(service, 'complete whatever the deadline', 5000);
    expect(first.cached).toBe(false);
    expect(braveStatus(first)).toBe('ok');
    for (const timeoutMs of [8000, 1000, undefined]) {
      const again = await search(service, 'complete whatever the deadline', timeoutMs);
      expect(again.cached).toBe(true);
      expect(again.results).toEqual(first.results);
    }
    expect(upstream.requestsTo(BRAVE_PATH).length).toBe(asked + 1);
  });

  it('serves a partial answer only to callers that wait no longer than the one it was made for', async () => {
    upstream.on(BRAVE_PATH, { kind: 'hang' });
    const partial = await search(service, 'partial within its deadline', 400);
    expect(braveStatus(partial)).toBe('timeout');
    const asked = upstream.requestsTo(BRAVE_PATH).length;

    // As long, or shorter: waiting would not have found more.
    expect(await search(service, 'partial within its deadline', 400)).toMatchObject({ cached: true });
    expect(await search(service, 'partial within its deadline', 200)).toMatchObject({ cached: true });
    expect(upstream.requestsTo(BRAVE_PATH).length).toBe(asked);

    // Longer (or no timeout_ms: each provider's own): the providers are asked again, and Brave answers in time now.
    upstream.json(BRAVE_PATH, JSON.parse(braveBody('https://brave.example/in-time')));
    const longer = await search(service, 'partial within its deadline', 8000);
    expect(longer.cached).toBe(false);
    expect(braveStatus(longer)).toBe('ok');
    expect(upstream.requestsTo(BRAVE_PATH).length).toBe(asked + 1);

    // The complete answer replaced the partial one, for every caller.
    expect(await search(service, 'partial within its deadline', 400)).toMatchObject({ cached: true, results: longer.results });
  });

  it('does not serve a partial answer made within a timeout_ms to a caller that gives none', async () => {
    upstream.on(BRAVE_PATH, { kind: 'hang' });
    expect(braveStatus(await search(service, 'partial and no deadline', 300))).toBe('timeout');
    upstream.json(BRAVE_PATH, JSON.parse(braveBody('https://brave.example/no-deadline')));
    const unbounded = await search(service, 'partial and no deadline');
    expect(unbounded.cached).toBe(false);
    expect(braveStatus(unbounded)).toBe('ok');
  });

  it('lets no caller join a search in flight with another deadline', async () => {
    upstream.on(BRAVE_PATH, { kind: 'respond', headers: { 'content-type': 'application/json' }, body: braveBody('https://brave.example/slow'), delayMs: 800 });
    const asked = upstream.requestsTo(BRAVE_PATH).length;
    // Sent together: whichever arrives first, the other must run its own fan-out with its own deadline.
    const [short, long] = await Promise.all([search(service, 'two deadlines in flight', 300), search(service, 'two deadlines in flight', 8000)]);
    expect(braveStatus(short)).toBe('timeout');
    expect(braveStatus(long)).toBe('ok');
    expect(upstream.requestsTo(BRAVE_PATH).length).toBe(asked + 2);
  });
});

describeWithRedis('the shared answer cache and the caller\'s timeout_ms', () => {
  let redis: RedisServer;
  let raw: Redis;
  let upstream: FakeUpstream;
  let replicaA: RunningService;
  let replicaB: RunningService;

  beforeAll(async () => {
    redis = await startRedisServer();
    raw = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    upstream = await startFakeUpstream();
    const env = { ...providerEnv(upstream.origin), BRAVE_API_KEY: BRAVE_KEY, REDIS_URL: redis.url, CACHE_TTL_SECONDS: '300', LOG_LEVEL: 'silent' };
    replicaA = await startService(env);
    replicaB = await startService(env);
  });
  afterAll(async () => {
    raw.disconnect();
    await replicaA.stop();
    await replicaB.stop();
    await upstream.stop();
    await redis.stop();
  });

  /** The answers Redis holds, parsed. */
  const sharedAnswers = async () => Promise.all((await raw.keys('fedsearch:answer:*')).map(async (key) => JSON.parse((await raw.get(key)) ?? '{}')));

  it('serves one replica\'s complete answer to the other whatever timeout_ms it gives', async () => {
    upstream.json(BRAVE_PATH, JSON.parse(braveBody('https://brave.example/shared')));
    const asked = upstream.requestsTo(BRAVE_PATH).length;
    const first = await search(replicaA, 'shared whatever the deadline', 5000);
    expect(first.cached).toBe(false);
    await expect.poll(async () => (await sharedAnswers()).length).toBe(1);
    const fromB = await search(replicaB, 'shared whatever the deadline', 8000);
    expect(fromB.cached).toBe(true);
    expect(fromB.results).toEqual(first.results);
    expect(upstream.requestsTo(BRAVE_PATH).length).toBe(asked + 1);
  });

  it('keeps a partial answer from a caller that waits longer, and finds the better answer another replica kept', async () => {
    upstream.on(BRAVE_PATH, { kind: 'hang' });
    const words = 'shared partial answer';
    expect(braveStatus(await search(replicaA, words, 400))).toBe('timeout');
    await expect.poll(async () => (await sharedAnswers()).some((answer) => answer.partialTimeoutMs === 400)).toBe(true);
    expect(await search(replicaB, words, 400)).toMatchObject({ cached: true });

    upstream.json(BRAVE_PATH, JSON.parse(braveBody('https://brave.example/later')));
    const asked = upstream.requestsTo(BRAVE_PATH).length;
    const longer = await search(replicaB, words, 8000);
    expect(longer.cached).toBe(false);
    expect(braveStatus(longer)).toBe('ok');
    expect(upstream.requestsTo(BRAVE_PATH).length).toBe(asked + 1);
    await expect.poll(async () => (await sharedAnswers()).some((answer) => answer.partialTimeoutMs === 400)).toBe(false);

    // Replica A still holds the partial answer in process; behind it, Redis holds B's complete one.
    const fromA = await search(replicaA, words, 8000);
    expect(fromA).toMatchObject({ cached: true, results: longer.results });
    expect(upstream.requestsTo(BRAVE_PATH).length).toBe(asked + 1);
  });
});
