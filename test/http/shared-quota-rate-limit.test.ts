import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialDigest } from '../../src/rate-limit/rate-limit-buckets.js';
import { CONNECTION_NAME } from '../../src/rate-limit/redis-token-bucket.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../support/redis-server.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

/** Plainly fake keys, long enough that any trace of them in a key or a log line would be found. */
const SHARED_KEY = 'test-key-1-shared-quota';
const OTHER_KEY = 'test-key-2-other-quota';

const braveBody = { type: 'search', web: { results: [{ title: 'Brave', url: 'https://brave.example/1', description: 'b' }] } };

interface Outcome {
  provider: string;
  status: string;
  retry_after_ms?: number;
  message?: string;
}

/**
 * Three Brave instances on one host: `brave` and `brave-news` send one key (one account, one quota) and were
 * given different limits, `brave-other` sends another key.
 */
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function providersFile(origin: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'fedsearch-shared-quota-'));
  folders.push(folder);
  const file = path.join(folder, 'providers.yaml');
  const instance = (name: string, key: string, rate: string) => [
    `  - name: ${name}`,
    '    use: brave',
    `    base_url: ${origin}/${name}`,
    `    api_key: ${key}`,
    `    rate_limit: ${rate}`,
  ];
  const entries = [instance('brave', SHARED_KEY, '1/min'), instance('brave-news', '${NEWS_KEY}', '2/min'), instance('brave-other', OTHER_KEY, '1/min')];
  writeFileSync(file, ['providers:', ...entries.flat()].join('\n'));
  return file;
}

async function searchWith(service: RunningService, provider: string, query: string): Promise<Outcome> {
  const response = await request(service.origin, `/v1/search/web?q=${query}&providers=${provider}&timeout_ms=2000`);
  return (await response.json()).providers[0] as Outcome;
}

/** Polls `check` until it holds, at most `timeoutMs`: for connections being made on the OS's clock. */
async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The behaviour both set-ups share: one bucket per key and host, at the stricter limit, said once without the key. */
function expectOneBucketPerQuota(context: () => { service: RunningService; upstream: FakeUpstream }): void {
  it('holds the second instance sending one key to its shared slot, and lets another key through', async () => {
    const { service, upstream } = context();
    expect(await searchWith(service, 'brave', 'first')).toMatchObject({ provider: 'brave', status: 'ok' });
    // brave-news has a 2/min of its own and has sent nothing, but its key's quota was spent a moment ago.
    const shared = await searchWith(service, 'brave-news', 'second');
    expect(shared).toMatchObject({ provider: 'brave-news', status: 'rate_limited' });
    expect(shared.retry_after_ms).toBeGreaterThan(50_000);
    // The stricter limit applies, and the refusal names the setting that made it.
    expect(shared.message).toMatch(/outbound rate limit 1\/min \(rate_limit of brave in PROVIDERS_FILE\)/);
    expect(upstream.requestsTo('/brave-news/res/v1/web/search')).toHaveLength(0);
    expect(await searchWith(service, 'brave-other', 'third')).toMatchObject({ provider: 'brave-other', status: 'ok' });
    // Metrics count the refusal under the instance, not under its bucket (which a label would carry to every scraper).
    const metrics = await (await request(service.origin, '/metrics')).text();
    expect(metrics).toMatch(/^fedsearch_provider_rate_limited_total\{provider="brave-news"\} 1$/m);
    expect(metrics).not.toMatch(/brave@|test-key/);
  });

  it('says once at start-up which instances share a bucket and at which limit, without the key', () => {
    const { service, upstream } = context();
    const notices = service.logs.filter((line) => line.includes('spend one quota'));
    expect(notices).toHaveLength(1);
    expect(JSON.parse(notices[0]!).msg).toBe(
      `outbound rate limit: brave, brave-news spend one quota (brave at ${new URL(upstream.origin).host}, one credential) and share one bucket ` +
        'at the stricter limit, 1/min (rate_limit of brave in PROVIDERS_FILE); configured: brave 1/min, brave-news 2/min',
    );
    expect(service.logs.filter((line) => line.includes(SHARED_KEY) || line.includes(OTHER_KEY))).toEqual([]);
  });
}

describe('instances sending one key to one host share its outbound quota (in this process)', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    for (const name of ['brave', 'brave-news', 'brave-other']) upstream.json(`/${name}/res/v1/web/search`, braveBody);
    service = await startService({ ...providerEnv(upstream.origin), PROVIDERS_FILE: providersFile(upstream.origin), NEWS_KEY: SHARED_KEY });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  expectOneBucketPerQuota(() => ({ service, upstream }));
});

describeWithRedis('instances sending one key to one host share its outbound quota (through Redis)', () => {
  let redis: RedisServer;
  let raw: Redis;
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    redis = await startRedisServer();
    raw = new Redis(redis.url);
    upstream = await startFakeUpstream();
    for (const name of ['brave', 'brave-news', 'brave-other']) upstream.json(`/${name}/res/v1/web/search`, braveBody);
    service = await startService({
      ...providerEnv(upstream.origin),
      PROVIDERS_FILE: providersFile(upstream.origin),
      NEWS_KEY: SHARED_KEY,
      REDIS_URL: redis.url,
    });
    // The limiter must be connected before the first search, or its slot would (rightly) be taken locally.
    await eventually(async () => ((await raw.client('LIST')) as string).includes(`name=${CONNECTION_NAME}`));
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
    raw.disconnect();
    await redis.stop();
  });

  expectOneBucketPerQuota(() => ({ service, upstream }));

  // After the searches above, which made the buckets.
  it('keeps one Redis key per quota, named by definition, host and a digest, never by the key itself', async () => {
    const everyKey = await raw.keys('*');
    const bucketOf = (key: string) => `fedsearch:ratelimit:v1:brave@${new URL(upstream.origin).host}#${credentialDigest({ BRAVE_API_KEY: key })}`;
    const buckets = everyKey.filter((key) => key.includes('ratelimit:'));
    expect(buckets).toContain(bucketOf(SHARED_KEY));
    // brave-other's bucket is there too, unless a busy machine held its one command past the timeout (it then limited locally).
    expect(buckets.every((key) => key === bucketOf(SHARED_KEY) || key === bucketOf(OTHER_KEY))).toBe(true);
    expect(everyKey.filter((key) => key.includes(SHARED_KEY) || key.includes(OTHER_KEY))).toEqual([]);
  });
});
