import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { isRecord } from '../../src/providers/parse-helpers.js';
import { WikipediaProvider } from '../../src/providers/wikipedia.js';
import { useFakeUpstream } from '../support/fake-upstream.js';
import { makeProvider, makeQuery, response, runProvider } from '../support/run-provider.js';
import { describeSharedFixtures } from '../support/shared-fixtures.js';

const read = (name: string): string => readFileSync(new URL(`../fixtures/wikipedia/${name}`, import.meta.url), 'utf8');
const listSearch = read('list-search.json');
const generatorSearch = read('generator-search.json');
const errorBody = read('error.json');

describe('wikipedia adapter', () => {
  const upstream = useFakeUpstream();

  it('calls /w/api.php list=search without a key and builds article URLs from the base URL', async () => {
    upstream.json('GET /wikipedia/w/api.php', listSearch);
    const base = `${upstream.origin}/wikipedia`;
    const provider = makeProvider(WikipediaProvider, { WIKIPEDIA_BASE_URL: base });
    const items = await runProvider(provider, makeQuery('rank fusion', 'web', 3, { time_range: 'year', language: 'en' }));
    const request = upstream.requestsTo('/wikipedia/w/api.php').at(-1)!;
    expect(request.method).toBe('GET');
    expect(Object.fromEntries(request.url.searchParams)).toEqual({
      action: 'query',
      list: 'search',
      srsearch: 'rank fusion',
      srlimit: '3',
      srprop: 'snippet|timestamp',
      format: 'json',
      formatversion: '2',
      utf8: '1',
    });
    expect(request.headers.authorization).toBeUndefined();
    expect(items).toEqual([
      {
        title: 'Reciprocal rank fusion',
        url: `${base}/wiki/Reciprocal_rank_fusion`,
        snippet: 'Reciprocal rank fusion (RRF) merges ranked lists & more',
        extra: { last_edited: '2024-03-01T12:00:00.000Z' },
      },
      { title: 'AC/DC', url: `${base}/wiki/AC/DC`, extra: { last_edited: '2023-12-24T08:30:00.000Z' } },
      {
        title: 'Star Wars: Episode IV – A New Hope',
        url: `${base}/wiki/Star_Wars:_Episode_IV_%E2%80%93_A_New_Hope`,
        snippet: 'a 1977 film',
      },
    ]);
  });

  it('reads generator=search pages in rank order (pages[].index), not in page-id order', () => {
    const provider = makeProvider(WikipediaProvider);
    const outcome = provider.parseResponse(response(generatorSearch), makeQuery('q'));
    expect(outcome).toEqual({
      items: [
        { title: 'Federated search', url: 'https://en.wikipedia.org/wiki/Federated_search' },
        {
          title: 'Metasearch engine',
          url: 'https://en.wikipedia.org/wiki/Metasearch_engine',
          snippet: 'search tool that uses other engines',
        },
        {
          title: 'Rank aggregation',
          url: 'https://en.wikipedia.org/wiki/Rank_aggregation',
          snippet: 'Rank aggregation combines rankings.',
        },
      ],
    });
  });

  it('reads formatversion=1 generator pages keyed by page id', () => {
    const provider = makeProvider(WikipediaProvider);
    const body = JSON.stringify({ query: { pages: { '7': { pageid: 7, title: 'Second', index: 2 }, '9': { pageid: 9, title: 'First', index: 1 } } } });
    const outcome = provider.parseResponse(response(body), makeQuery('q'));
    expect('items' in outcome && outcome.items.map((item) => item.title)).toEqual(['First', 'Second']);
  });

  it('treats a body without query (a generator that found nothing) as zero results', () => {
    const provider = makeProvider(WikipediaProvider);
    expect(provider.parseResponse(response('{"batchcomplete":true}'), makeQuery('q'))).toEqual({ items: [] });
  });

  it('caps srlimit at 500, the most list=search serves', () => {
    const provider = makeProvider(WikipediaProvider);
    const url = new URL(provider.buildRequest(makeQuery('q', 'web', 1000)).url);
    expect(`${url.origin}${url.pathname}`).toBe('https://en.wikipedia.org/w/api.php');
    expect(url.searchParams.get('srlimit')).toBe('500');
  });

  it('needs no settings', () => {
    expect(makeProvider(WikipediaProvider, {}).missingSettings()).toEqual([]);
  });

  it('throws on the error bodies MediaWiki sends with HTTP 200, through the real transport', async () => {
    upstream.json('GET /wikipedia-error/w/api.php', errorBody);
    const provider = makeProvider(WikipediaProvider, { WIKIPEDIA_BASE_URL: `${upstream.origin}/wikipedia-error` });
    const failure = await runProvider(provider, makeQuery('q')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FedsearchError);
    expect((failure as FedsearchError).code).toBe('PROVIDER_UPSTREAM');
    expect((failure as FedsearchError).message).toBe('Unrecognized value for parameter "list": serch. (badvalue)');
    const plaintext = JSON.stringify({ errors: [{ code: 'ratelimited', text: 'You have exceeded your rate limit.' }] });
    expect(() => provider.parseResponse(response(plaintext), makeQuery('q'))).toThrow('You have exceeded your rate limit. (ratelimited)');
  });

  it('describes error bodies on non-2xx statuses and stays quiet about HTML pages', () => {
    const provider = makeProvider(WikipediaProvider);
    expect(provider.describeError(response(errorBody, 400))).toBe('Unrecognized value for parameter "list": serch. (badvalue)');
    expect(provider.describeError(response('<!DOCTYPE html><html>Too many requests</html>', 429))).toBeUndefined();
  });
});

/** How many pages a recorded body holds, counted straight from its JSON. */
function pageCount(body: Record<string, unknown>): number {
  if (isRecord(body.content_urls)) return 1;
  if (!isRecord(body.query)) return 0;
  const { search, pages } = body.query;
  if (Array.isArray(search)) return search.length;
  if (Array.isArray(pages)) return pages.length;
  return isRecord(pages) ? Object.keys(pages).length : 0;
}

describeSharedFixtures('wikipedia', (fixtures) => {
  for (const fixture of fixtures) {
    const body = JSON.parse(fixture.body) as Record<string, unknown>;
    if (fixture.status >= 400 || 'error' in body || 'errors' in body) {
      it(`${fixture.file}: the error body throws a FedsearchError and is described`, () => {
        const provider = makeProvider(WikipediaProvider);
        expect(() => provider.parseResponse(response(fixture.body, fixture.status), makeQuery('q'))).toThrow(FedsearchError);
        expect(provider.describeError(response(fixture.body, fixture.status))).toMatch(/\S/);
      });
      continue;
    }
    it(`${fixture.file}: every page is parsed with title and url`, () => {
      const provider = makeProvider(WikipediaProvider);
      const outcome = provider.parseResponse(response(fixture.body, fixture.status), makeQuery('q'));
      expect('items' in outcome && outcome.items.length).toBe(pageCount(body));
      const items = 'items' in outcome ? outcome.items : [];
      for (const item of items) {
        expect(item.title.length).toBeGreaterThan(0);
        expect(item.url).toMatch(/^https?:\/\/[^/]+\/wiki\/\S+$/);
        expect(item.snippet === undefined || item.snippet.length > 0).toBe(true);
      }
      // generator=search: rank is pages[].index, so the items come out in index order.
      const pages = isRecord(body.query) && Array.isArray(body.query.pages) ? body.query.pages.filter(isRecord) : [];
      if (pages.length > 0) {
        const byIndex = [...pages].sort((first, second) => Number(first.index) - Number(second.index)).map((page) => page.title);
        expect(items.map((item) => item.title)).toEqual(byIndex);
      }
    });
  }
});
