import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE = '/brave/res/v1/web/search';
/** How long the fake Brave takes over each page: a deeper round of several pages does not fit in a short timeout_ms. */
const PAGE_MS = 200;

type Answer = { cached: boolean; results: Array<{ url: string }>; providers: Array<{ provider: string; status: string }> };

/**
 * Brave has no include_domains: fedsearch filters its results and asks deeper while too few pass (filtered-search.ts),
 * unless the caller's deadline leaves no time for the deeper round. What one caller's short timeout_ms left out, a
 * caller that waits longer would be given: the short answer must not be served to it as if waiting found nothing more.
 */
describe('a filtered search whose deeper round a short timeout_ms left out', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    // Twenty results a page, one in ten on a.example.com, for every offset Brave is asked.
    upstream.on(BRAVE, {
      kind: 'handler',
      handle: (recorded, response) => {
        const offset = Number(recorded.url.searchParams.get('offset') ?? '0');
        const count = Number(recorded.url.searchParams.get('count') ?? '20');
        const results = Array.from({ length: count }, (_, index) => {
          const rank = offset * count + index;
          return { title: `Page ${rank}`, url: `https://${rank % 10 === 0 ? 'a' : 'b'}.example.com/${rank}`, description: 'a page' };
        });
        setTimeout(() => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ web: { results }, query: { more_results_available: true } }));
        }, PAGE_MS);
      },
    });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-key-0123456789', CACHE_TTL_SECONDS: '300', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const search = async (extra: string): Promise<Answer> => {
    const response = await request(service.origin, `/v1/search/web?q=deadline+depth&providers=brave&include_domains=a.example.com&limit=5${extra}`);
    expect(response.status).toBe(200);
    return (await response.json()) as Answer;
  };

  it('is not served to a caller without timeout_ms, which is given the deeper round', async () => {
    const hurried = await search('&timeout_ms=1000');
    // The first round (6 asked, one on a.example.com) and no time for the next.
    expect(hurried.results.map((result) => result.url)).toEqual(['https://a.example.com/0']);
    expect(upstream.requestsTo(BRAVE)).toHaveLength(1);

    const patient = await search('');
    expect(patient.cached).toBe(false);
    expect(patient.results.length).toBeGreaterThan(1);
    expect(patient.results.every((result) => result.url.startsWith('https://a.example.com/'))).toBe(true);
    // Once gathered deeper, that answer serves the hurried caller too.
    expect((await search('&timeout_ms=1000')).results).toEqual(patient.results);
  });
});
