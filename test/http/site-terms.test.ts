import { describe, expect, it } from 'vitest';
import { BRAVE_SEARCH_PATH as BRAVE, TAVILY_SEARCH_PATH as TAVILY, request } from '../support/service.js';
import { useWebResultsService } from '../support/web-results-service.js';

const HACKERNEWS = '/hackernews/api/v1/search';

type Answer = { results: Array<{ url: string }>; providers: Array<{ provider: string; status: string }> };

describe('site: terms typed in a web search', () => {
  const service = useWebResultsService({
    brave: [
      { title: 'Brave on docs.rs', url: 'https://docs.rs/tokio/latest/tokio/runtime/', description: 'the site asked for' },
      { title: 'Brave elsewhere', url: 'https://blog.example.org/tokio-runtime', description: 'a site not asked for' },
    ],
    tavily: [{ title: 'Tavily on docs.rs', url: 'https://docs.rs/tokio/latest/tokio/runtime/struct.Runtime.html', content: 'Runtime' }],
    env: { CACHE_TTL_SECONDS: '0' },
  });
  const { upstream } = service;
  upstream.json(HACKERNEWS, {
    hits: [
      { objectID: '101', title: 'HN on reddit', url: 'https://www.reddit.com/r/rust/tokio', created_at: '2024-01-01T00:00:00Z' },
      { objectID: '102', title: 'HN on docs.rs', url: 'https://docs.rs/tokio/latest/tokio/task/', created_at: '2024-01-02T00:00:00Z' },
      { objectID: '103', title: 'HN elsewhere', url: 'https://news.example.net/tokio', created_at: '2024-01-03T00:00:00Z' },
    ],
    nbPages: 1,
  });

  const search = (query: string, extra = ''): Promise<Answer> => service.search<Answer>(`q=${encodeURIComponent(query)}&providers=brave,tavily,hackernews${extra}`);

  it('sends Tavily the domains as include_domains / exclude_domains and the words alone, and keeps only those sites', async () => {
    const answer = await search('tokio runtime site:docs.rs -site:reddit.com');
    expect(answer.providers.map((provider) => [provider.provider, provider.status])).toEqual([
      ['brave', 'ok'],
      ['tavily', 'ok'],
      ['hackernews', 'ok'],
    ]);
    const tavily = JSON.parse(upstream.requestsTo(TAVILY).at(-1)!.body) as Record<string, unknown>;
    expect(tavily).toMatchObject({ query: 'tokio runtime', include_domains: ['docs.rs'], exclude_domains: ['reddit.com'] });
    // Brave reads site: itself: it is sent the text as typed.
    expect(upstream.requestsTo(BRAVE).at(-1)!.url.searchParams.get('q')).toBe('tokio runtime site:docs.rs -site:reddit.com');
    expect(upstream.requestsTo(HACKERNEWS).at(-1)!.url.searchParams.get('query')).toBe('tokio runtime');
    expect(answer.results.map((result) => result.url).sort()).toEqual([
      'https://docs.rs/tokio/latest/tokio/runtime/',
      'https://docs.rs/tokio/latest/tokio/runtime/struct.Runtime.html',
      'https://docs.rs/tokio/latest/tokio/task/',
    ]);
  });

  it('holds site: terms and include_domains both, and reads a URL or a path after site:', async () => {
    const answer = await search('tokio SITE:https://Docs.rs/tokio/', '&include_domains=docs.rs');
    const tavily = JSON.parse(upstream.requestsTo(TAVILY).at(-1)!.body) as Record<string, unknown>;
    // Tavily takes hosts (the entry docs.rs/tokio is sent as docs.rs); the engine holds the results to the path.
    expect(tavily).toMatchObject({ query: 'tokio', include_domains: ['docs.rs'] });
    expect(tavily.exclude_domains).toBeUndefined();
    expect(answer.results.map((result) => result.url).sort()).toEqual([
      'https://docs.rs/tokio/latest/tokio/runtime/',
      'https://docs.rs/tokio/latest/tokio/runtime/struct.Runtime.html',
      'https://docs.rs/tokio/latest/tokio/task/',
    ]);
  });

  it('keeps only results that meet a site: term and include_domains, from every provider alike', async () => {
    // Brave reads site:docs.rs itself; a result must also lie under the runtime guide the parameter names, and a
    // result on news.example.net (allowed by the parameter, not by the typed term) is no answer either.
    const answer = await search('tokio site:docs.rs', '&include_domains=docs.rs/tokio/latest/tokio/runtime,news.example.net');
    expect(answer.providers.map((provider) => [provider.provider, provider.status])).toEqual([
      ['brave', 'ok'],
      ['tavily', 'ok'],
      ['hackernews', 'ok'],
    ]);
    expect(upstream.requestsTo(BRAVE).at(-1)!.url.searchParams.get('q')).toBe('tokio site:docs.rs');
    const tavily = JSON.parse(upstream.requestsTo(TAVILY).at(-1)!.body) as Record<string, unknown>;
    expect(tavily).toMatchObject({ query: 'tokio', include_domains: ['docs.rs'] });
    expect(upstream.requestsTo(HACKERNEWS).at(-1)!.url.searchParams.get('query')).toBe('tokio');
    expect(answer.results.map((result) => result.url).sort()).toEqual([
      'https://docs.rs/tokio/latest/tokio/runtime/',
      'https://docs.rs/tokio/latest/tokio/runtime/struct.Runtime.html',
    ]);
  });

  it('refuses site: terms that share no domain with include_domains, asking no provider', async () => {
    const sent = upstream.requests.length;
    const response = await request(service.origin, `/v1/search/web?q=${encodeURIComponent('tokio site:docs.rs')}&include_domains=news.example.net&providers=brave,tavily,hackernews`);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.code).toBe('QUERY_INVALID');
    expect(body.message).toContain('site: terms (docs.rs) and include_domains (news.example.net) share no domain');
    // The stream refuses it the same way, before any event.
    const stream = await request(service.origin, `/v1/search/web/stream?q=${encodeURIComponent('tokio site:docs.rs')}&include_domains=news.example.net`);
    expect(stream.status).toBe(400);
    expect((await stream.json()).code).toBe('QUERY_INVALID');
    expect(upstream.requests.length).toBe(sent);
  });

  it('takes a site: path and an include_domains path spelled with and without percent-encoding for one place', async () => {
    // `%72untime` is `runtime`, as the filter reads result paths: one place, not two that share nothing (a 400).
    const answer = await search('tokio site:docs.rs/tokio/latest/tokio/%72untime', '&include_domains=docs.rs/tokio/latest/tokio/runtime/');
    expect(answer.providers.map((provider) => [provider.provider, provider.status])).toEqual([
      ['brave', 'ok'],
      ['tavily', 'ok'],
      ['hackernews', 'ok'],
    ]);
    expect(upstream.requestsTo(HACKERNEWS).at(-1)!.url.searchParams.get('query')).toBe('tokio');
    expect(answer.results.map((result) => result.url).sort()).toEqual([
      'https://docs.rs/tokio/latest/tokio/runtime/',
      'https://docs.rs/tokio/latest/tokio/runtime/struct.Runtime.html',
    ]);
    const accented = await request(
      service.origin,
      `/v1/search/web?q=${encodeURIComponent('menu site:example.org/caf%C3%A9')}&include_domains=${encodeURIComponent('example.org/café')}&providers=hackernews`,
    );
    expect(accented.status).toBe(200);
    expect(upstream.requestsTo(HACKERNEWS).at(-1)!.url.searchParams.get('query')).toBe('menu');
  });

  it('takes site: terms joined by OR as the domains they name, leaving no OR behind', async () => {
    await search('tokio site:docs.rs OR site:tokio.rs');
    const tavily = JSON.parse(upstream.requestsTo(TAVILY).at(-1)!.body) as Record<string, unknown>;
    expect(tavily).toMatchObject({ query: 'tokio', include_domains: ['docs.rs', 'tokio.rs'] });
  });

  it('sends the words of a site: term joined to a word by OR without the OR', async () => {
    const sentTo = (path: string, parameter: string) => upstream.requestsTo(path).at(-1)!.url.searchParams.get(parameter);
    await search('site:docs.rs OR tokio');
    expect(sentTo(HACKERNEWS, 'query')).toBe('tokio');
    expect(JSON.parse(upstream.requestsTo(TAVILY).at(-1)!.body)).toMatchObject({ query: 'tokio', include_domains: ['docs.rs'] });
    expect(sentTo(BRAVE, 'q')).toBe('site:docs.rs OR tokio');
    await search('site:docs.rs OR site:tokio.rs OR tokio');
    expect(sentTo(HACKERNEWS, 'query')).toBe('tokio');
    // Between two words, one OR stays: the site: term takes the one before it. (Hacker News is sent no OR at all:
    // Algolia has none, and would require it as a word.)
    await search('tokio OR site:docs.rs OR runtime');
    expect(JSON.parse(upstream.requestsTo(TAVILY).at(-1)!.body)).toMatchObject({ query: 'tokio OR runtime', include_domains: ['docs.rs'] });
    expect(sentTo(HACKERNEWS, 'query')).toBe('tokio runtime');
    await search('tokio site:docs.rs OR');
    expect(sentTo(HACKERNEWS, 'query')).toBe('tokio');
  });

  it('judges the length of the text each provider is sent: a site: term Tavily is not sent does not make it skip', async () => {
    const words = Array.from({ length: 66 }, () => 'tokio').join(' ');
    expect(words.length).toBe(395);
    const answer = await search(`${words} site:docs.rs`);
    const statuses = Object.fromEntries(answer.providers.map((provider) => [provider.provider, provider.status]));
    // Brave is sent the text as typed (408 characters, past its 400); Tavily the words alone (395, within its 400).
    expect(statuses).toEqual({ brave: 'skipped', tavily: 'ok', hackernews: 'ok' });
    const tavily = JSON.parse(upstream.requestsTo(TAVILY).at(-1)!.body) as Record<string, unknown>;
    expect(tavily).toMatchObject({ query: words, include_domains: ['docs.rs'] });
  });

  it('leaves a site: term inside a quoted phrase in the phrase, and filters by none', async () => {
    await search('tokio "is site:docs.rs down" -"or -site:crates.io');
    const tavily = JSON.parse(upstream.requestsTo(TAVILY).at(-1)!.body) as Record<string, unknown>;
    expect(tavily.query).toBe('tokio "is site:docs.rs down" -"or -site:crates.io');
    expect(tavily.include_domains).toBeUndefined();
    expect(tavily.exclude_domains).toBeUndefined();
  });

  it('leaves a site: term that names no domain, or one inside a word, in the text', async () => {
    await search('website:x site:localhost tokio');
    const tavily = JSON.parse(upstream.requestsTo(TAVILY).at(-1)!.body) as Record<string, unknown>;
    expect(tavily.query).toBe('website:x site:localhost tokio');
    expect(tavily.include_domains).toBeUndefined();
  });
});
