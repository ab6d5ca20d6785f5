import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

describe('an answer in which a provider was rate limited (our own outbound limit) is a partial answer', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/brave/res/v1/web/search', {
      kind: 'respond',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ web: { results: [{ title: 'Brave', url: 'https://brave.example/1', description: 'b' }] } }),
    });
    upstream.on('/exa/search', {
      kind: 'respond',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ results: [{ title: 'Exa', url: 'https://exa.example/1', highlights: ['e'] }] }),
    });
    service = await startService({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'brave-key-0123456789',
      EXA_API_KEY: 'exa-key-0123456789',
      // One request to Brave an hour: the second search finds no slot before its deadline.
      BRAVE_RATE_LIMIT: '1/h',
      // Partial answers are not kept at all: a rate-limited answer must not be served from the cache.
      CACHE_PARTIAL_TTL_SECONDS: '0',
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('is kept no longer than an answer in which a provider failed', async () => {
    const first = await (await request(service.origin, '/v1/search/web?q=first+search&providers=brave,exa&timeout_ms=2000')).json();
    expect(first.providers.map((outcome: { status: string }) => outcome.status)).toEqual(['ok', 'ok']);

    const path = '/v1/search/web?q=second+search&providers=brave,exa&timeout_ms=2000';
    const limited = await (await request(service.origin, path)).json();
    expect(limited.providers.map((outcome: { provider: string; status: string }) => `${outcome.provider}:${outcome.status}`)).toEqual([
      'brave:rate_limited',
      'exa:ok',
    ]);
    // Brave's results are missing from it: the same search again asks the providers rather than serving it.
    const again = await (await request(service.origin, path)).json();
    expect(again.cached).toBe(false);
  });
});
