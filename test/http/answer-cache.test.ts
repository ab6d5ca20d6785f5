import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { braveBody } from '../mcp/mcp-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE_PATH = '/brave/res/v1/web/search';

describe('answers in which a provider failed are not served from the cache for the full TTL', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    service = await startService({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'brave-test-key-0123456789',
      CACHE_TTL_SECONDS: '300',
      CACHE_PARTIAL_TTL_SECONDS: '0',
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const search = async (q: string) =>
    (await request(service.origin, `/v1/search/web?q=${encodeURIComponent(q)}&providers=brave,local&timeout_ms=300`)).json();

  it('asks a provider that timed out again on the next identical search, though local answered', async () => {
    upstream.on(BRAVE_PATH, { kind: 'hang' });
    const first = await search('provider timeout');
    expect(first.providers.find((outcome: { provider: string }) => outcome.provider === 'brave')).toMatchObject({ status: 'timeout' });
    expect(first.providers.find((outcome: { provider: string }) => outcome.provider === 'local')).toMatchObject({ status: 'ok' });
    expect(first).toMatchObject({ cached: false, cache_age_ms: 0 });

    upstream.json(BRAVE_PATH, JSON.parse(braveBody('https://brave.example/back')));
    const asked = upstream.requestsTo(BRAVE_PATH).length;
    const second = await search('provider timeout');
    expect(second).toMatchObject({ cached: false, cache_age_ms: 0 });
    expect(upstream.requestsTo(BRAVE_PATH).length).toBe(asked + 1);
    expect(second.providers.find((outcome: { provider: string }) => outcome.provider === 'brave')).toMatchObject({ status: 'ok', count: 1 });
  });

  it('keeps a complete answer and says how old it is', async () => {
    upstream.json(BRAVE_PATH, JSON.parse(braveBody('https://brave.example/complete')));
    const before = Date.now();
    const first = await search('complete answer');
    expect(first).toMatchObject({ cached: false, cache_age_ms: 0 });
    const asked = upstream.requestsTo(BRAVE_PATH).length;
    const second = await search('complete answer');
    const elapsed = Date.now() - before;
    expect(second.cached).toBe(true);
    expect(upstream.requestsTo(BRAVE_PATH).length).toBe(asked);
    expect(Number.isInteger(second.cache_age_ms)).toBe(true);
    expect(second.cache_age_ms).toBeGreaterThanOrEqual(0);
    expect(second.cache_age_ms).toBeLessThanOrEqual(elapsed);
  });

  it('says how old a cached answer is on the operation routes (and so MCP) too', async () => {
    upstream.json(BRAVE_PATH, JSON.parse(braveBody('https://brave.example/mcp')));
    const call = () =>
      request(service.origin, '/v1/ops/web_search', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'aged answer', providers: ['brave'] }),
      }).then((response) => response.json());
    expect(await call()).toMatchObject({ cached: false, cache_age_ms: 0 });
    const again = await call();
    expect(again.cached).toBe(true);
    expect(again.cache_age_ms).toBeGreaterThanOrEqual(0);
  });
});
