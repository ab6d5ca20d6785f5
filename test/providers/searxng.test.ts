import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { isRecord } from '../../src/providers/parse-helpers.js';
import { SearxngProvider } from '../../src/providers/searxng.js';
import { useFakeUpstream } from '../support/fake-upstream.js';
import { makeProvider, makeQuery, response, runProvider } from '../support/run-provider.js';
import { describeSharedFixtures, endpointOf, type RequestLine } from '../support/shared-fixtures.js';

const fixture = readFileSync(new URL('../fixtures/searxng/search.json', import.meta.url), 'utf8');
const allFailed = readFileSync(new URL('../fixtures/searxng/all-engines-failed.json', import.meta.url), 'utf8');

describe('searxng adapter', () => {
  const upstream = useFakeUpstream();

  it('calls {SEARXNG_URL}/search with format=json and the filters SearXNG knows, and parses every result', async () => {
    upstream.json('GET /searxng/search', fixture);
    const provider = makeProvider(SearxngProvider, { SEARXNG_URL: `${upstream.origin}/searxng/` });
    const query = makeQuery('rank fusion', 'web', 5, { time_range: 'month', language: 'fr', safesearch: 'strict', include_domains: ['example.org'] });
    const items = await runProvider(provider, query);
    // The first page; its three results are fewer than asked for, so page 2 is asked too (and adds nothing new).
    const request = upstream.requestsTo('/searxng/search')[0]!;
    expect(request.method).toBe('GET');
    expect(Object.fromEntries(request.url.searchParams)).toEqual({
      q: 'rank fusion',
      format: 'json',
      pageno: '1',
      time_range: 'month',
      language: 'fr',
      safesearch: '2',
    });
    expect(items).toEqual([
      {
        title: 'Reciprocal rank fusion & metasearch',
        url: 'https://example.org/rrf',
        snippet: 'How RRF merges lists.',
        published_at: '2024-01-15T00:00:00.000Z',
      },
      { title: 'Fusion in practice', url: 'https://docs.example.com/fusion' },
      { title: 'Metasearch engines today', url: 'https://news.example.net/metasearch', snippet: 'A short history.' },
    ]);
  });

  it('maps each safesearch level to 0, 1 and 2', () => {
    const provider = makeProvider(SearxngProvider, { SEARXNG_URL: 'http://searx.local:8080' });
    const levels = (['off', 'moderate', 'strict'] as const).map(
      (safesearch) => new URL(provider.buildRequest(makeQuery('q', 'web', 10, { safesearch })).url).searchParams.get('safesearch'),
    );
    expect(levels).toEqual(['0', '1', '2']);
    expect(provider.buildRequest(makeQuery('q')).url).toBe('http://searx.local:8080/search?q=q&format=json&pageno=1');
  });

  it('reports a missing SEARXNG_URL as not configured', () => {
    expect(makeProvider(SearxngProvider, {}).missingSettings()).toEqual(['SEARXNG_URL']);
    expect(makeProvider(SearxngProvider, { SEARXNG_URL: 'http://searx.local' }).missingSettings()).toEqual([]);
  });

  it('turns "no results because every engine failed" into an error naming the engines', () => {
    const provider = makeProvider(SearxngProvider, { SEARXNG_URL: 'http://searx.local' });
    expect(() => provider.parseResponse(response(allFailed), makeQuery('q'))).toThrow(FedsearchError);
    expect(() => provider.parseResponse(response(allFailed), makeQuery('q'))).toThrow('google (CAPTCHA), duckduckgo (timeout)');
    const empty = JSON.stringify({ query: 'q', results: [], unresponsive_engines: [] });
    expect(provider.parseResponse(response(empty), makeQuery('q'))).toEqual({ items: [] });
  });

  it("marks every engine failing as the query's doing when SearXNG took its words as a bang (!name) or a timeout (<N)", () => {
    const provider = makeProvider(SearxngProvider, { SEARXNG_URL: 'http://searx.local' });
    const thrown = (text: string): unknown => {
      try {
        provider.parseResponse(response(allFailed), makeQuery(text));
      } catch (error) {
        return error;
      }
      return undefined;
    };
    // The answer's query is `rank fusion`: SearXNG took `!ddg` and `!images` as bangs, which left them out of it.
    for (const text of ['!ddg rank fusion', 'rank fusion !images']) {
      expect(thrown(text)).toMatchObject({ code: 'PROVIDER_UPSTREAM', refusedRequest: true });
    }
    // `!` or `<` inside a word, or `<` before more than digits, is no syntax of SearXNG's.
    for (const text of ['rank fusion', 'wow! rank fusion', 'a<100 b', 'x <100ms', 'x < 3']) {
      expect(thrown(text)).toMatchObject({ code: 'PROVIDER_UPSTREAM', refusedRequest: false });
    }
  });

  it('counts every engine failing when the !word is still in the words SearXNG searched for: it named no engine', () => {
    const provider = makeProvider(SearxngProvider, { SEARXNG_URL: 'http://searx.local' });
    const thrown = (searched: string | undefined, text: string): unknown => {
      const body = JSON.stringify({ ...(searched === undefined ? {} : { query: searched }), results: [], unresponsive_engines: [['google', 'timeout']] });
      try {
        provider.parseResponse(response(body), makeQuery(text));
      } catch (error) {
        return error;
      }
      return undefined;
    };
    // SearXNG keeps a `!word` naming none of its engines or categories among the words it searches for, and asks its
    // own engines: their failing is the instance's.
    expect(thrown('!foo rank fusion', '!foo rank fusion')).toMatchObject({ code: 'PROVIDER_UPSTREAM', refusedRequest: false });
    expect(thrown('hello !important css', 'hello !important css')).toMatchObject({ refusedRequest: false });
    // Taken (left out of the words searched for): the engines asked were the ones it chose.
    expect(thrown('rank fusion', '!wp rank fusion')).toMatchObject({ refusedRequest: true });
    // No words searched for in the answer: what SearXNG took cannot be told, and the failure counts.
    expect(thrown(undefined, '!wp rank fusion')).toMatchObject({ refusedRequest: false });
  });

  it('marks engines all timing out as the query\'s doing only under a chosen timeout (<N) shorter than their own, 3 s', () => {
    const provider = makeProvider(SearxngProvider, { SEARXNG_URL: 'http://searx.local' });
    const failing = (unresponsive: string[][]): string => JSON.stringify({ query: 'rank fusion', results: [], unresponsive_engines: unresponsive });
    const thrown = (body: string, text: string): unknown => {
      try {
        provider.parseResponse(response(body), makeQuery(text));
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const timedOut = failing([['google', 'timeout'], ['duckduckgo', 'timeout']]);
    // `<N`: seconds below 100, milliseconds from 100 on; the last one taken is the one used.
    for (const text of ['rank fusion <100', '<2 rank fusion', 'rank fusion <2999', '<5 rank fusion <850']) {
      expect(thrown(timedOut, text), text).toMatchObject({ code: 'PROVIDER_UPSTREAM', refusedRequest: true });
    }
    // As long as SearXNG's own engine timeout or longer (`<5` is 5 s, `<99` 99 s): the engines had their time.
    for (const text of ['<3 rank fusion', 'rank fusion <5', 'rank fusion <3000', '<99 rank fusion', '<850 rank fusion <5']) {
      expect(thrown(timedOut, text), text).toMatchObject({ code: 'PROVIDER_UPSTREAM', refusedRequest: false });
    }
    // A CAPTCHA or a refusal is the instance's, whatever timeout the query chose: it counts against the breaker.
    expect(thrown(allFailed, 'rank fusion <1')).toMatchObject({ code: 'PROVIDER_UPSTREAM', refusedRequest: false });
    expect(thrown(failing([['google', 'access denied']]), '<100 rank fusion')).toMatchObject({ refusedRequest: false });
  });

  it('reads a word starting with !!! as a word to find: no bang, no engine chosen', () => {
    const provider = makeProvider(SearxngProvider, { SEARXNG_URL: 'http://searx.local' });
    // ExternalBangParser takes every word starting with `!!` (so BangParser never reads it), and no bang's name starts
    // with `!`: SearXNG searches `!!!1` and `wow !!! great` as typed.
    for (const text of ['!!!1', 'wow !!! great rank fusion']) {
      expect(provider.queryProblem?.(text), text).toBeUndefined();
      let error: unknown;
      try {
        provider.parseResponse(response(allFailed), makeQuery(text));
      } catch (caught) {
        error = caught;
      }
      expect(error, text).toMatchObject({ code: 'PROVIDER_UPSTREAM', refusedRequest: false });
    }
  });

  it('does not send an external bang (!!name, or a lone !!), which SearXNG answers with a redirect', () => {
    const provider = makeProvider(SearxngProvider, { SEARXNG_URL: 'http://searx.local' });
    expect(provider.queryProblem?.('!!g rank fusion')).toMatch(/!!/);
    expect(provider.queryProblem?.('rank fusion !!')).toMatch(/!!/);
    expect(provider.queryProblem?.('rank fusion !ddg')).toBeUndefined();
    expect(provider.queryProblem?.('wow!! rank fusion')).toBeUndefined();
  });

  it('explains a 403 (JSON format disabled) through the real transport', async () => {
    upstream.on('GET /searxng-locked/search', { kind: 'respond', status: 403, headers: { 'content-type': 'text/html' }, body: '<html><body>Forbidden</body></html>' });
    const provider = makeProvider(SearxngProvider, { SEARXNG_URL: `${upstream.origin}/searxng-locked` });
    const failure = await runProvider(provider, makeQuery('q')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FedsearchError);
    expect((failure as FedsearchError).message).toContain('format=json');
    expect(provider.describeError(response('<html>Bad gateway</html>', 502))).toBeUndefined();
  });

  it('rejects an HTML page that arrives with 200 as a parse error', () => {
    const provider = makeProvider(SearxngProvider, { SEARXNG_URL: 'http://searx.local' });
    const page = response('<!DOCTYPE html><html><body>results</body></html>');
    expect(() => provider.parseResponse(page, makeQuery('q'))).toThrow(expect.objectContaining({ name: 'FedsearchError', code: 'PROVIDER_PARSE' }));
  });
});

// SearXNG answers /search as an HTML page unless format= asks for json, csv or rss.
const searxngSends = {
  sent: [makeProvider(SearxngProvider, { SEARXNG_URL: 'http://searx.local' }).buildRequest(makeQuery('q'))],
  formatOf: (request: RequestLine) => `${endpointOf(request)} format=${request.parameters.get('format') ?? 'html'}`,
};

describeSharedFixtures('searxng', searxngSends, (fixtures) => {
  for (const fixture of fixtures) {
    it(`${fixture.file}: every result is parsed with title and url`, () => {
      const provider = makeProvider(SearxngProvider, { SEARXNG_URL: 'http://searx.local' });
      const body = JSON.parse(fixture.body) as Record<string, unknown>;
      expect(fixture.status).toBeLessThan(400);
      const outcome = provider.parseResponse(response(fixture.body, fixture.status), makeQuery('q'));
      const results = Array.isArray(body.results) ? body.results.filter(isRecord) : [];
      expect('items' in outcome && outcome.items.length).toBe(results.length);
      const items = 'items' in outcome ? outcome.items : [];
      for (const [index, item] of items.entries()) {
        expect(item.title.length).toBeGreaterThan(0);
        expect(item.url).toMatch(/^https?:\/\//);
        expect(item.snippet === undefined || item.snippet.length > 0).toBe(true);
        // A null or "" publishedDate leaves the date out; a real one becomes ISO 8601.
        const published = results[index]!.publishedDate;
        if (typeof published === 'string' && published !== '') expect(item.published_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
        else expect(item).not.toHaveProperty('published_at');
      }
    });
  }
});
