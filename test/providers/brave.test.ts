import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { BraveProvider } from '../../src/providers/brave.js';
import { isRecord } from '../../src/providers/parse-helpers.js';
import { useFakeUpstream } from '../support/fake-upstream.js';
import { makeProvider, makeQuery, response, runProvider } from '../support/run-provider.js';
import { describeSharedFixtures, endpointOf } from '../support/shared-fixtures.js';

const fixture = readFileSync(new URL('../fixtures/brave/web-search.json', import.meta.url), 'utf8');

describe('brave adapter', () => {
  const upstream = useFakeUpstream();

  it('calls the real path with the key header and parses every item', async () => {
    upstream.json('GET /brave/res/v1/web/search', fixture);
    const provider = makeProvider(BraveProvider, { BRAVE_API_KEY: 'test-key-1234', BRAVE_BASE_URL: `${upstream.origin}/brave` });
    const items = await runProvider(provider, makeQuery('fedsearch rrf', 'web', 5, { time_range: 'week' }));
    const request = upstream.requestsTo('/brave/res/v1/web/search').at(-1)!;
    expect(request.url.searchParams.get('q')).toBe('fedsearch rrf');
    expect(request.url.searchParams.get('count')).toBe('5');
    expect(request.url.searchParams.get('freshness')).toBe('pw');
    expect(request.headers['x-subscription-token']).toBe('test-key-1234');
    expect(items).toEqual([
      {
        title: 'Reciprocal Rank Fusion & friends',
        url: 'https://example.org/rrf?utm_source=brave',
        snippet: 'How RRF combines ranked lists.',
        published_at: '2024-05-02T10:00:00.000Z',
      },
      {
        title: 'Federated search',
        url: 'https://en.example.com/wiki/Federated_search',
        snippet: 'Federated search retrieves information from many sources.',
      },
      { title: 'Metasearch news', url: 'https://news.example.net/metasearch', snippet: 'A story.' },
    ]);
  });

  it('sends the NOT that starts a query written in capitals as the word not, as Brave reads an upper-case NOT as its operator', async () => {
    upstream.json('GET /brave/res/v1/web/search', fixture);
    const provider = makeProvider(BraveProvider, { BRAVE_API_KEY: 'test-key-1234', BRAVE_BASE_URL: `${upstream.origin}/brave` });
    const qSent = async (text: string): Promise<string | null> => {
      await runProvider(provider, makeQuery(text, 'web', 5));
      return upstream.requestsTo('/brave/res/v1/web/search').at(-1)!.url.searchParams.get('q');
    };
    expect(await qSent('NOT INVENTED HERE')).toBe('not INVENTED HERE');
    expect(await qSent('NOT FOUND nginx')).toBe('NOT FOUND nginx');
    expect(await qSent('HIV NOT AIDS')).toBe('HIV NOT AIDS');
  });

  it('reports a missing key as not configured', () => {
    expect(makeProvider(BraveProvider, {}).missingSettings()).toEqual(['BRAVE_API_KEY']);
  });

  it('describes an error body without echoing it whole', () => {
    const provider = makeProvider(BraveProvider, { BRAVE_API_KEY: 'k' });
    const body = JSON.stringify({ type: 'ErrorResponse', error: { code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The provided subscription token is invalid.' } });
    expect(provider.describeError(response(body, 422))).toBe('The provided subscription token is invalid.');
    expect(() => provider.parseResponse(response(body), makeQuery('x'))).toThrow(FedsearchError);
  });
});

// Brave's web search answers JSON only: the endpoint is the format.
const braveSends = { sent: [makeProvider(BraveProvider, { BRAVE_API_KEY: 'k' }).buildRequest(makeQuery('q'))], formatOf: endpointOf };

describeSharedFixtures('brave', braveSends, (fixtures) => {
  for (const fixture of fixtures) {
    it(`${fixture.file}: every web result is parsed with title and url`, () => {
      const provider = makeProvider(BraveProvider, { BRAVE_API_KEY: 'k' });
      const outcome = provider.parseResponse(response(fixture.body, fixture.status), makeQuery('q'));
      const body = JSON.parse(fixture.body) as Record<string, unknown>;
      const expected = ['web', 'news', 'videos'].reduce((sum, section) => {
        const value = body[section];
        return sum + (isRecord(value) && Array.isArray(value.results) ? value.results.length : 0);
      }, 0);
      expect('items' in outcome && outcome.items.length).toBe(expected);
      for (const item of 'items' in outcome ? outcome.items : []) {
        expect(item.title.length).toBeGreaterThan(0);
        expect(item.url).toMatch(/^https?:\/\//);
        expect(item.snippet === undefined || item.snippet.length > 0).toBe(true);
      }
    });
  }
});
