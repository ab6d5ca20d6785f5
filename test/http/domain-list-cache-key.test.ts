import { describe, expect, it } from 'vitest';
import { BRAVE_SEARCH_PATH as BRAVE, request } from '../support/service.js';
import { useWebResultsService } from '../support/web-results-service.js';

type Answer = { cached: boolean; results: Array<{ url: string }> };

describe('domain lists that name the same domains are one search to the cache', () => {
  const service = useWebResultsService({
    brave: [
      { title: 'A', url: 'https://a.example.com/page', description: 'kept' },
      { title: 'B', url: 'https://b.example.org/page', description: 'kept' },
      { title: 'C', url: 'https://c.example.net/page', description: 'dropped' },
    ],
    env: { CACHE_TTL_SECONDS: '300' },
  });
  const { upstream } = service;
  const search = (query: string): Promise<Answer> => service.search<Answer>(`q=same+domains&providers=brave&${query}`);

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

  it('serves include_domains with a www. host from the answer kept for the host without it: the filter reads both as one', async () => {
    const first = await search('include_domains=a.example.com,b.example.org&time_range=year&safesearch=strict');
    expect(first.cached).toBe(false);
    const asked = upstream.requestsTo(BRAVE).length;
    const again = await search('include_domains=www.a.example.com,b.example.org&time_range=year&safesearch=strict');
    expect(again.cached).toBe(true);
    expect(again.results).toEqual(first.results);
    const single = await search('include_domains=www.b.example.org&time_range=year&safesearch=strict');
    expect(single.cached).toBe(false);
    expect(single.results.map((result) => result.url)).toEqual(['https://b.example.org/page']);
    expect((await search('include_domains=b.example.org&time_range=year&safesearch=strict')).cached).toBe(true);
    expect(upstream.requestsTo(BRAVE).length).toBe(asked + 1);
  });

  it('serves a site: term with its host in capitals from the answer kept for it in small letters, one upstream call for both', async () => {
    const typed = async (words: string): Promise<Answer> => {
      const response = await request(service.origin, `/v1/search/web?q=${encodeURIComponent(words)}&providers=brave`);
      expect(response.status).toBe(200);
      return (await response.json()) as Answer;
    };
    const before = upstream.requestsTo(BRAVE).length;
    const first = await typed('written twice site:a.example.com');
    expect(first.cached).toBe(false);
    expect(first.results.map((result) => result.url)).toEqual(['https://a.example.com/page']);
    for (const variant of ['written twice site:A.Example.COM', 'written  twice site:a.EXAMPLE.com']) {
      const again = await typed(variant);
      expect(again.cached).toBe(true);
      expect(again.results).toEqual(first.results);
    }
    expect(upstream.requestsTo(BRAVE).length).toBe(before + 1);
    // The words are not a host: their letter case still parts two searches.
    expect((await typed('Written twice site:a.example.com')).cached).toBe(false);
  });

  it('serves a site: term in capitals or with a scheme from the answer kept for site: in small letters: Brave is sent that one', async () => {
    const typed = async (words: string): Promise<Answer> => {
      const response = await request(service.origin, `/v1/search/web?q=${encodeURIComponent(words)}&providers=brave`);
      expect(response.status).toBe(200);
      return (await response.json()) as Answer;
    };
    const before = upstream.requestsTo(BRAVE).length;
    const first = await typed('spelled apart site:a.example.com');
    expect(first.cached).toBe(false);
    for (const variant of ['spelled apart SITE:a.example.com', 'spelled apart site:https://a.example.com/', 'spelled apart Site:HTTP://A.example.com']) {
      const again = await typed(variant);
      expect(again.cached, variant).toBe(true);
      expect(again.results).toEqual(first.results);
    }
    expect(upstream.requestsTo(BRAVE).length).toBe(before + 1);
    expect(new URL(upstream.requestsTo(BRAVE).at(-1)!.url).searchParams.get('q')).toBe('spelled apart site:a.example.com');
  });

  it('keeps a site: term whose path differs in letter case apart: the filter reads it as another place', async () => {
    const typed = async (words: string) => (await (await request(service.origin, `/v1/search/web?q=${encodeURIComponent(words)}&providers=brave`)).json()) as Answer;
    expect((await typed('paths site:A.example.com/Page')).cached).toBe(false);
    expect((await typed('paths site:a.example.com/Page')).cached).toBe(true);
    expect((await typed('paths site:a.example.com/page')).cached).toBe(false);
  });

  it('serves words spaced otherwise from the kept answer, but keeps a zero-width no-break space apart: it joins two words into one', async () => {
    const typed = async (words: string): Promise<Answer> => {
      const response = await request(service.origin, `/v1/search/web?q=${encodeURIComponent(words)}&providers=brave`);
      expect(response.status).toBe(200);
      return (await response.json()) as Answer;
    };
    expect((await typed('data base')).cached).toBe(false);
    expect((await typed('data \t\u00a0 base')).cached).toBe(true);
    const joined = await typed('data\ufeffbase');
    expect(joined.cached).toBe(false);
    expect(new URL(upstream.requestsTo(BRAVE).at(-1)!.url).searchParams.get('q')).toBe('data\ufeffbase');
    expect((await typed('data\ufeffbase')).cached).toBe(true);
  });

  it('never serves a text spaced within Brave\'s 400 characters the answer kept for it spaced past them', async () => {
    const typed = async (words: string) =>
      (await (await request(service.origin, `/v1/search/web?q=${encodeURIComponent(words)}&providers=brave`)).json()) as Answer & {
        providers: Array<{ provider: string; status: string }>;
      };
    const words = Array.from({ length: 50 }, () => 'spaced');
    // 349 characters in single spaces, 447 with them tripled (Brave accepts at most 400). Sent as typed, the tripled
    // text was skipped, and that answer, kept, was served to the single-spaced search too.
    const tripled = await typed(words.join('   '));
    expect(tripled.providers).toMatchObject([{ provider: 'brave', status: 'ok' }]);
    const single = await typed(words.join(' '));
    expect(single.cached).toBe(true);
    expect(single.providers).toMatchObject([{ provider: 'brave', status: 'ok' }]);
    expect(new URL(upstream.requestsTo(BRAVE).at(-1)!.url).searchParams.get('q')).toBe(words.join(' '));
  });

  it('keeps paths with another letter case apart: the filter reads them as other places', async () => {
    await search('include_domains=a.example.com/Page');
    const again = await search('include_domains=a.example.com/page');
    expect(again.cached).toBe(false);
  });
});
