import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const TIMEOUT_MS = 3000;

/**
 * One provider answers a title of 240 KB of `<!--` with no `-->`: a title the HTML-to-text step once read in time by
 * the square of its length, holding the event loop (and so every provider's answer, and every other search) about five
 * seconds on a quiet machine. The healthy provider's answer must still come, by the deadline.
 */
describe('a provider whose title is markup that never closes', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', { web: { results: [{ title: '<!--'.repeat(60_000), url: 'https://hostile.example/' }] } });
    upstream.json('/searxng/search', { results: [{ title: 'Healthy answer', url: 'https://healthy.example/', content: 'fine' }] });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'k-123456', CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('holds up neither the other provider nor the answer', async () => {
    const started = performance.now();
    const response = await request(service.origin, `/v1/search/web?q=unclosed+markup&providers=brave,searxng&timeout_ms=${TIMEOUT_MS}`);
    const took = performance.now() - started;
    expect(response.status).toBe(200);
    const body = await response.json();
    const statuses = Object.fromEntries(body.providers.map((outcome: { provider: string; status: string }) => [outcome.provider, outcome.status]));
    expect(statuses).toEqual({ brave: 'ok', searxng: 'ok' });
    expect(body.results.map((result: { url: string }) => result.url)).toContain('https://healthy.example/');
    expect(took).toBeLessThan(TIMEOUT_MS);
  });
});
