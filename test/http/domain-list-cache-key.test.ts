import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE = '/brave/res/v1/web/search';

type Answer = { cached: boolean; results: Array<{ url: string }> };

describe('domain lists that name the same domains are one search to the cache', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json(BRAVE, {
      web: {
        results: [
          { title: 'A', url: 'https://a.example.com/page', description: 'kept' },
          { title: 'B', url: 'https://b.example.org/page', description: 'kept' },
          { title: 'C', url: 'https://c.example.net/page', description: 'dropped' },
        ],
      },
    });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-key-0123456789', CACHE_TTL_SECONDS: '300', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const search = async (query: string): Promise<Answer> => {
    const response = await request(service.origin, `/v1/search/web?q=same+domains&providers=brave&${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as Answer;
  };

  it('serves include_domains in another order, repeated or in other letter case from the cache, with the same results', async () => {
    const first = await search('include_domains=a.example.com,b.example.org');
    expect(first.cached).toBe(false);
    const asked = upstream.requestsTo(BRAVE).length;
    for (const variant of ['include_domains=b.example.org,a.example.com', 'include_domains=B.Example.org,a.example.com,b.example.org']) {
      const again = await search(variant);
      expect(again.cached).toBe(true);
      expect(again.results).toEqual(first.results);
    }
    expect(upstream.requestsTo(BRAVE).length).toBe(asked);
    expect(first.results.map((result) => result.url)).toEqual(['https://a.example.com/page', 'https://b.example.org/page']);
  });

  it('serves exclude_domains in another order from the cache', async () => {
    const first = await search('exclude_domains=c.example.net,d.example.net');
    const asked = upstream.requestsTo(BRAVE).length;
    const again = await search('exclude_domains=d.example.net,c.example.net,d.example.net');
    expect(again.cached).toBe(true);
    expect(again.results).toEqual(first.results);
    expect(upstream.requestsTo(BRAVE).length).toBe(asked);
  });

  it('keeps paths with another letter case apart: the filter reads them as other places', async () => {
    await search('include_domains=a.example.com/Page');
    const again = await search('include_domains=a.example.com/page');
    expect(again.cached).toBe(false);
  });
});
