import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE = '/brave/res/v1/web/search';
const SEARXNG = '/searxng/search';

const braveResults = Array.from({ length: 8 }, (_, index) => ({
  title: `Brave "${index + 1}" é`,
  url: `https://brave.example/page/${index + 1}?ref=a&x=${index}`,
  description: `about <b>caching</b>\nresult ${index + 1}`,
  page_age: '2024-05-01T00:00:00',
}));
const searxngResults = Array.from({ length: 6 }, (_, index) => ({
  title: `SearXNG ${index + 1}`,
  url: index % 2 === 0 ? `https://brave.example/page/${index + 1}?ref=a&x=${index}` : `https://searx.example/${index + 1}`,
  content: 'a page',
}));

describe('a cached answer as the search route writes it', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json(BRAVE, { web: { results: braveResults } });
    upstream.json(SEARXNG, { results: searxngResults });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-key-0123456789', CACHE_TTL_SECONDS: '300', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const searchRequest = (explain: boolean, page = 1) => ({
    kind: 'web' as const,
    query: 'cached reply',
    providers: ['brave', 'searxng'],
    limit: 4,
    page,
    explain,
  });
  const path = (explain: boolean, page = 1) => `/v1/search/web?q=cached+reply&providers=brave,searxng&limit=4&page=${page}&explain=${explain}`;

  it('hands every hit on one page the same frozen results and outcomes', async () => {
    const search = service.app.searchService;
    const first = await search.search(searchRequest(true));
    const hit = await search.search(searchRequest(true));
    const again = await search.search(searchRequest(true));
    expect(hit.cached && again.cached).toBe(true);
    expect(again.results).toBe(hit.results);
    expect(again.providers).toBe(first.providers);
    expect(Object.isFrozen(hit.results) && Object.isFrozen(hit.providers)).toBe(true);
    // Another page, or the same page without explanations, is its own array with its own results.
    const plain = await search.search(searchRequest(false));
    expect(plain.results).not.toBe(hit.results);
    expect(plain.results.map((result) => result.url)).toEqual(hit.results.map((result) => result.url));
    expect(plain.results.some((result) => result.explain !== undefined)).toBe(false);
    expect(hit.results.every((result) => result.explain !== undefined)).toBe(true);
    // Page 1 read each provider only as deep as it asked: page 2 asks deeper once, then is a hit like any other.
    await search.search(searchRequest(true, 2));
    const second = await search.search(searchRequest(true, 2));
    expect(second.cached).toBe(true);
    expect(second.results.map((result) => result.url)).not.toEqual(hit.results.map((result) => result.url));
  });

  it('writes every field of the answer, the per-request ones afresh on each hit', async () => {
    for (const [explain, page] of [[true, 1], [false, 1], [false, 2]] as const) {
      await request(service.origin, path(explain, page));
      const response = await request(service.origin, path(explain, page));
      expect(response.status).toBe(200);
      const written = await response.json();
      const answer = await service.app.searchService.search(searchRequest(explain, page));
      expect(answer.cached).toBe(true);
      expect(written).toEqual({ ...JSON.parse(JSON.stringify(answer)), took_ms: written.took_ms, cache_age_ms: written.cache_age_ms });
      expect(written).toMatchObject({ cached: true, page });
      expect(Number.isInteger(written.took_ms) && Number.isInteger(written.cache_age_ms)).toBe(true);
    }
    // The first, uncached answer is written whole too.
    const fresh = await (await request(service.origin, '/v1/search/web?q=fresh+reply&providers=brave,searxng&limit=4')).json();
    expect(fresh).toMatchObject({ cached: false, cache_age_ms: 0, query: 'fresh reply', kind: 'web', page: 1, has_more: true });
    expect(fresh.results[0]).toEqual(expect.objectContaining({ title: expect.any(String), url: expect.any(String), snippet: expect.any(String), score: expect.any(Number), sources: expect.any(Array) }));
  });
});
