import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { SseReader } from '../support/sse-reader.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE = '/brave/res/v1/web/search';
const SEARXNG = '/searxng/search';

type Answer = { results: Array<{ url: string }>; page: number; has_more: boolean; cached: boolean };

/** Brave answers as many results as `count` asks for, up to a corpus of `available` for each query. */
function braveAnswering(available: number) {
  return {
    kind: 'handler' as const,
    handle: (recorded: { url: URL }, response: import('node:http').ServerResponse) => {
      const count = Number(recorded.url.searchParams.get('count'));
      const query = recorded.url.searchParams.get('q')!.replace(/\W+/g, '-');
      const results = Array.from({ length: Math.min(count, available) }, (_, index) => ({
        title: `Brave ${index + 1}`,
        url: `https://brave.example/${query}/${index + 1}`,
        description: 'a page',
      }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ web: { results } }));
    },
  };
}

/** SearXNG has no page size: one page of twelve, whatever is asked. */
function searxngPage(): string {
  const results = Array.from({ length: 12 }, (_, index) => ({ title: `SearXNG ${index + 1}`, url: `https://searx.example/${index + 1}`, content: 'a page' }));
  return JSON.stringify({ results });
}

describe('pages of a search', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on(BRAVE, braveAnswering(100));
    upstream.json(SEARXNG, searxngPage());
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-key-0123456789', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const search = async (path: string): Promise<Answer> => {
    const response = await request(service.origin, path);
    expect(response.status).toBe(200);
    return (await response.json()) as Answer;
  };
  const upstreamCalls = (): number => upstream.requestsTo(BRAVE).length + upstream.requestsTo(SEARXNG).length;
  const urls = (answer: Answer): string[] => answer.results.map((result) => result.url);

  it('asks each provider for limit × page plus one, and slices page 2 from the cached list without asking again', async () => {
    const first = await search('/v1/search/web?q=paged+one&providers=brave,searxng&limit=5');
    expect(upstream.requestsTo(BRAVE).at(-1)!.url.searchParams.get('count')).toBe('6');
    expect(first).toMatchObject({ page: 1, has_more: true, cached: false });
    expect(first.results).toHaveLength(5);

    const before = upstreamCalls();
    const second = await search('/v1/search/web?q=paged+one&providers=brave,searxng&limit=5&page=2');
    expect(upstreamCalls()).toBe(before);
    expect(second).toMatchObject({ page: 2, has_more: true, cached: true });
    expect(second.results).toHaveLength(5);
    expect(urls(second).filter((url) => urls(first).includes(url))).toEqual([]);
  });

  it('answers page 2 first, then page 1 from the same list: no result on both', async () => {
    const second = await search('/v1/search/web?q=paged+two&providers=brave,searxng&limit=4&page=2');
    expect(upstream.requestsTo(BRAVE).at(-1)!.url.searchParams.get('count')).toBe('9');
    const before = upstreamCalls();
    const first = await search('/v1/search/web?q=paged+two&providers=brave,searxng&limit=4');
    expect(upstreamCalls()).toBe(before);
    expect(second.results).toHaveLength(4);
    expect(first.results).toHaveLength(4);
    expect(urls(second).filter((url) => urls(first).includes(url))).toEqual([]);
  });

  it('asks again, deeper, only when the list is too short for a page, keeping earlier pages as they were', async () => {
    const path = (page: number) => `/v1/search/web?q=paged+three&providers=brave&limit=5&page=${page}`;
    const pages = [await search(path(1)), await search(path(2)), await search(path(3))];
    // Page 1 asked for 6: enough to know a page 2 exists, not enough to fill it; each later page asked deeper.
    expect(upstream.requestsTo(BRAVE).filter((recorded) => recorded.url.searchParams.get('q') === 'paged three').map((recorded) => recorded.url.searchParams.get('count'))).toEqual(['6', '11', '16']);
    const shown = pages.flatMap(urls);
    expect(new Set(shown).size).toBe(15);
    expect(shown).toEqual(Array.from({ length: 15 }, (_, index) => `https://brave.example/paged-three/${index + 1}`));
    expect(pages.map((page) => page.has_more)).toEqual([true, true, true]);
  });

  it('says there is no next page when the providers have given all they have, and serves the empty page after it from the cache', async () => {
    upstream.on(BRAVE, braveAnswering(7));
    try {
      const path = (page: number) => `/v1/search/web?q=paged+four&providers=brave&limit=5&page=${page}`;
      const first = await search(path(1));
      const second = await search(path(2));
      expect(urls(second)).toEqual(['https://brave.example/paged-four/6', 'https://brave.example/paged-four/7']);
      expect([first.has_more, second.has_more]).toEqual([true, false]);
      const before = upstreamCalls();
      const third = await search(path(3));
      expect(upstreamCalls()).toBe(before);
      expect(third).toMatchObject({ results: [], page: 3, has_more: false });
    } finally {
      upstream.on(BRAVE, braveAnswering(100));
    }
  });

  it('stays within a provider\'s maximum: Brave is never asked for more than 20', async () => {
    const last = await search('/v1/search/web?q=paged+five&providers=brave&limit=10&page=10');
    expect(upstream.requestsTo(BRAVE).at(-1)!.url.searchParams.get('count')).toBe('20');
    expect(last).toMatchObject({ results: [], page: 10, has_more: false });
    const second = await search('/v1/search/web?q=paged+five&providers=brave&limit=10&page=2');
    expect(second).toMatchObject({ page: 2, has_more: false, cached: true });
    expect(second.results).toHaveLength(10);
  });

  it('streams a later page: its done event is the plain answer for that page', async () => {
    const path = '/v1/search/web/stream?q=paged+six&providers=brave,searxng&limit=3&page=2';
    const response = await fetch(`${service.origin}${path}`);
    const events = await new SseReader(response.body!).rest();
    const done = events.find((event) => event.event === 'done')!.data as Answer;
    const plain = await search('/v1/search/web?q=paged+six&providers=brave,searxng&limit=3&page=2');
    expect(done).toMatchObject({ page: 2, has_more: true });
    expect(urls(done)).toEqual(urls(plain));
    const lastResults = events.filter((event) => event.event === 'results').at(-1)!.data as { results: Array<{ url: string }> };
    expect(lastResults.results.map((result) => result.url)).toEqual(urls(done));
  });

  it('takes page in a POST body too', async () => {
    const response = await request(service.origin, '/v1/search/web', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ q: 'paged seven', providers: ['brave'], limit: 2, page: 3 }),
    });
    const body = (await response.json()) as Answer;
    expect(body.page).toBe(3);
    expect(urls(body)).toEqual(['https://brave.example/paged-seven/5', 'https://brave.example/paged-seven/6']);
  });
});
