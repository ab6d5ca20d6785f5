import { describe, expect, it } from 'vitest';
import { TAVILY_SEARCH_PATH as TAVILY, request } from '../support/service.js';
import { useWebResultsService } from '../support/web-results-service.js';

type Answer = { cached: boolean; results: Array<{ url: string }> };

/**
 * `www.com` is a site of its own. Dropping its `www.` leaves `com`, which is every .com site: the filter, the cache key
 * and what Tavily is sent must all read it as the one host, and a bare top-level domain is refused as no site.
 */
describe('a domain entry whose www. is followed by a top-level domain alone', () => {
  const service = useWebResultsService({
    brave: [
      { title: 'The site', url: 'https://www.com/page', description: 'on www.com' },
      { title: 'Another site', url: 'https://example.com/page', description: 'some other .com site' },
    ],
    tavily: [
      { title: 'Tavily site', url: 'https://www.com/other', content: 'on www.com' },
      { title: 'Tavily other', url: 'https://example.com/other', content: 'some other .com site' },
    ],
    env: { CACHE_TTL_SECONDS: '300' },
  });
  const { upstream } = service;
  const search = (query: string): Promise<Answer> => service.search<Answer>(query);
  const urls = (answer: Answer): string[] => answer.results.map((result) => result.url);

  it('include_domains=www.com keeps that host only, not every .com site', async () => {
    expect(urls(await search('q=www+include&providers=brave&include_domains=www.com'))).toEqual(['https://www.com/page']);
  });

  it('exclude_domains=www.com drops that host only', async () => {
    expect(urls(await search('q=www+exclude&providers=brave&exclude_domains=www.com'))).toEqual(['https://example.com/page']);
  });

  it('sends Tavily the host as the filter reads it', async () => {
    await search('q=www+tavily&providers=tavily&include_domains=www.com');
    const body = JSON.parse(upstream.requestsTo(TAVILY).at(-1)!.body) as Record<string, unknown>;
    expect(body).toMatchObject({ include_domains: ['www.com'] });
  });

  it('keys include_domains=www.com apart from another .com site, and include_domains=www.example.com with example.com', async () => {
    const first = await search('q=www+key&providers=brave&include_domains=www.com');
    expect(first.cached).toBe(false);
    const other = await search('q=www+key&providers=brave&include_domains=example.com');
    expect(other.cached).toBe(false);
    expect(urls(other)).toEqual(['https://example.com/page']);
    expect((await search('q=www+key&providers=brave&include_domains=www.example.com')).cached).toBe(true);
  });

  it('a site:www.com term is the same one host, beside include_domains of another .com site: nothing both allow', async () => {
    const response = await request(service.origin, `/v1/search/web?q=${encodeURIComponent('typed site:www.com')}&providers=brave&include_domains=example.com`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain('share no domain');
  });

  it('refuses a bare top-level domain, saying what is allowed', async () => {
    for (const entry of ['com', 'gov']) {
      const response = await request(service.origin, `/v1/search/web?q=bare&providers=brave&include_domains=${entry}`);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        code: 'QUERY_INVALID',
        message: 'include_domains.0: not a domain name; allowed: a domain such as example.com, with or without a path (docs.example.com/guide)',
      });
    }
  });
});
