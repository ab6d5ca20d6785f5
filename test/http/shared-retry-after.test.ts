import { afterAll, beforeAll, expect, it } from 'vitest';
import { CONNECTION_NAME } from '../../src/rate-limit/redis-token-bucket.js';
import { describeWithRedis } from '../support/redis-server.js';
import { request } from '../support/service.js';
import { startSharedReplicas, type SharedReplicas } from '../support/shared-replicas.js';

const BRAVE_PATH = '/brave/res/v1/web/search';
/** What the upstream asks for: long enough that no test run could outlast it. */
const RETRY_AFTER_S = 60;
/** Where the replicas keep an upstream's wait: beside the bucket of the quota it spends. */
const HOLD_KEYS = 'fedsearch:ratelimit:v1:*:retry-after';
const TAVILY_PATH = '/tavily/search';

type Outcome = { provider: string; status: string; code?: string; retry_after_ms?: number; message?: string };

/** Polls `check` until it holds, at most `timeoutMs`: for connections being made on the OS's clock. */
async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function outcomeOf(origin: string, words: string, provider = 'brave'): Promise<Outcome> {
  const response = await request(origin, `/v1/search/web?q=${encodeURIComponent(words)}&providers=${provider}`);
  expect(response.status).toBe(200);
  const answer = (await response.json()) as { providers: Outcome[] };
  return answer.providers.find((outcome) => outcome.provider === provider)!;
}

describeWithRedis("an upstream's Retry-After heard by one replica holds every replica sharing Redis", () => {
  let replicas: SharedReplicas;

  beforeAll(async () => {
    // An outbound limit far above what the test sends: only the upstream's own wait may hold a request back.
    // Tavily's limit stays off (providerEnv): a provider with no bucket has nothing to share its wait through.
    replicas = await startSharedReplicas({ BRAVE_API_KEY: 'brave-test-key-1', BRAVE_RATE_LIMIT: '100/s', TAVILY_API_KEY: 'tavily-test-key-1' });
    replicas.upstream.json(BRAVE_PATH, { error: 'slow down' }, 429, { 'retry-after': String(RETRY_AFTER_S) });
    replicas.upstream.json(TAVILY_PATH, { error: 'slow down' }, 429, { 'retry-after': String(RETRY_AFTER_S) });
    // Both limiters must be connected first, or a replica would (rightly) limit on its own.
    await eventually(async () => {
      const clients = (await replicas.raw.client('LIST')) as string;
      return clients.split('\n').filter((line) => line.includes(`name=${CONNECTION_NAME}`)).length >= 2;
    });
  });
  afterAll(() => replicas?.stop());

  it('sends nothing from the other replica until the wait is over, and says how long is left', async () => {
    const first = await outcomeOf(replicas.a.origin, 'first replica hears 429');
    expect(first).toMatchObject({ status: 'error', code: 'PROVIDER_RATE_LIMITED', retry_after_ms: RETRY_AFTER_S * 1000 });
    expect(replicas.upstream.requestsTo(BRAVE_PATH)).toHaveLength(1);
    // The first replica tells Redis as the 429 arrives, without holding its answer for the reply: wait for it to land.
    await eventually(async () => (await replicas.raw.keys(HOLD_KEYS)).length > 0);

    const other = await outcomeOf(replicas.b.origin, 'second replica must wait');
    // Not sent: the upstream still heard only the first request.
    expect(replicas.upstream.requestsTo(BRAVE_PATH)).toHaveLength(1);
    expect(other).toMatchObject({ status: 'rate_limited', code: 'PROVIDER_RATE_LIMITED' });
    expect(other.message).toMatch(/Retry-After/);
    expect(other.retry_after_ms).toBeGreaterThan((RETRY_AFTER_S - 10) * 1000);
    expect(other.retry_after_ms).toBeLessThanOrEqual(RETRY_AFTER_S * 1000);
  });

  it('keeps the wait in Redis under the bucket, for no longer than the upstream asked', async () => {
    const holds = await replicas.raw.keys(HOLD_KEYS);
    expect(holds).toHaveLength(1);
    expect(holds[0]).toMatch(/^fedsearch:ratelimit:v1:brave@/);
    const leftMs = await replicas.raw.pttl(holds[0]!);
    expect(leftMs).toBeGreaterThan(0);
    expect(leftMs).toBeLessThanOrEqual(RETRY_AFTER_S * 1000);
  });

  it('asks Redis nothing for a provider with no outbound limit: its own breaker holds only its replica, as before', async () => {
    const first = await outcomeOf(replicas.a.origin, 'unlimited provider hears 429', 'tavily');
    expect(first).toMatchObject({ status: 'error', code: 'PROVIDER_RATE_LIMITED', retry_after_ms: RETRY_AFTER_S * 1000 });
    expect(await replicas.raw.keys('fedsearch:ratelimit:v1:tavily*')).toEqual([]);
  });

  it('leaves nothing in Redis that never expires: answers, buckets, waits and per-client counters all have a lifetime', async () => {
    // An answer to keep: Tavily answers now, asked of the replica whose breaker did not hear its 429.
    replicas.upstream.json(TAVILY_PATH, { results: [{ title: 'Kept', url: 'https://kept.example/', content: 'an answer' }] });
    expect(await outcomeOf(replicas.b.origin, 'an answer to keep', 'tavily')).toMatchObject({ status: 'ok' });
    // An answer does not wait for its copy to be kept.
    await expect.poll(async () => (await replicas.raw.keys('fedsearch:answer:*')).length).toBeGreaterThan(0);
    const keys = await replicas.raw.keys('*');
    // The searches above left some of each kind.
    for (const kind of ['answer:', 'ratelimit:', ':retry-after', 'client-limit:']) expect(keys.some((key) => key.includes(kind)), kind).toBe(true);
    const lifetimes = await Promise.all(keys.map(async (key) => [key, await replicas.raw.pttl(key)] as const));
    expect(lifetimes.filter(([, leftMs]) => leftMs <= 0)).toEqual([]);
  });
});
