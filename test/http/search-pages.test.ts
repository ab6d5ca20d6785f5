import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { SseReader } from '../support/sse-reader.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE = '/brave/res/v1/web/search';
const SEARXNG = '/searxng/search';

type Answer = { results: Array<{ url: string }>; page: number; has_more: boolean; cached: boolean };

/** Brave answers `count` results from page `offset` (in units of `count`, as Brave's offset is), up to a corpus of `available` for each query. */
function braveAnswering(available: number) {
  return {
    kind: 'handler' as const,
    handle: (recorded: { url: URL }, response: import('node:http').ServerResponse) => {
      const count = Number(recorded.url.searchParams.get('count'));
      const start = Number(recorded.url.searchParams.get('offset') ?? 0) * count;
      const query = recorded.url.searchParams.get('q')!.replace(/\W+/g, '-');
      const results = Array.from({ length: Math.max(0, Math.min(count, available - start)) }, (_, index) => ({
        title: `Brave ${start + index + 1}`,
        url: `https://brave.example/${query}/${start + index + 1}`,
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

  it('stays within a provider\'s maximum per request: Brave is asked for 20 at a time, deeper pages by offset', async () => {
    const last = await search('/v1/search/web?q=paged+five&providers=brave&limit=10&page=10');
    const asked = upstream.requestsTo(BRAVE).filter((recorded) => recorded.url.searchParams.get('q') === 'paged five');
    expect(asked.map((recorded) => recorded.url.searchParams.get('count'))).toEqual(['20', '20', '20', '20', '20', '20']);
    // Offsets 0–4 give the corpus of 100; offset 5 comes back empty and ends the search.
    expect(asked.map((recorded) => recorded.url.searchParams.get('offset'))).toEqual(['0', '1', '2', '3', '4', '5']);
    expect(urls(last)).toEqual(Array.from({ length: 10 }, (_, index) => `https://brave.example/paged-five/${91 + index}`));
    expect(last).toMatchObject({ page: 10, has_more: false });
    const second = await search('/v1/search/web?q=paged+five&providers=brave&limit=10&page=2');
    expect(second).toMatchObject({ page: 2, has_more: true, cached: true });
    expect(second.results).toHaveLength(10);
  });

  it('reaches page 3 of 10 from Brave alone, one request of 20 at each offset, and says when the last page is reached', async () => {
    upstream.on(BRAVE, braveAnswering(30));
    try {
      const path = (page: number) => `/v1/search/web?q=paged+eight&providers=brave&limit=10&page=${page}`;
      const pages = [await search(path(1)), await search(path(2)), await search(path(3))];
      const asked = upstream.requestsTo(BRAVE).filter((recorded) => recorded.url.searchParams.get('q') === 'paged eight');
      const deep = asked.filter((recorded) => recorded.url.searchParams.get('count') === '20');
      expect(deep.map((recorded) => recorded.url.searchParams.get('offset'))).toContain('0');
      expect(deep.map((recorded) => recorded.url.searchParams.get('offset'))).toContain('1');
      expect(asked.every((recorded) => Number(recorded.url.searchParams.get('count')) <= 20)).toBe(true);
      const shown = pages.flatMap(urls);
      expect(pages.map((page) => page.results.length)).toEqual([10, 10, 10]);
      expect(new Set(shown).size).toBe(30);
      expect(pages.map((page) => page.has_more)).toEqual([true, true, false]);
    } finally {
      upstream.on(BRAVE, braveAnswering(100));
    }
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
