import { describe, expect, it } from 'vitest';
import { SseReader } from '../support/sse-reader.js';
import { BRAVE_SEARCH_PATH as BRAVE, request } from '../support/service.js';
import { useWebResultsService } from '../support/web-results-service.js';

const ARXIV = '/arxiv/api/query';

type Outcome = { provider: string; status: string; message?: string };
type Answer = { results: Array<{ url: string }>; providers: Outcome[]; routing?: unknown };

/** What a caller compares between two surfaces: the results in order and every provider's status and reason. */
function comparable(answer: Answer): { urls: string[]; providers: Array<Omit<Outcome, 'latency_ms'>> } {
  return {
    urls: answer.results.map((result) => result.url),
    providers: answer.providers.map(({ provider, status, message }) => ({ provider, status, message })),
  };
}

describe('the search routes take the operations\' filters', () => {
  const service = useWebResultsService({
    brave: [
      { title: 'Wanted', url: 'https://example.org/a', description: 'on the domain' },
      { title: 'Elsewhere', url: 'https://other.net/b', description: 'another domain' },
      { title: 'Sub', url: 'https://docs.example.org/c', description: 'a subdomain' },
      { title: 'Lookalike', url: 'https://notexample.org/d', description: 'only ends the same' },
    ],
  });
  const { upstream } = service;

  const json = (path: string, body?: unknown) =>
    request(service.origin, path, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('GET include_domains filters as web_search does, and a provider that cannot take a filter is skipped alike', async () => {
    const viaRoute = (await (await json('/v1/search/web?q=domains+one&providers=brave,wikipedia&include_domains=example.org&language=de')).json()) as Answer;
    const viaOperation = (await (
      await json('/v1/ops/web_search', { query: 'domains one', providers: ['brave', 'wikipedia'], include_domains: ['example.org'], language: 'de' })
    ).json()) as Answer;

    expect(viaRoute.results.map((result) => result.url)).toEqual(['https://example.org/a', 'https://docs.example.org/c']);
    expect(viaRoute.providers.find((outcome) => outcome.provider === 'wikipedia')).toMatchObject({ status: 'skipped', message: "cannot tell its site's language: WIKIPEDIA_LANGUAGE is not set" });
    expect(comparable(viaRoute)).toEqual(comparable(viaOperation));
    expect(upstream.requestsTo(BRAVE).at(-1)!.url.searchParams.get('search_lang')).toBe('de');
  });

  it('takes a list as repeated parameters, as a comma list, and as JSON over POST, with the same answer', async () => {
    const repeated = (await (await json('/v1/search/web?q=domains+two&providers=brave&exclude_domains=other.net&exclude_domains=docs.example.org')).json()) as Answer;
    const commas = (await (await json('/v1/search/web?q=domains+two&providers=brave&exclude_domains=other.net,docs.example.org')).json()) as Answer;
    const posted = (await (await json('/v1/search/web', { q: 'domains two', providers: ['brave'], exclude_domains: ['other.net', 'docs.example.org'] })).json()) as Answer;
    expect(repeated.results.map((result) => result.url)).toEqual(['https://example.org/a', 'https://notexample.org/d']);
    expect(comparable(commas)).toEqual(comparable(repeated));
    expect(comparable(posted)).toEqual(comparable(repeated));
  });

  it('takes the paper filters on /v1/search/papers and passes them to the provider', async () => {
    upstream.on(ARXIV, { kind: 'respond', headers: { 'content-type': 'application/atom+xml' }, body: '<feed xmlns="http://www.w3.org/2005/Atom"></feed>' });
    const response = await json('/v1/search/papers?q=qubits&providers=arxiv,crossref&year_from=2019&year_to=2021&open_access=true');
    expect(response.status).toBe(200);
    const body = (await response.json()) as Answer;
    expect(body.providers.find((outcome) => outcome.provider === 'crossref')).toMatchObject({ status: 'skipped', message: 'cannot filter by open_access' });
    expect(upstream.requestsTo(ARXIV).at(-1)!.url.searchParams.get('search_query')).toContain('submittedDate:[201901010000 TO 202112312359]');
  });

  it('streams a filtered search whose done event is the plain answer', async () => {
    const path = '/v1/search/web/stream?q=domains+three&providers=brave,wikipedia&include_domains=example.org&language=de';
    const response = await fetch(`${service.origin}${path}`);
    expect(response.status).toBe(200);
    const events = await new SseReader(response.body!).rest();
    const done = events.find((event) => event.event === 'done')!.data as Answer;
    expect(done.results.map((result) => result.url)).toEqual(['https://example.org/a', 'https://docs.example.org/c']);
    expect(done.providers.find((outcome) => outcome.provider === 'wikipedia')).toMatchObject({ status: 'skipped' });
  });

  it('routes providers=auto with the operations\' routing', async () => {
    const viaRoute = (await (await json('/v1/search/web?q=define+entropy&providers=auto')).json()) as Answer;
    const viaOperation = (await (await json('/v1/ops/web_search', { query: 'define entropy', providers: 'auto' })).json()) as Answer;
    expect(viaRoute.routing).toBeDefined();
    expect(viaRoute.routing).toEqual(viaOperation.routing);
  });
});
