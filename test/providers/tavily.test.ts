import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { isRecord } from '../../src/providers/parse-helpers.js';
import { TavilyProvider } from '../../src/providers/tavily.js';
import { useFakeUpstream } from '../support/fake-upstream.js';
import { makeProvider, makeQuery, response, runProvider } from '../support/run-provider.js';
import { describeSharedFixtures, endpointOf } from '../support/shared-fixtures.js';

const fixture = readFileSync(new URL('../fixtures/tavily/search.json', import.meta.url), 'utf8');
const errorFixture = readFileSync(new URL('../fixtures/tavily/error-401.json', import.meta.url), 'utf8');

describe('tavily adapter', () => {
  const upstream = useFakeUpstream();

  it('posts the query to /search with the bearer key and parses every result', async () => {
    upstream.json('POST /tavily/search', fixture);
    const provider = makeProvider(TavilyProvider, { TAVILY_API_KEY: 'tvly-test-1234', TAVILY_BASE_URL: `${upstream.origin}/tavily` });
    const query = makeQuery('reciprocal rank fusion', 'web', 5, { time_range: 'week', include_domains: ['example.org'], language: 'de' });
    const items = await runProvider(provider, query);
    const request = upstream.requestsTo('/tavily/search').at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.headers.authorization).toBe('Bearer tvly-test-1234');
    expect(request.headers['content-type']).toBe('application/json');
    // Tavily has no language parameter: the filter is left to the engine, not sent under a made-up name.
    expect(JSON.parse(request.body)).toEqual({
      query: 'reciprocal rank fusion',
      max_results: 5,
      search_depth: 'basic',
      topic: 'general',
      time_range: 'week',
      include_domains: ['example.org'],
    });
    expect(items).toEqual([
      {
        title: 'Reciprocal Rank Fusion outperforms Condorcet',
        url: 'https://example.org/rrf-paper',
        snippet: 'RRF combines ranked lists with 1/(k + rank).',
        published_at: '2024-05-02T10:00:00.000Z',
      },
      { title: 'Hybrid search & fusion', url: 'https://docs.example.com/hybrid', snippet: 'Blend keyword and vector results.' },
      { title: 'https://blog.example.net/fusion', url: 'https://blog.example.net/fusion' },
    ]);
  });

  it('gives the words of Markdown content, not its headings, emphasis, links and images', () => {
    const provider = makeProvider(TavilyProvider, { TAVILY_API_KEY: 'test-key-1' });
    const body = readFileSync(new URL('../fixtures/tavily/search-markdown-content.json', import.meta.url), 'utf8');
    const outcome = provider.parseResponse(response(body), makeQuery('rank fusion'));
    expect('items' in outcome && outcome.items.map((item) => item.snippet)).toEqual([
      'Search Notes. Rank fusion: a guide. Introducing reciprocal rank fusion-- see the original paper and "it needs no scores". Run fuse_lists() with k=60.',
      // Characters Markdown marks up with are plain text where they mark nothing up.
      'C# and F# code: 2*3*4 rows, a * b, snake_case_name and __init__ stay as written.',
    ]);
  });

  it('asks for at most 20 results, the most Tavily serves', () => {
    const provider = makeProvider(TavilyProvider, { TAVILY_API_KEY: 'k' });
    const request = provider.buildRequest(makeQuery('q', 'web', 50, { exclude_domains: ['spam.example'] }));
    expect(request.url).toBe('https://api.tavily.com/search');
    const body = JSON.parse(request.body!) as Record<string, unknown>;
    expect(body.max_results).toBe(20);
    expect(body.exclude_domains).toEqual(['spam.example']);
    expect(body).not.toHaveProperty('time_range');
  });

  it('reports a missing key as not configured', () => {
    expect(makeProvider(TavilyProvider, {}).missingSettings()).toEqual(['TAVILY_API_KEY']);
    expect(makeProvider(TavilyProvider, { TAVILY_API_KEY: 'k' }).missingSettings()).toEqual([]);
  });

  it('describes a rejected key through the real transport without echoing the key', async () => {
    upstream.json('POST /tavily-denied/search', errorFixture, 401);
    const provider = makeProvider(TavilyProvider, { TAVILY_API_KEY: 'tvly-secret-9876', TAVILY_BASE_URL: `${upstream.origin}/tavily-denied` });
    const failure = await runProvider(provider, makeQuery('q')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FedsearchError);
    expect((failure as FedsearchError).code).toBe('PROVIDER_AUTH');
    expect((failure as FedsearchError).message).toContain('Unauthorized: missing or invalid API key.');
    expect((failure as FedsearchError).message).not.toContain('tvly-secret-9876');
  });

  it('describes error bodies and throws on an error envelope that arrives with 200', () => {
    const provider = makeProvider(TavilyProvider, { TAVILY_API_KEY: 'k' });
    expect(provider.describeError(response(errorFixture, 401))).toBe('Unauthorized: missing or invalid API key.');
    expect(provider.describeError(response('{"detail":"Not Found"}', 404))).toBe('Not Found');
    expect(provider.describeError(response('<html>Bad gateway</html>', 502))).toBeUndefined();
    expect(() => provider.parseResponse(response(errorFixture), makeQuery('x'))).toThrow(FedsearchError);
    expect(() => provider.parseResponse(response(errorFixture), makeQuery('x'))).toThrow('Unauthorized: missing or invalid API key.');
    expect(() => provider.parseResponse(response('{"query":"x"}'), makeQuery('x'))).toThrow(FedsearchError);
  });
});

// Tavily answers JSON only: the endpoint is the format (include_answer, include_images… select fields).
const tavilySends = { sent: [makeProvider(TavilyProvider, { TAVILY_API_KEY: 'k' }).buildRequest(makeQuery('q'))], formatOf: endpointOf };

describeSharedFixtures('tavily', tavilySends, (fixtures) => {
  for (const fixture of fixtures) {
    const body = JSON.parse(fixture.body) as Record<string, unknown>;
    if (fixture.status >= 400 || !Array.isArray(body.results)) {
      it(`${fixture.file}: the error body is described and never parsed as results`, () => {
        const provider = makeProvider(TavilyProvider, { TAVILY_API_KEY: 'k' });
        expect(provider.describeError(response(fixture.body, fixture.status))).toMatch(/\S/);
        expect(() => provider.parseResponse(response(fixture.body, fixture.status), makeQuery('q'))).toThrow(FedsearchError);
      });
      continue;
    }
    it(`${fixture.file}: every result is parsed with title and url`, () => {
      const provider = makeProvider(TavilyProvider, { TAVILY_API_KEY: 'k' });
      const outcome = provider.parseResponse(response(fixture.body, fixture.status), makeQuery('q'));
      const results = (body.results as unknown[]).filter(isRecord);
      expect('items' in outcome && outcome.items.length).toBe(results.length);
      const items = 'items' in outcome ? outcome.items : [];
      expect(items.map((item) => item.url)).toEqual(results.map((result) => new URL(String(result.url)).toString()));
      for (const item of items) {
        expect(item.title.length).toBeGreaterThan(0);
        expect(item.url).toMatch(/^https?:\/\//);
        expect(item.snippet === undefined || item.snippet.length > 0).toBe(true);
      }
    });
  }
});
