import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

/** The advice after a 5xx (engine/status-error.ts): the provider's own failure, to wait out. */
const RETRY_LATER = '; retry later';
const BRAVE_PATH = '/brave/res/v1/web/search';
const braveBody = JSON.stringify({ type: 'search', web: { results: [{ title: 'Up again', url: 'https://brave.example/up' }] } });

/**
 * A service whose brave instance asks a fake upstream, started for the enclosing describe, with a search of brave
 * alone (a new query each time, so nothing is shared or cached) and brave's health as /v1/providers reports it.
 */
function braveService(env: Record<string, string>) {
  const running = {} as { upstream: FakeUpstream; service: RunningService };
  let query = 0;
  beforeAll(async () => {
    running.upstream = await startFakeUpstream();
    running.service = await startService({ ...providerEnv(running.upstream.origin), BRAVE_API_KEY: 'k-123456', CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'silent', ...env });
  });
  afterAll(async () => {
    await running.service.stop();
    await running.upstream.stop();
  });
  return {
    upstream: () => running.upstream,
    braveSearch: async (extra = '') => {
      query += 1;
      const body = await (await request(running.service.origin, `/v1/search/web?q=resilience+${query}&providers=brave${extra}`)).json();
      return body.providers[0];
    },
    braveHealth: async () => {
      const body = await (await request(running.service.origin, '/v1/providers')).json();
      return body.providers.find((provider: { name: string }) => provider.name === 'brave').health;
    },
  };
}

describe('upstream resilience', () => {
  /**
   * The search and the health check made while the breaker is open must both fit inside its cooldown. At 300 ms one
   * slow round trip on a busy 2-core CI machine let the breaker turn half-open first, and the search meant to be
   * refused became its probe; 2 s holds them with room, and waiting it out costs the test under 2 s.
   */
  const COOLDOWN_MS = 2000;
  const { upstream, braveSearch, braveHealth } = braveService({ BREAKER_FAILURES: '3', BREAKER_COOLDOWN_MS: String(COOLDOWN_MS) });

  it('suspends a provider after consecutive failures, reports when it will retry, and recovers after a probe', async () => {
    upstream().json(BRAVE_PATH, { error: 'down' }, 500);
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await braveSearch()).status).toBe('error');
    const before = upstream().requestsTo(BRAVE_PATH).length;
    const suspended = await braveSearch();
    expect(suspended).toMatchObject({ status: 'suspended', code: 'PROVIDER_SUSPENDED', message: 'suspended after 3 consecutive failures' });
    expect(suspended.retry_after_ms).toBeGreaterThan(0);
    expect(suspended.retry_after_ms).toBeLessThanOrEqual(COOLDOWN_MS);
    expect(upstream().requestsTo(BRAVE_PATH).length).toBe(before);
    expect(await braveHealth()).toMatchObject({ state: 'open', consecutive_failures: 3, last_error: { message: `HTTP 500: the provider is failing on its side${RETRY_LATER}` } });

    upstream().json(BRAVE_PATH, braveBody);
    await expect.poll(async () => (await braveHealth()).state, { timeout: COOLDOWN_MS + 5000 }).toBe('half-open');
    expect(await braveSearch()).toMatchObject({ status: 'ok', count: 1 });
    expect(await braveHealth()).toMatchObject({ state: 'closed', consecutive_failures: 0 });
  });

  it('suspends a provider for as long as its 429 Retry-After asks', async () => {
    upstream().json(BRAVE_PATH, { error: 'slow down' }, 429, { 'retry-after': '30' });
    expect(await braveSearch()).toMatchObject({ status: 'error', code: 'PROVIDER_RATE_LIMITED', retry_after_ms: 30_000 });
    const suspended = await braveSearch();
    expect(suspended.status).toBe('suspended');
    expect(suspended.retry_after_ms).toBeGreaterThan(25_000);
    expect(suspended.message).toContain('Retry-After');
  });
});

describe('failures a caller causes do not suspend a provider for everyone', () => {
  const { upstream, braveSearch, braveHealth } = braveService({ BRAVE_TIMEOUT_MS: '2000', BREAKER_FAILURES: '3' });

  it('a deadline shorter than the provider\'s own is reported as a timeout and not counted by the breaker', async () => {
    upstream().on(BRAVE_PATH, { kind: 'respond', status: 200, headers: { 'content-type': 'application/json' }, body: braveBody, delayMs: 400 });
    for (let attempt = 0; attempt < 4; attempt += 1) {
      expect(await braveSearch('&timeout_ms=100')).toMatchObject({ status: 'timeout', code: 'PROVIDER_TIMEOUT' });
    }
    expect(await braveHealth()).toMatchObject({ state: 'closed', consecutive_failures: 0 });
    expect(await braveSearch()).toMatchObject({ status: 'ok', count: 1 });
  });

  it('an upstream\'s 4xx refusal of what was asked is reported and not counted; its 5xx are', async () => {
    upstream().json(BRAVE_PATH, { error: 'bad query' }, 422);
    for (let attempt = 0; attempt < 4; attempt += 1) {
      expect(await braveSearch()).toMatchObject({ status: 'error', code: 'PROVIDER_HTTP', message: expect.stringContaining('HTTP 422') });
    }
    expect(await braveHealth()).toMatchObject({ state: 'closed', consecutive_failures: 0 });
    upstream().json(BRAVE_PATH, { error: 'down' }, 500);
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await braveSearch()).status).toBe('error');
    expect(await braveSearch()).toMatchObject({ status: 'suspended', code: 'PROVIDER_SUSPENDED' });
  });
});

describe('one retry within the deadline', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'k-123456', CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const flaky = (first: 'reset' | 503 | 502 | 500) => {
    let calls = 0;
    upstream.on(BRAVE_PATH, {
      kind: 'handler',
      handle: (recorded, response) => {
        calls += 1;
        if (calls > 1) return void response.writeHead(200, { 'content-type': 'application/json' }).end(braveBody);
        if (first === 'reset') return void response.socket?.destroy();
        response.writeHead(first, { 'content-type': 'application/json' }).end('{"error":"gateway"}');
      },
    });
    return () => calls;
  };

  it.each(['reset', 503, 502] as const)('retries once after %s and answers', async (first) => {
    const calls = flaky(first);
    const body = await (await request(service.origin, `/v1/search/web?q=retry+${first}&providers=brave`)).json();
    expect(body.providers[0]).toMatchObject({ status: 'ok', count: 1 });
    expect(calls()).toBe(2);
  });

  it('does not retry a 500', async () => {
    const calls = flaky(500);
    const body = await (await request(service.origin, '/v1/search/web?q=no+retry&providers=brave')).json();
    expect(body.providers[0]).toMatchObject({ status: 'error', code: 'PROVIDER_HTTP', message: `HTTP 500: the provider is failing on its side${RETRY_LATER}` });
    expect(calls()).toBe(1);
  });

  it('does not retry when the time left is shorter than the failed attempt took', async () => {
    let calls = 0;
    upstream.on(BRAVE_PATH, {
      kind: 'handler',
      handle: (_recorded, response) => {
        calls += 1;
        setTimeout(() => response.writeHead(503).end(), 200);
      },
    });
    const body = await (await request(service.origin, '/v1/search/web?q=late+retry&providers=brave&timeout_ms=300')).json();
    expect(['error', 'timeout']).toContain(body.providers[0].status);
    expect(calls).toBe(1);
  });
});

describe('an upstream that says when to come back', () => {
  const { upstream, braveSearch } = braveService({ BREAKER_MAX_COOLDOWN_MS: '60000' });

  it('is not retried at once after a 503 with Retry-After, and is suspended for that long', async () => {
    upstream().json(BRAVE_PATH, { error: 'maintenance' }, 503, { 'retry-after': '45' });
    expect(await braveSearch()).toMatchObject({ status: 'error', code: 'PROVIDER_HTTP', retry_after_ms: 45_000, message: 'HTTP 503: the provider is failing on its side; retry after 45 s' });
    expect(upstream().requestsTo(BRAVE_PATH)).toHaveLength(1);
    const suspended = await braveSearch();
    expect(suspended.status).toBe('suspended');
    expect(suspended.retry_after_ms).toBeGreaterThan(40_000);
    expect(suspended.retry_after_ms).toBeLessThanOrEqual(45_000);
  });
});

describe('a Retry-After past the longest suspension', () => {
  const { upstream, braveSearch } = braveService({ BREAKER_MAX_COOLDOWN_MS: '60000' });

  it('suspends the provider for BREAKER_MAX_COOLDOWN_MS at most', async () => {
    upstream().json(BRAVE_PATH, { error: 'slow down' }, 429, { 'retry-after': '99999999999' });
    expect((await braveSearch()).status).toBe('error');
    const suspended = await braveSearch();
    expect(suspended.status).toBe('suspended');
    expect(suspended.retry_after_ms).toBeLessThanOrEqual(60_000);
  });
});

describe('a retry that gets no outbound slot in time', () => {
  // One slot every 2 s against a 1 s timeout: the first request has its slot, a retry cannot have one.
  const { upstream, braveSearch, braveHealth } = braveService({ BRAVE_RATE_LIMIT: '1/2s', BRAVE_TIMEOUT_MS: '1000', BREAKER_FAILURES: '1' });

  it("answers with the upstream's failure, which the breaker counts, not with our rate limit", async () => {
    upstream().json(BRAVE_PATH, { error: 'gateway' }, 502);
    expect(await braveSearch()).toMatchObject({ status: 'error', code: 'PROVIDER_HTTP', message: `HTTP 502: the provider is failing on its side${RETRY_LATER}` });
    expect(upstream().requestsTo(BRAVE_PATH)).toHaveLength(1);
    expect(await braveHealth()).toMatchObject({ state: 'open' });
  });
});

describe('a POST search whose connection is reset after it was delivered', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    // Tavily reads the whole request, then the connection drops before any answer.
    upstream.on('POST /tavily/search', { kind: 'handler', handle: (_recorded, response) => void response.socket?.destroy() });
    service = await startService({ ...providerEnv(upstream.origin), TAVILY_API_KEY: 'tavily-key-0123456789', CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('is not sent again: Tavily bills each request it receives', async () => {
    const body = await (await request(service.origin, '/v1/search/web?q=billed+once&providers=tavily')).json();
    expect(body.providers[0]).toMatchObject({ provider: 'tavily', status: 'error', code: 'PROVIDER_NETWORK' });
    expect(upstream.requestsTo('/tavily/search')).toHaveLength(1);
  });
});

/**
 * A timeout that came while a call waited here (for a concurrency place or an outbound rate-limit slot) leaves the
 * upstream less than its timeout: it says nothing of the upstream's health, and a burst of ordinary searches must
 * not suspend a healthy provider for everyone.
 */
describe('the circuit breaker and time spent in our own queues', () => {
  const answering = (delayMs: number) => ({ kind: 'respond' as const, status: 200, headers: { 'content-type': 'application/json' }, body: braveBody, delayMs });
  const breaker = { CACHE_TTL_SECONDS: '0', BREAKER_FAILURES: '3', BREAKER_COOLDOWN_MS: '60000' };

  describe('behind the concurrency limit', () => {
    // One request at a time, each answered in 1,000 ms, against a 2,000 ms timeout: most of a burst of six waits out its
    // deadline. The margins are wide because each search's deadline counts from its request's arrival, and on a busy
    // machine the six arrive spread over some hundreds of milliseconds, or more than a second (CI, 2 cores, other test
    // processes): the k-th is sent while its own deadline still allows, so three are sent when they arrive within a
    // second, and only a spread of three seconds would let the sixth through.
    const { upstream, braveSearch, braveHealth } = braveService({ ...breaker, BRAVE_CONCURRENCY: '1', BRAVE_TIMEOUT_MS: '2000' });

    it('reports the waits as timeouts, and keeps the provider in service', async () => {
      upstream().on(BRAVE_PATH, answering(1000));
      const outcomes = await Promise.all(Array.from({ length: 6 }, () => braveSearch()));
      expect(outcomes.filter((outcome) => outcome.status === 'timeout').length).toBeGreaterThanOrEqual(3);
      expect(upstream().requestsTo(BRAVE_PATH).length).toBeLessThan(6);
      expect(await braveHealth()).toMatchObject({ state: 'closed' });
      expect(await braveSearch()).toMatchObject({ status: 'ok' });
    });
  });

  describe('behind the outbound rate limit', () => {
    // One slot every 100 ms; answers take 700 ms against a 1,000 ms timeout: a search sent after 300 ms of waiting cannot finish.
    const { upstream, braveSearch, braveHealth } = braveService({ ...breaker, BRAVE_RATE_LIMIT: '10/s', BRAVE_TIMEOUT_MS: '1000' });

    it('reports the waits as timeouts, and keeps the provider in service', async () => {
      upstream().on(BRAVE_PATH, answering(700));
      const outcomes = await Promise.all(Array.from({ length: 10 }, () => braveSearch()));
      expect(outcomes.filter((outcome) => outcome.status === 'timeout').length).toBeGreaterThanOrEqual(3);
      expect(await braveHealth()).toMatchObject({ state: 'closed' });
    });
  });

  describe('an upstream slower than its whole timeout', () => {
    const { upstream, braveSearch, braveHealth } = braveService({ ...breaker, BRAVE_TIMEOUT_MS: '300' });

    it('is still suspended after three timeouts it had all its time for', async () => {
      upstream().on(BRAVE_PATH, answering(2000));
      for (let index = 0; index < 3; index += 1) expect(await braveSearch()).toMatchObject({ status: 'timeout' });
      expect(await braveHealth()).toMatchObject({ state: 'open' });
    });
  });
});
