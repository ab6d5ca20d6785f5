import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const SEARXNG = '/searxng/search';
/** SearXNG with one engine of ten results a page, five pages deep: 50 results in all. */
const PAGES = 5;
const PER_PAGE = 10;

type Answer = { results: Array<{ url: string }>; page: number; has_more: boolean };

/** Page `pageno` of the instance: results (pageno − 1) × 10 + 1 to pageno × 10, odd ones on a.example. */
function searxngTenAPage() {
  return {
    kind: 'handler' as const,
    handle: (recorded: { url: URL }, response: ServerResponse) => {
      const pageno = Number(recorded.url.searchParams.get('pageno') ?? 1);
      const results =
        pageno > PAGES
          ? []
          : Array.from({ length: PER_PAGE }, (_, index) => {
              const rank = (pageno - 1) * PER_PAGE + index + 1;
              return { title: `Result ${rank}`, url: `https://${rank % 2 ? 'a' : 'b'}.example/${rank}`, content: 'a page', engine: 'duckduckgo' };
            });
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ query: 'q', number_of_results: 0, results, unresponsive_engines: [] }));
    },
  };
}

/**
 * SearXNG's pages have no set size, so its adapter reads no page for the one look-ahead result alone: a first
 * page of 10 serves a search for 10. Those 10 must not read as "SearXNG has nothing more" (10 of the 11 asked).
 */
describe('pages of SearXNG results when a page holds exactly the results asked for', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on(SEARXNG, searxngTenAPage());
    service = await startService({ ...providerEnv(upstream.origin), LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const search = async (query: string, page: number, extra = ''): Promise<Answer> => {
    const response = await request(service.origin, `/v1/search/web?q=${query}&providers=searxng&limit=10&page=${page}${extra}`);
    expect(response.status).toBe(200);
    return (await response.json()) as Answer;
  };
  const ranks = (answer: Answer): number[] => answer.results.map((result) => Number(new URL(result.url).pathname.slice(1)));
  const pagesRead = (query: string): string[] =>
    upstream
      .requestsTo(SEARXNG)
      .filter((recorded) => recorded.url.searchParams.get('q') === query)
      .map((recorded) => recorded.url.searchParams.get('pageno')!);

  it('page 1 reads one SearXNG page and says more exist; page 2 holds results 11 to 20', async () => {
    const first = await search('tens', 1);
    expect(ranks(first)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(first.has_more).toBe(true);
    expect(pagesRead('tens')).toEqual(['1']);

    const second = await search('tens', 2);
    expect(ranks(second)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(second.has_more).toBe(true);
  });

  it('the last page says no more once SearXNG gives an empty page', async () => {
    const fifth = await search('last', 5);
    expect(ranks(fifth)).toEqual([41, 42, 43, 44, 45, 46, 47, 48, 49, 50]);
    expect(fifth.has_more).toBe(true);
    const sixth = await search('last', 6);
    expect(sixth.results).toEqual([]);
    expect(sixth.has_more).toBe(false);
  });

  it('a filter the engine applies itself (include_domains) pages on through SearXNG too', async () => {
    const first = await search('filtered', 1, '&include_domains=a.example');
    expect(ranks(first)).toEqual([1, 3, 5, 7, 9, 11, 13, 15, 17, 19]);
    expect(first.has_more).toBe(true);
    const second = await search('filtered', 2, '&include_domains=a.example');
    expect(ranks(second)).toEqual([21, 23, 25, 27, 29, 31, 33, 35, 37, 39]);
  });
});
