import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectPaced, recordBraveArrivals } from '../support/arrivals.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

describe('outbound rate limit (BRAVE_RATE_LIMIT=2/s)', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let arrivals: number[];

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    arrivals = recordBraveArrivals(upstream);
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'k-123456', BRAVE_RATE_LIMIT: '2/s', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('never sends Brave more than 2 requests in any second (plus a burst of 1); the rest report rate_limited', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, async (_, index) => {
        const response = await request(service.origin, `/v1/search/web?q=parallel+agent+${index}&providers=brave&timeout_ms=3000`);
        expect(response.status).toBe(200);
        return (await response.json()).providers[0];
      }),
    );
    const { ok, limited } = expectPaced(answers, arrivals, 3);
    // 3 s at 2/s plus the burst of 1 is all the slots a 3 s deadline can hold.
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(arrivals.length).toBeLessThanOrEqual(7);
    for (const outcome of limited) {
      expect(outcome).toMatchObject({ code: 'PROVIDER_RATE_LIMITED', count: 0 });
      expect(outcome.retry_after_ms).toBeGreaterThan(0);
      expect(outcome.message).toMatch(/outbound rate limit 2\/s \(BRAVE_RATE_LIMIT\)/);
    }

    const metrics = await (await request(service.origin, '/metrics')).text();
    expect(metrics).toContain(`fedsearch_provider_rate_limited_total{provider="brave"} ${limited.length}`);
    expect(metrics).toContain(`fedsearch_provider_outcomes_total{provider="brave",status="rate_limited"} ${limited.length}`);
    const waited = /fedsearch_provider_rate_limit_wait_seconds_count\{provider="brave"\} (\d+)/.exec(metrics);
    expect(Number(waited?.[1])).toBeGreaterThanOrEqual(1);
  });

  it('does not count its own refusals against the provider: the breaker stays closed', async () => {
    const body = await (await request(service.origin, '/v1/providers')).json();
    const brave = body.providers.find((provider: { name: string }) => provider.name === 'brave');
    expect(brave.health).toMatchObject({ state: 'closed', consecutive_failures: 0 });
  });
});

describe('an outbound rate limit behind a concurrency queue (BRAVE_RATE_LIMIT=10/s, BRAVE_CONCURRENCY=1)', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    service = await startService({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'brave-key-0123456789',
      BRAVE_RATE_LIMIT: '10/s',
      BRAVE_CONCURRENCY: '1',
      BRAVE_TIMEOUT_MS: '5000',
      CACHE_TTL_SECONDS: '0',
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('sends requests a slot apart even when their calls waited for a place meanwhile', async () => {
    const arrivals: number[] = [];
    upstream.on('/brave/res/v1/web/search', {
      kind: 'handler',
      handle: (_recorded, response) => {
        arrivals.push(performance.now());
        // The first answer is slow, so that the others' slots would pass while they wait for its place; the rest are instant.
        setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end('{"web":{"results":[]}}'), arrivals.length === 1 ? 450 : 0);
      },
    });
    const outcomes = await Promise.all(
      Array.from({ length: 4 }, async (_, index) => ((await (await request(service.origin, `/v1/search/web?q=paced+${index}&providers=brave`)).json()) as { providers: Array<{ status: string }> }).providers[0]!),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
    // 10/s with a burst of one. The second call gets its place only once the first is answered, 450 ms after the first
    // arrived, and takes a slot then; each later one a slot (100 ms) after the one before, never one that passed while
    // it waited for its place (a burst). So the k-th arrival after the first comes at least 450 + 100 × (k − 1) ms after
    // it, a little less for the timers' rounding. Counted from the first arrival, whose answer's timer starts the rest:
    // a request that leaves late on a loaded machine only comes later, so the bound holds whatever the load, while a
    // burst puts the third and fourth within a few ms of the second.
    const sinceFirst = arrivals.slice(1).map((at) => at - arrivals[0]!);
    sinceFirst.forEach((elapsed, index) => expect(elapsed).toBeGreaterThanOrEqual(450 + 100 * index - 10));
  });
});

describe('a bad outbound rate limit', () => {
  it('refuses to start, naming the variable and what is allowed', async () => {
    await expect(startService({ BRAVE_RATE_LIMIT: 'fast', LOG_LEVEL: 'silent' })).rejects.toThrow(
      /BRAVE_RATE_LIMIT: expected N\/s, N\/Ns, N\/min, N\/Nmin or N\/h \(e\.g\. 1\/s, 1\/3s, 100\/min\), or off, got "fast"/,
    );
  });
});
