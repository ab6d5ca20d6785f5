import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE = '/brave/res/v1/web/search';
const TAVILY = '/tavily/search';
const EXA = '/exa/search';

type Answer = { results: Array<{ url: string }>; providers: Array<{ provider: string; status: string }> };

/**
 * Two searches whose answers the cache keeps as one (cached-answer.ts cacheKey) must be one search to every provider
 * too: else the second caller is served what the providers found for the first, though they were never asked its own
 * question. Here the cache keeps nothing, so each search asks the providers, and what each was sent is compared.
 */
describe('searches that share one cached answer send every provider the same request', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json(BRAVE, { web: { results: [{ title: 'Brave', url: 'https://docs.rs/tokio/', description: 'on docs.rs' }] } });
    upstream.json(TAVILY, { results: [{ title: 'Tavily', url: 'https://docs.rs/tokio/latest/', content: 'on docs.rs' }] });
    upstream.json(EXA, { results: [{ title: 'Exa', url: 'https://docs.rs/tokio/task/', highlights: ['on docs.rs'] }] });
    service = await startService({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'brave-key-0123456789',
      TAVILY_API_KEY: 'tvly-key-0123456789',
      EXA_API_KEY: 'exa-key-0123456789',
      CACHE_TTL_SECONDS: '0',
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  /** What Brave (its query string), Tavily and Exa (their bodies) were sent for one search. */
  const sentFor = async (parameters: string): Promise<string[]> => {
    const before = upstream.requests.length;
    const response = await request(service.origin, `/v1/search/web?${parameters}&providers=brave,tavily,exa`);
    expect(response.status).toBe(200);
    const answer = (await response.json()) as Answer;
    expect(answer.providers.map((provider) => provider.status)).toEqual(['ok', 'ok', 'ok']);
    const asked = upstream.requests.slice(before);
    const one = (path: string) => {
      const requests = asked.filter((recorded) => recorded.path === path);
      expect(requests).toHaveLength(1);
      return requests[0]!;
    };
    const exa = JSON.parse(one(EXA).body) as Record<string, unknown>;
    const tavily = JSON.parse(one(TAVILY).body) as Record<string, unknown>;
    return [one(BRAVE).url.search, JSON.stringify(tavily), JSON.stringify(exa)];
  };

  it('sends a site: term in capitals or with a scheme as the term the search reads, one search with site:docs.rs', async () => {
    const plain = await sentFor(`q=${encodeURIComponent('tokio runtime site:docs.rs')}`);
    // Brave reads site: terms itself: it is sent the one term the filter and the cache key read.
    expect(new URLSearchParams(plain[0]).get('q')).toBe('tokio runtime site:docs.rs');
    for (const typed of ['tokio runtime SITE:Docs.rs', 'tokio runtime site:https://docs.rs/', 'tokio runtime Site:HTTP://DOCS.RS//']) {
      expect(await sentFor(`q=${encodeURIComponent(typed)}`), typed).toEqual(plain);
    }
  });

  it('sends a text of site: terms alone, which every provider is sent, as the one term the search reads', async () => {
    const plain = await sentFor(`q=${encodeURIComponent('site:docs.rs')}`);
    expect(JSON.parse(plain[1]!)).toMatchObject({ query: 'site:docs.rs', include_domains: ['docs.rs'] });
    expect(await sentFor(`q=${encodeURIComponent('SITE:https://Docs.rs/')}`)).toEqual(plain);
  });

  it('sends white space between words as one space, as the answer is kept: no provider reads the two texts apart', async () => {
    // 399 characters in single spaces, within Tavily's and Brave's 400; 448 with the spaces doubled.
    const words = Array.from({ length: 50 }, () => 'ranking');
    const single = await sentFor(`q=${words.join('+')}`);
    expect(JSON.parse(single[1]!)).toMatchObject({ query: words.join(' ') });
    // Doubled, the text was sent as typed and judged too long by both: the answer kept for it said so to every caller
    // of the single-spaced search too.
    expect(await sentFor(`q=${words.join('++')}`)).toEqual(single);
    expect(await sentFor(`q=${encodeURIComponent(words.join(' \t\u3000'))}`)).toEqual(single);
  });

  it('sends Tavily and Exa a www. domain entry as the host without it, as the filter reads it and the key keeps it', async () => {
    const bare = await sentFor('q=runtime&include_domains=docs.rs&exclude_domains=blog.example.org');
    expect(JSON.parse(bare[1]!)).toMatchObject({ include_domains: ['docs.rs'], exclude_domains: ['blog.example.org'] });
    expect(JSON.parse(bare[2]!)).toMatchObject({ includeDomains: ['docs.rs'], excludeDomains: ['blog.example.org'] });
    expect(await sentFor('q=runtime&include_domains=www.docs.rs&exclude_domains=www.blog.example.org')).toEqual(bare);
    const withPath = await sentFor('q=runtime&include_domains=docs.rs/tokio');
    expect(await sentFor('q=runtime&include_domains=www.docs.rs/tokio')).toEqual(withPath);
    expect(JSON.parse(withPath[2]!)).toMatchObject({ includeDomains: ['docs.rs/tokio'] });
  });

  it('sends a site: term with www. as typed and keeps its answer apart: Brave reads that host alone', async () => {
    const www = await sentFor(`q=${encodeURIComponent('runtime site:www.docs.rs')}`);
    expect(new URLSearchParams(www[0]).get('q')).toBe('runtime site:www.docs.rs');
    expect(www[0]).not.toBe((await sentFor(`q=${encodeURIComponent('runtime site:docs.rs')}`))[0]);
  });
});
