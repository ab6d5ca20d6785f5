import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { FirecrawlProvider } from '../../src/providers/firecrawl.js';
import { useFakeUpstream } from '../support/fake-upstream.js';
import { makeProvider, makeQuery, rejection, response, runProvider, transportFor } from '../support/run-provider.js';
import { describeSharedFixtures, endpointOf } from '../support/shared-fixtures.js';
import { asResponse } from '../support/upstream-read.js';

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/firecrawl/${name}`, import.meta.url), 'utf8');
const KEY = 'fc-test-key-5678';

describe('firecrawl adapter', () => {
  const upstream = useFakeUpstream();
  const provider = (): FirecrawlProvider =>
    makeProvider(FirecrawlProvider, { FIRECRAWL_API_KEY: KEY, FIRECRAWL_BASE_URL: `${upstream.origin}/firecrawl` }) as FirecrawlProvider;

  it('posts the search as JSON with the Bearer key and reads web, news and images', async () => {
    upstream.json('POST /firecrawl/v2/search', fixture('search-v2.json'));
    const items = await runProvider(provider(), makeQuery('firecrawl', 'content', 5, { time_range: 'week' }));
    const request = upstream.requestsTo('/firecrawl/v2/search').at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual({ query: 'firecrawl', limit: 5, tbs: 'qdr:w' });
    expect(items).toEqual([
      {
        title: 'Firecrawl docs',
        url: 'https://docs.firecrawl.example/',
        snippet: 'Docs & guides.',
        extra: { source: 'web' },
      },
      {
        // Empty title and no description: the page's own title and the words of its markdown stand in.
        title: 'Repository page',
        url: 'https://github.com/firecrawl-example/firecrawl',
        snippet: 'Firecrawl Turn websites into markdown.',
        extra: { source: 'web', category: 'github', language: 'en' },
      },
      {
        title: 'Firecrawl raises a round',
        url: 'https://news.example/firecrawl',
        snippet: 'Funding news.',
        published_at: '2024-05-01',
        extra: { source: 'news' },
      },
      {
        // "3 hours ago" is not a date: published_at stays absent.
        title: 'Firecrawl ships v2',
        url: 'https://news.example/v2',
        snippet: 'Release news.',
        extra: { source: 'news' },
      },
      {
        title: 'Firecrawl logo',
        url: 'https://firecrawl.example/brand',
        extra: { source: 'images', image_url: 'https://cdn.firecrawl.example/logo.png' },
      },
    ]);
  });

  it('gives a news date of a month and year as that month, not as its first day', async () => {
    const news = [{ title: 'Firecrawl in review', url: 'https://news.example/review', snippet: 'A review.', date: 'Apr 2024', position: 1 }];
    upstream.json('POST /firecrawl/v2/search', JSON.stringify({ success: true, data: { news } }));
    const items = await runProvider(provider(), makeQuery('firecrawl', 'content', 5));
    expect(items.map((item) => item.published_at)).toEqual(['2024-04']);
  });

  it('caps the limit at the 100 results Firecrawl serves', () => {
    const body = JSON.parse(provider().buildRequest(makeQuery('x', 'content', 400)).body!) as Record<string, unknown>;
    expect(body).toEqual({ query: 'x', limit: 100 });
  });

  it('reads the v2 search body it asks for and no other shape: a v1 list is a parse error', () => {
    const v1List = JSON.stringify({ success: true, data: [{ url: 'https://firecrawl.example/', title: 'Firecrawl' }] });
    expect(() => provider().parseResponse(response(v1List))).toThrow(expect.objectContaining({ code: 'PROVIDER_PARSE' }));
    const emptySearch = JSON.stringify({ success: true, data: {} });
    expect(provider().parseResponse(response(emptySearch))).toEqual({ items: [] });
  });

  it('builds and parses a scrape of one page', async () => {
    upstream.json('POST /firecrawl/v2/scrape', fixture('scrape-v2.json'));
    const firecrawl = provider();
    const transport = transportFor(firecrawl);
    const answer = await transport.send(firecrawl.buildScrapeRequest('https://example.com'), AbortSignal.timeout(10_000), asResponse);
    const request = upstream.requestsTo('/firecrawl/v2/scrape').at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.parse(request.body)).toEqual({ url: 'https://example.com', formats: ['markdown'], onlyMainContent: true });
    expect(firecrawl.parseScrapeResponse(answer)).toEqual({
      markdown: '# Example page\n\nSome text.',
      url: 'https://www.example.com/',
      title: 'Example page',
      description: 'An example.',
      language: 'en',
      published: '2024-03-01T10:00:00.000Z',
    });
    const noMarkdown = JSON.stringify({ success: true, data: { metadata: { url: 'https://example.com/' } } });
    expect(() => firecrawl.parseScrapeResponse(response(noMarkdown))).toThrow(FedsearchError);
  });

  it('names where a scrape landed only by metadata.url: not the address asked (sourceURL), nor the page\'s og:url', () => {
    const metadata = { title: 'Example page', sourceURL: 'https://example.com', ogUrl: 'https://example.com/canonical', 'og:url': 'https://example.com/canonical' };
    const unsaid = JSON.stringify({ success: true, data: { markdown: '# Example page', metadata } });
    expect(provider().parseScrapeResponse(response(unsaid)).url).toBeUndefined();
    const said = JSON.stringify({ success: true, data: { markdown: '# Example page', metadata: { ...metadata, url: 'http://10.0.0.1/admin' } } });
    expect(provider().parseScrapeResponse(response(said)).url).toBe('http://10.0.0.1/admin');
  });

  it('reports the missing key and refuses to build a request without it', () => {
    const unconfigured = makeProvider(FirecrawlProvider) as FirecrawlProvider;
    expect(unconfigured.missingSettings()).toEqual(['FIRECRAWL_API_KEY']);
    expect(() => unconfigured.buildRequest(makeQuery('x', 'content'))).toThrow(/FIRECRAWL_API_KEY/);
    expect(() => unconfigured.buildScrapeRequest('https://example.com')).toThrow(/FIRECRAWL_API_KEY/);
  });

  it('reports used-up credits (402) and a rate limit (429) as limits, not as errors of the request, without the key', async () => {
    const firecrawl = provider();
    const cases: Array<{ status: number; headers: Record<string, string>; error: string; message: string }> = [
      { status: 402, headers: {}, error: 'Payment required: insufficient credits to perform this request.', message: 'HTTP 402: quota or plan limit reached: Payment required: insufficient credits to perform this request.' },
      { status: 429, headers: { 'retry-after': '12' }, error: `Rate limit exceeded for ${KEY}`, message: 'HTTP 429: rate limited (retry after 12 s): Rate limit exceeded for [redacted]' },
    ];
    for (const refusal of cases) {
      upstream.json('POST /firecrawl/v2/search', { success: false, error: refusal.error }, refusal.status, refusal.headers);
      const failure = await rejection(runProvider(firecrawl, makeQuery('q', 'content')));
      expect({ code: failure.code, message: failure.message }).toEqual({ code: 'PROVIDER_RATE_LIMITED', message: refusal.message });
    }
  });

  it('describes the error envelope by its error, and throws on success:false in a 200', () => {
    const firecrawl = provider();
    const error = fixture('error-402.json');
    expect(firecrawl.describeError(response(error, 402))).toBe('Payment Required: Insufficient credits to perform this request.');
    expect(() => firecrawl.parseResponse(response(error))).toThrow(FedsearchError);
    expect(() => firecrawl.parseScrapeResponse(response(error))).toThrow(FedsearchError);
    const noUrl = JSON.stringify({ success: true, data: { web: [{ title: 'No link' }] } });
    expect(() => firecrawl.parseResponse(response(noUrl))).toThrow(/none of the 1 listed results could be read/);
  });
});

const firecrawl = makeProvider(FirecrawlProvider, { FIRECRAWL_API_KEY: 'k' }) as FirecrawlProvider;
// Firecrawl answers JSON; the API version is in the path (/v1/…, /v2/…), so the endpoint is the format.
const firecrawlSends = { sent: [firecrawl.buildRequest(makeQuery('q', 'content')), firecrawl.buildScrapeRequest('https://example.com')], formatOf: endpointOf };

describeSharedFixtures('firecrawl', firecrawlSends, (fixtures) => {
  for (const shared of fixtures) {
    if (shared.status >= 200 && shared.status < 300 && shared.answers.url.pathname.endsWith('/scrape')) {
      it(`${shared.file}: the scraped page is read with its markdown, url and title`, () => {
        const page = firecrawl.parseScrapeResponse(response(shared.body, shared.status));
        expect(page.markdown.length).toBeGreaterThan(0);
        expect(page.url).toMatch(/^https?:\/\//);
        expect(page.title?.length).toBeGreaterThan(0);
      });
    } else if (shared.status >= 200 && shared.status < 300) {
      it(`${shared.file}: every result is parsed with title and url`, () => {
        const data = (JSON.parse(shared.body) as { data: Record<string, unknown[] | undefined> }).data;
        const expected = ['web', 'news', 'images'].reduce((sum, source) => sum + (data[source]?.length ?? 0), 0);
        const outcome = firecrawl.parseResponse(response(shared.body, shared.status));
        const items = 'items' in outcome ? outcome.items : [];
        expect(expected).toBeGreaterThan(0);
        expect(items).toHaveLength(expected);
        for (const item of items) {
          expect(item.title.length).toBeGreaterThan(0);
          expect(item.url).toMatch(/^https?:\/\//);
          expect(item.snippet === undefined || item.snippet.length > 0).toBe(true);
        }
      });
    } else {
      it(`${shared.file}: the error body is described by its error`, () => {
        expect(firecrawl.describeError(response(shared.body, shared.status))).toBe((JSON.parse(shared.body) as { error: string }).error);
        expect(() => firecrawl.parseResponse(response(shared.body, shared.status))).toThrow(FedsearchError);
      });
    }
  }
});
