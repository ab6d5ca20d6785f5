import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

type Answer = { results: Array<{ url: string }>; providers: Array<{ provider: string }>; cached: boolean };

/**
 * Each provider's first result scores the same (one source, rank 1, weight 1), so which comes first follows the
 * order the lists are fused in. The cache keys an answer by the set of providers, not their order, so that
 * order must not follow the order a caller names them in: `brave,exa` and `exa,brave` must be one answer,
 * whether it was just gathered or is served from the cache.
 */
describe('the order a request names its providers in', () => {
  let upstream: FakeUpstream;
  let fresh: RunningService;
  let cached: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    const json = { 'content-type': 'application/json' };
    upstream.on('/brave/res/v1/web/search', { kind: 'respond', headers: json, body: JSON.stringify({ type: 'search', web: { type: 'search', results: [{ title: 'From Brave', url: 'https://brave.example/', description: 'b' }] } }) });
    upstream.on('/exa/search', { kind: 'respond', headers: json, body: JSON.stringify({ results: [{ title: 'From Exa', url: 'https://exa.example/', highlights: ['e'] }] }) });
    const env = { ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-order-key-0123456789', EXA_API_KEY: 'exa-order-key-0123456789', LOG_LEVEL: 'warn' };
    fresh = await startService({ ...env, CACHE_TTL_SECONDS: '0' });
    cached = await startService(env);
  });
  afterAll(async () => {
    await fresh.stop();
    await cached.stop();
    await upstream.stop();
  });

  const search = async (service: RunningService, providers: string): Promise<Answer> => {
    const response = await request(service.origin, `/v1/search/web?q=tie&providers=${providers}`);
    expect(response.status).toBe(200);
    return (await response.json()) as Answer;
  };
  const shape = (answer: Answer) => ({ results: answer.results.map((result) => result.url), providers: answer.providers.map((outcome) => outcome.provider) });

  it('does not change the answer gathered afresh', async () => {
    const one = await search(fresh, 'exa,brave');
    const other = await search(fresh, 'brave,exa');
    expect(one.results).toHaveLength(2);
    expect(shape(one)).toEqual(shape(other));
  });

  it('gives the answer the cache then serves for the other order', async () => {
    const gathered = await search(cached, 'exa,brave');
    const served = await search(cached, 'brave,exa');
    expect(served.cached).toBe(true);
    expect(shape(served)).toEqual(shape(await search(fresh, 'brave,exa')));
    expect(shape(served)).toEqual(shape(gathered));
  });
});
