import { describe, expect, it } from 'vitest';
import { readRecordedRequest, selectFixtures, type RequestLine, type SharedFixture } from './shared-fixtures.js';

function recorded(file: string, request: string, status = 200): SharedFixture {
  return { provider: 'example', file, request, status, body: '', manifest: {} };
}

describe('shared fixture selection', () => {
  it('reads the request a manifest records: URL parameters, a JSON or form body, the Accept header', () => {
    const search = readRecordedRequest('POST https://api.exa.ai/search body={"query": "q", "contents": {"text": {"maxCharacters": 10}}}; auth header x-api-key')!;
    expect(search.method).toBe('POST');
    expect(search.url.pathname).toBe('/search');
    expect(Object.fromEntries(search.parameters)).toEqual({ query: 'q', contents: '{"text":{"maxCharacters":10}}' });
    const form = readRecordedRequest('POST https://eutils.ncbi.nlm.nih.gov/entrez/eutils/efetch.fcgi [request body: retmode=xml&db=pubmed&id=1]')!;
    expect(Object.fromEntries(form.parameters)).toEqual({ retmode: 'xml', db: 'pubmed', id: '1' });
    const code = readRecordedRequest('GET https://api.github.com/search/code?q=toto  (Accept: application/vnd.github.v3.text-match+json)')!;
    expect(code.accept).toBe('application/vnd.github.v3.text-match+json');
    expect(code.parameters.get('q')).toBe('toto');
    const placeholder = readRecordedRequest('GET http://<searxng-instance>/search?q=x&format=json (instance URL not recorded)')!;
    expect([placeholder.url.pathname, placeholder.parameters.get('format')]).toEqual(['/search', 'json']);
    expect(readRecordedRequest('any Firecrawl endpoint with a bad/missing Bearer token')).toBeUndefined();
  });

  it('gives a JSON request no XML body, and names every body it leaves out with the request it answers', () => {
    const formatOf = (request: RequestLine): string => `${request.url.pathname} format=${request.parameters.get('format') ?? 'html'}`;
    const { applicable, notApplicable } = selectFixtures(
      [
        recorded('json.json', 'GET https://searx.example/search?q=a&format=json'),
        recorded('xml.xml', 'GET https://searx.example/search?q=a&format=rss'),
        recorded('page.html', 'GET https://searx.example/search?q=a'),
        recorded('error.json', 'GET https://searx.example/search?q=b&format=json', 429),
        recorded('prose.json', 'the request was not recorded'),
      ],
      { sent: [{ url: 'https://searx.local/search?q=z&format=json&pageno=1' }], formatOf },
    );
    expect(applicable.map((fixture) => [fixture.file, fixture.format])).toEqual([
      ['json.json', '/search format=json'],
      ['error.json', '/search format=json'],
    ]);
    expect(notApplicable.map(({ fixture, reason }) => [fixture.file, reason])).toEqual([
      ['xml.xml', 'answers /search format=rss'],
      ['page.html', 'answers /search format=html'],
      ['prose.json', 'the manifest records no request URL'],
    ]);
  });
});
