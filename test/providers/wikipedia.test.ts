import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { isRecord } from '../../src/providers/parse-helpers.js';
import { WikipediaProvider } from '../../src/providers/wikipedia.js';
import { useFakeUpstream } from '../support/fake-upstream.js';
import { makeProvider, makeQuery, response, runProvider } from '../support/run-provider.js';
import { describeSharedFixtures, endpointOf, type RequestLine } from '../support/shared-fixtures.js';

const read = (name: string): string => readFileSync(new URL(`../fixtures/wikipedia/${name}`, import.meta.url), 'utf8');
const listSearch = read('list-search.json');
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

  it("sends the NOT that starts a query written in capitals as the word not, which CirrusSearch does not read as its NOT", async () => {
    upstream.json('GET /wikipedia/w/api.php', listSearch);
    const provider = makeProvider(WikipediaProvider, { WIKIPEDIA_BASE_URL: `${upstream.origin}/wikipedia` });
    const srsearchSent = async (text: string): Promise<string | null> => {
      await runProvider(provider, makeQuery(text, 'web', 3));
      return upstream.requestsTo('/wikipedia/w/api.php').at(-1)!.url.searchParams.get('srsearch');
    };
    // CirrusSearch reads `NOT dog` as `-dog` (Help:CirrusSearch/Logical operators): sent as typed, NOT INVENTED HERE
    // excluded the very words searched for.
    expect(await srsearchSent('NOT INVENTED HERE')).toBe('not INVENTED HERE');
    // Between words, and among lower-case words, NOT is the operator still; inside a phrase a word of it.
    expect(await srsearchSent('HIV NOT AIDS')).toBe('HIV NOT AIDS');
    expect(await srsearchSent('NOT rats asthma')).toBe('NOT rats asthma');
    expect(await srsearchSent('"NOT INVENTED HERE" syndrome')).toBe('"NOT INVENTED HERE" syndrome');
  });

  it('answers a search that found nothing with no items', () => {
    const provider = makeProvider(WikipediaProvider);
    const nothing = JSON.stringify({ batchcomplete: true, query: { searchinfo: { totalhits: 0 }, search: [] } });
    expect(provider.parseResponse(response(nothing), makeQuery('q'))).toEqual({ items: [] });
  });

  it('reads the list=search answer it asks for and no other shape: generator pages or a REST summary are parse errors', () => {
    const provider = makeProvider(WikipediaProvider);
    const generator = JSON.stringify({ batchcomplete: true, query: { pages: [{ pageid: 9, title: 'First', index: 1 }] } });
    const summary = JSON.stringify({ title: 'Fermat', extract: 'A theorem.', content_urls: { desktop: { page: 'https://en.wikipedia.org/wiki/Fermat' } } });
    for (const body of [generator, summary]) {
      expect(() => provider.parseResponse(response(body), makeQuery('q'))).toThrow(expect.objectContaining({ code: 'PROVIDER_PARSE' }));
    }
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
    const rateLimited = JSON.stringify({ error: { code: 'ratelimited', info: 'You have exceeded your rate limit.', docref: 'See …' } });
    expect(() => provider.parseResponse(response(rateLimited), makeQuery('q'))).toThrow('You have exceeded your rate limit. (ratelimited)');
  });

  it("marks CirrusSearch's refusals of the search's own text as the request's, and no other error", () => {
    const provider = makeProvider(WikipediaProvider);
    const thrown = (code: string): FedsearchError => {
      const body = JSON.stringify({ error: { code, info: 'refused' } });
      try {
        provider.parseResponse(response(body), makeQuery('insource:/[/'));
      } catch (error) {
        if (error instanceof FedsearchError) return error;
      }
      throw new Error(`no FedsearchError for ${code}`);
    };
    for (const code of ['cirrussearch-regex-syntax-error', 'cirrussearch-regex-too-complex-error', 'cirrussearch-regex-too-busy-error', 'cirrussearch-parse-error', 'cirrussearch-query-too-long']) {
      expect(thrown(code)).toMatchObject({ code: 'PROVIDER_UPSTREAM', refusedRequest: true, message: `refused (${code})` });
    }
    for (const code of ['cirrussearch-backend-error', 'cirrussearch-too-busy-error', 'internal_api_error_DBQueryError', 'maxlag', 'readonly', 'ratelimited', 'badvalue']) {
      expect(thrown(code)).toMatchObject({ code: 'PROVIDER_UPSTREAM', refusedRequest: false });
    }
  });

  it('describes error bodies on non-2xx statuses and stays quiet about HTML pages', () => {
    const provider = makeProvider(WikipediaProvider);
    expect(provider.describeError(response(errorBody, 400))).toBe('Unrecognized value for parameter "list": serch. (badvalue)');
    expect(provider.describeError(response('<!DOCTYPE html><html>Too many requests</html>', 429))).toBeUndefined();
  });
});

/** How many pages a recorded list=search body holds, counted straight from its JSON. */
function pageCount(body: Record<string, unknown>): number {
  return isRecord(body.query) && Array.isArray(body.query.search) ? body.query.search.length : 0;
}

/**
 * The Action API's answer depends on the module asked for (action, list, generator) and on format and
 * errorformat (bc unless given); /api/rest_v1 is another API altogether. formatversion is left out: for
 * list=search it changes only how empty flags are spelled (batchcomplete "" or true), not the fields read.
 */
function actionApiFormat(request: RequestLine): string {
  const parameter = (name: string, fallback = '-'): string => `${name}=${request.parameters.get(name) ?? fallback}`;
  return [
    endpointOf(request),
    parameter('action'),
    parameter('list'),
    parameter('generator'),
    parameter('format', 'jsonfm'),
    parameter('errorformat', 'bc'),
  ].join(' ');
}

const wikipediaSends = { sent: [makeProvider(WikipediaProvider).buildRequest(makeQuery('q'))], formatOf: actionApiFormat };

describeSharedFixtures('wikipedia', wikipediaSends, (fixtures) => {
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
    });
  }
});
