import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE = '/brave/res/v1/web/search';
const SEARXNG = '/searxng/search';

/** Brave: as many results as asked for (`count`), b.example/1, /2, … */
function braveAnswers(recorded: { url: URL }, response: ServerResponse): void {
  const count = Number(recorded.url.searchParams.get('count'));
  const results = Array.from({ length: count }, (_, index) => ({ title: `B${index + 1}`, url: `https://b.example/${index + 1}`, description: 'b' }));
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ web: { results } }));
}

/** SearXNG: pages of `pageSize` (`pageno`) over a fixed list, however few results were asked for (it has no page size). */
function searxngPages(urls: string[], pageSize: number) {
  return (recorded: { url: URL }, response: ServerResponse): void => {
    const page = Number(recorded.url.searchParams.get('pageno') ?? 1);
    const results = urls.slice((page - 1) * pageSize, page * pageSize).map((url, index) => ({ title: `S${index}`, url: `https://${url}`, content: 's' }));
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
  };
}

/**
 * A page is the same whether the answer of the pages before it is still kept or not: a caller who pages on after
 * the cache dropped the answer (or with the cache off) sees no result twice and misses none. Two ways a ranking could
 * differ between the two: a deeper SearXNG page finds Brave's 2nd result (b.example/2, then of two sources, moves
 * up), or SearXNG answers more than it was asked for (its whole first page of six), which a search must read only as
 * deep as it asked, as a later page gathered again does.
 */
describe.each([
  { provider: 'SearXNG paging by three, a deeper page moving a result up', urls: ['s.example/1', 's.example/2', 's.example/3', 'b.example/2', 's.example/5', 's.example/6', 's.example/7'], pageSize: 3 },
  {
    provider: 'SearXNG answering six results however few were asked for',
    urls: ['s.example/1', 's.example/2', 's.example/3', 's.example/4', 'b.example/2', 's.example/6', 's.example/7', 's.example/8', 's.example/9'],
    pageSize: 6,
  },
])('page boundaries without a kept answer: $provider', ({ urls: searxngUrls, pageSize }) => {
  let upstream: FakeUpstream;
  let kept: RunningService;
  let unkept: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on(BRAVE, { kind: 'handler', handle: braveAnswers }).on(SEARXNG, { kind: 'handler', handle: searxngPages(searxngUrls, pageSize) });
    const env = { ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-key-0123456789', LOG_LEVEL: 'silent' };
    kept = await startService(env);
    unkept = await startService({ ...env, CACHE_TTL_SECONDS: '0' });
  });
  afterAll(async () => {
    await kept.stop();
    await unkept.stop();
    await upstream.stop();
  });

  const urls = async (service: RunningService, words: string, page: number): Promise<{ urls: string[]; cached: boolean }> => {
    const body = await (await request(service.origin, `/v1/search/web?q=${words}&providers=brave,searxng&limit=2&page=${page}`)).json();
    return { urls: body.results.map((result: { url: string }) => result.url), cached: body.cached };
  };

  it('gives each page as a caller paging from page 1 with the answer kept saw it', async () => {
    const shown: string[][] = [];
    for (let page = 1; page <= 3; page += 1) shown.push((await urls(kept, 'paged', page)).urls);
    // The kept pages neither repeat nor skip: the deeper lists only extend the first.
    expect(new Set(shown.flat()).size).toBe(6);
    for (let page = 1; page <= 3; page += 1) {
      const fresh = await urls(unkept, 'paged', page);
      expect(fresh.cached).toBe(false);
      expect(fresh.urls).toEqual(shown[page - 1]);
    }
  });

  it('shows page 2 without the answer kept neither repeating page 1 nor skipping a result of it', async () => {
    const first = (await urls(unkept, 'boundaries', 1)).urls;
    const second = (await urls(unkept, 'boundaries', 2)).urls;
    expect(second.filter((url) => first.includes(url))).toEqual([]);
    expect(new Set([...first, ...second]).size).toBe(4);
  });
});
