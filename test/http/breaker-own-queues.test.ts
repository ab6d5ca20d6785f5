import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE = '/brave/res/v1/web/search';
const BODY = JSON.stringify({ web: { results: [{ title: 'Fine', url: 'https://brave.example/fine' }] } });

type Outcome = { provider: string; status: string };

/** A service whose Brave answers after `delayMs`, with a breaker that opens after three counted failures. */
function braveService(env: Record<string, string>, delayMs: number) {
  const running = {} as { upstream: FakeUpstream; service: RunningService };
  let searches = 0;
  beforeAll(async () => {
    running.upstream = await startFakeUpstream();
    running.upstream.on(BRAVE, { kind: 'respond', status: 200, headers: { 'content-type': 'application/json' }, body: BODY, delayMs });
    running.service = await startService({
      ...providerEnv(running.upstream.origin),
      BRAVE_API_KEY: 'brave-key-0123456789',
      CACHE_TTL_SECONDS: '0',
      BREAKER_FAILURES: '3',
      BREAKER_COOLDOWN_MS: '60000',
      LOG_LEVEL: 'silent',
      ...env,
    });
  });
  afterAll(async () => {
    await running.service.stop();
    await running.upstream.stop();
  });
  return {
    received: () => running.upstream.requestsTo(BRAVE).length,
    search: async (): Promise<Outcome> => {
      searches += 1;
      const body = (await (await request(running.service.origin, `/v1/search/web?q=burst+${searches}&providers=brave`)).json()) as { providers: Outcome[] };
      return body.providers[0]!;
    },
    health: async (): Promise<{ state: string }> => {
      const body = (await (await request(running.service.origin, '/v1/providers')).json()) as { providers: Array<{ name: string; health: { state: string } }> };
      return body.providers.find((provider) => provider.name === 'brave')!.health;
    },
  };
}

/**
 * A timeout that came while a call waited here (for a concurrency place or an outbound rate-limit slot) leaves the
 * upstream less than its timeout: it says nothing of the upstream's health, and a burst of ordinary searches must
 * not suspend a healthy provider for everyone.
 */
describe('the circuit breaker and time spent in our own queues', () => {
  describe('behind the concurrency limit', () => {
    // One request at a time, each answered in 300 ms, against a 600 ms timeout: most of a burst of six waits out its deadline.
    const brave = braveService({ BRAVE_CONCURRENCY: '1', BRAVE_TIMEOUT_MS: '600' }, 300);

    it('reports the waits as timeouts, and keeps the provider in service', async () => {
      const outcomes = await Promise.all(Array.from({ length: 6 }, () => brave.search()));
      expect(outcomes.filter((outcome) => outcome.status === 'timeout').length).toBeGreaterThanOrEqual(3);
      expect(brave.received()).toBeLessThanOrEqual(3);
      expect(await brave.health()).toMatchObject({ state: 'closed' });
      expect(await brave.search()).toMatchObject({ status: 'ok' });
    });
  });

  describe('behind the outbound rate limit', () => {
    // One slot every 100 ms; answers take 700 ms against a 1,000 ms timeout: a search sent after 300 ms of waiting cannot finish.
    const brave = braveService({ BRAVE_RATE_LIMIT: '10/s', BRAVE_TIMEOUT_MS: '1000' }, 700);

    it('reports the waits as timeouts, and keeps the provider in service', async () => {
      const outcomes = await Promise.all(Array.from({ length: 10 }, () => brave.search()));
      expect(outcomes.filter((outcome) => outcome.status === 'timeout').length).toBeGreaterThanOrEqual(3);
      expect(await brave.health()).toMatchObject({ state: 'closed' });
    });
  });

  describe('an upstream slower than its whole timeout', () => {
    const brave = braveService({ BRAVE_TIMEOUT_MS: '300' }, 2000);

    it('is still suspended after three timeouts it had all its time for', async () => {
      for (let index = 0; index < 3; index += 1) expect(await brave.search()).toMatchObject({ status: 'timeout' });
      expect(await brave.health()).toMatchObject({ state: 'open' });
    });
  });
});
