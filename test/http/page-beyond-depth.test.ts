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

/**
 * SearXNG has no page size: its first page holds six results however few are asked for. Its 5th is Brave's 2nd, so a
 * ranking that reads all six moves b.example/2 up (two sources), where one that reads as deep as it asked does not.
 */
const SEARXNG_URLS = ['s.example/1', 's.example/2', 's.example/3', 's.example/4', 'b.example/2', 's.example/6', 's.example/7', 's.example/8', 's.example/9'];
function searxngAnswers(recorded: { url: URL }, response: ServerResponse): void {
  const page = Number(recorded.url.searchParams.get('pageno') ?? 1);
  const results = SEARXNG_URLS.slice((page - 1) * 6, page * 6).map((url, index) => ({ title: `S${index}`, url: `https://${url}`, content: 's' }));
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
}

/**
 * A provider that answers more than it was asked for (SearXNG's whole first page) is read only as deep as it was
 * asked: otherwise page 1 ranks results that a later page, gathered again when the answer is no longer kept, ranks
 * as the earlier pages' depth saw them, and the pages repeat one result and skip another.
 */
describe('a provider answering more results than it was asked for', () => {
  let upstream: FakeUpstream;
  let kept: RunningService;
  let unkept: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on(BRAVE, { kind: 'handler', handle: braveAnswers }).on(SEARXNG, { kind: 'handler', handle: searxngAnswers });
    const env = { ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-key-0123456789', LOG_LEVEL: 'silent' };
    kept = await startService(env);
    unkept = await startService({ ...env, CACHE_TTL_SECONDS: '0' });
  });
  afterAll(async () => {
    await kept.stop();
    await unkept.stop();
    await upstream.stop();
  });

  const urls = async (service: RunningService, query: string, page: number): Promise<string[]> => {
    const body = await (await request(service.origin, `/v1/search/web?q=${query}&providers=brave,searxng&limit=2&page=${page}`)).json();
    return body.results.map((result: { url: string }) => result.url);
  };

  it('shows page 2 without the cache neither repeating page 1 nor skipping a result of it', async () => {
    const first = await urls(unkept, 'beyond', 1);
    const second = await urls(unkept, 'beyond', 2);
    expect(second.filter((url) => first.includes(url))).toEqual([]);
    expect(new Set([...first, ...second]).size).toBe(4);
  });

  it('gives each page as a caller paging from page 1 with the answer kept saw it', async () => {
    const shown: string[][] = [];
    for (let page = 1; page <= 3; page += 1) shown.push(await urls(kept, 'paged', page));
    expect(new Set(shown.flat()).size).toBe(6);
    for (let page = 1; page <= 3; page += 1) expect(await urls(unkept, 'paged', page)).toEqual(shown[page - 1]);
  });
});
