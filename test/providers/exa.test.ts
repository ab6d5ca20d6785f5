import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { ExaProvider } from '../../src/providers/exa.js';
import { isRecord } from '../../src/providers/parse-helpers.js';
import { useFakeUpstream } from '../support/fake-upstream.js';
import { makeProvider, makeQuery, response, runProvider } from '../support/run-provider.js';
import { describeSharedFixtures, endpointOf } from '../support/shared-fixtures.js';

const fixture = readFileSync(new URL('../fixtures/exa/search.json', import.meta.url), 'utf8');
const errorFixture = readFileSync(new URL('../fixtures/exa/error-400.json', import.meta.url), 'utf8');
const DAY_MS = 24 * 60 * 60 * 1000;

describe('exa adapter', () => {
  const upstream = useFakeUpstream();

  it('posts the query to /search with x-api-key and parses every result', async () => {
    upstream.json('POST /exa/search', fixture);
    const provider = makeProvider(ExaProvider, { EXA_API_KEY: 'exa-test-1234', EXA_BASE_URL: `${upstream.origin}/exa` });
    const query = makeQuery('rank fusion', 'web', 7, { include_domains: ['example.org'], exclude_domains: ['spam.example'], safesearch: 'strict' });
    const items = await runProvider(provider, query);
    const request = upstream.requestsTo('/exa/search').at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.headers['x-api-key']).toBe('exa-test-1234');
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual({
      query: 'rank fusion',
      type: 'auto',
      numResults: 7,
      contents: { highlights: true },
      includeDomains: ['example.org'],
      excludeDomains: ['spam.example'],
    });
    expect(items).toEqual([
      {
        title: 'Reciprocal rank fusion explained',
        url: 'https://example.org/rrf',
        snippet: 'RRF adds 1/(k + rank) per list. … It needs no score calibration.',
        published_at: '2024-05-02T00:00:00.000Z',
      },
      {
        // No title: the URL stands in; the page text is cut at a word break near 500 characters.
        title: 'https://docs.example.com/fusion',
        url: 'https://docs.example.com/fusion',
        snippet: `Rank fusion ${Array.from({ length: 48 }, () => 'abcdefghi').join(' ')} …`,
      },
      {
        title: 'https://blog.example.net/metasearch',
        url: 'https://blog.example.net/metasearch',
        snippet: 'A blog post on merging search results.',
        published_at: '2023-11-20',
      },
    ]);
  });

  it('gives the words of Markdown highlights, not their headings, emphasis, links and code ticks', () => {
    const provider = makeProvider(ExaProvider, { EXA_API_KEY: 'test-key-1' });
    const body = readFileSync(new URL('../fixtures/exa/search-markdown-highlights.json', import.meta.url), 'utf8');
    const outcome = provider.parseResponse(response(body), makeQuery('rank fusion'));
    expect('items' in outcome && outcome.items.map((item) => item.snippet)).toEqual([
      'Fusion is a Python library built on Example Validation and type hints. … Install ... Run pip install fusion.',
    ]);
  });

  it('never cuts a long preview between the two halves of a character outside the BMP', () => {
    const provider = makeProvider(ExaProvider, { EXA_API_KEY: 'test-key-1' });
    // One letter, then emoji of two UTF-16 units each: the 500th unit is the first half of the 250th emoji.
    const body = JSON.stringify({ results: [{ url: 'https://emoji.example/', title: 'Emoji', text: `x${'😀'.repeat(400)}` }] });
    const outcome = provider.parseResponse(response(body), makeQuery('emoji'));
    expect('items' in outcome && outcome.items.map((item) => item.snippet)).toEqual([`x${'😀'.repeat(249)} …`]);
  });

  it('gives words, not the link and code halves left where Exa cut a highlight into pieces', async () => {
    upstream.json('POST /exa-cut/search', readFileSync(new URL('../fixtures/exa/search-cut-highlights.json', import.meta.url), 'utf8'));
    const provider = makeProvider(ExaProvider, { EXA_API_KEY: 'test-key-1', EXA_BASE_URL: `${upstream.origin}/exa-cut` });
    const items = await runProvider(provider, makeQuery('rank fusion'));
    expect(items.map((item) => item.snippet)).toEqual([
      'Fusion Kit merges ranked lists ... with web search ... reading, and more ... or install community packages ... ' +
        'Tools get their context from FusionDependencies … Build your first index today! It takes **kwargs and __init__ hooks.',
    ]);
  });

  it('turns a time range into startPublishedDate that many days back', () => {
    const provider = makeProvider(ExaProvider, { EXA_API_KEY: 'k' });
    const before = Date.now();
    const request = provider.buildRequest(makeQuery('q', 'web', 500, { time_range: 'week' }));
    const after = Date.now();
    expect(request.url).toBe('https://api.exa.ai/search');
    const body = JSON.parse(request.body!) as Record<string, unknown>;
    expect(body.numResults).toBe(100);
    const start = Date.parse(String(body.startPublishedDate));
    expect(start).toBeGreaterThanOrEqual(before - 7 * DAY_MS);
    expect(start).toBeLessThanOrEqual(after - 7 * DAY_MS);
  });

  it('reports a missing key as not configured', () => {
    expect(makeProvider(ExaProvider, {}).missingSettings()).toEqual(['EXA_API_KEY']);
    expect(makeProvider(ExaProvider, { EXA_API_KEY: 'k' }).missingSettings()).toEqual([]);
  });

  it('describes the 400 Exa sends for a bad key through the real transport, without the key', async () => {
    upstream.json('POST /exa-denied/search', errorFixture, 400);
    const provider = makeProvider(ExaProvider, { EXA_API_KEY: 'exa-secret-9876', EXA_BASE_URL: `${upstream.origin}/exa-denied` });
    const failure = await runProvider(provider, makeQuery('q')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FedsearchError);
    // A 400, but for the key: PROVIDER_AUTH, with the setting to check.
    expect((failure as FedsearchError).code).toBe('PROVIDER_AUTH');
    expect((failure as FedsearchError).message).toBe('HTTP 400: the key was refused: x-api-key header is invalid (check EXA_API_KEY)');
    expect((failure as FedsearchError).message).not.toContain('exa-secret-9876');
    expect((failure as FedsearchError).message).not.toContain('0000000000000000000000000000000b');
  });

  it('describes error bodies and throws on an error body that arrives with 200', () => {
    const provider = makeProvider(ExaProvider, { EXA_API_KEY: 'k' });
    expect(provider.describeError(response(errorFixture, 400))).toBe('x-api-key header is invalid');
    expect(provider.describeError(response('upstream connect error', 503))).toBeUndefined();
    expect(() => provider.parseResponse(response(errorFixture), makeQuery('x'))).toThrow(FedsearchError);
    expect(() => provider.parseResponse(response(errorFixture), makeQuery('x'))).toThrow('x-api-key header is invalid');
  });
});

// Exa answers JSON only: the endpoint is the format (which contents come back is a field selection).
const exaSends = { sent: [makeProvider(ExaProvider, { EXA_API_KEY: 'k' }).buildRequest(makeQuery('q'))], formatOf: endpointOf };

describeSharedFixtures('exa', exaSends, (fixtures) => {
  for (const fixture of fixtures) {
    const body = JSON.parse(fixture.body) as Record<string, unknown>;
    if (fixture.status >= 400 || 'error' in body) {
      it(`${fixture.file}: the error body is described and never parsed as results`, () => {
        const provider = makeProvider(ExaProvider, { EXA_API_KEY: 'k' });
        expect(provider.describeError(response(fixture.body, fixture.status))).toMatch(/\S/);
        expect(() => provider.parseResponse(response(fixture.body, fixture.status), makeQuery('q'))).toThrow(FedsearchError);
      });
      continue;
    }
    it(`${fixture.file}: every result is parsed with title and url`, () => {
      const provider = makeProvider(ExaProvider, { EXA_API_KEY: 'k' });
      const outcome = provider.parseResponse(response(fixture.body, fixture.status), makeQuery('q'));
      const results = Array.isArray(body.results) ? body.results.filter(isRecord) : [];
      expect(results.length).toBeGreaterThan(0);
      expect('items' in outcome && outcome.items.length).toBe(results.length);
      const items = 'items' in outcome ? outcome.items : [];
      for (const [index, item] of items.entries()) {
        expect(item.title.length).toBeGreaterThan(0);
        expect(item.url).toMatch(/^https?:\/\//);
        expect(item.snippet === undefined || (item.snippet.length > 0 && item.snippet.length <= 502)).toBe(true);
        if (results[index]!.publishedDate) expect(item.published_at).toMatch(/^\d{4}-\d{2}-\d{2}/);
      }
    });
  }
});
