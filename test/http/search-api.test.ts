import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE_KEY = 'brave-secret-key-0123456789';

function braveBody(...urls: string[]): string {
  return JSON.stringify({
    type: 'search',
    web: { type: 'search', results: urls.map((url, index) => ({ title: `Brave ${index + 1}`, url, description: 'about providers' })) },
  });
}

describe('search API', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', braveBody('https://brave.example/1', 'https://brave.example/2'));
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: BRAVE_KEY });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const get = (path: string, headers: Record<string, string> = {}) => request(service.origin, path, { headers });
  const post = (path: string, body: unknown) =>
    request(service.origin, path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('answers a web search with local and brave results and a status for every web provider', async () => {
    const response = await get('/v1/search/web?q=provider&limit=5');
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ query: 'provider', kind: 'web', cached: false });
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results.length).toBeLessThanOrEqual(5);
    const providers = Object.fromEntries(body.providers.map((outcome: { provider: string }) => [outcome.provider, outcome]));
    expect(Object.keys(providers).sort()).toEqual(['brave', 'exa', 'hackernews', 'local', 'searxng', 'tavily', 'wikipedia']);
    expect(providers.local).toMatchObject({ status: 'ok' });
    expect(providers.brave).toMatchObject({ status: 'ok', count: 2 });
    expect(providers.tavily).toMatchObject({ status: 'not_configured', missing: ['TAVILY_API_KEY'] });
    const sources = new Set(body.results.flatMap((result: { sources: Array<{ provider: string }> }) => result.sources.map((source) => source.provider)));
    expect(sources).toEqual(new Set(['local', 'brave']));
    for (const result of body.results) {
      expect(result.score).toBeGreaterThan(0);
      expect(result.explain).toBeUndefined();
    }
  });

  it('takes the same fields as JSON over POST and explains scores on request', async () => {
    const response = await post('/v1/search/web', { q: 'provider', providers: ['brave'], limit: 2, explain: true });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.providers.map((outcome: { provider: string }) => outcome.provider)).toEqual(['brave']);
    expect(body.results[0].explain).toEqual([{ provider: 'brave', rank: 1, weight: 1, contribution: expect.closeTo(1 / 61, 6) }]);
  });

  it('serves an identical search from the cache and marks it cached', async () => {
    const path = '/v1/search/web?q=cache+me&providers=brave';
    const first = await (await get(path)).json();
    const before = upstream.requestsTo('/brave/res/v1/web/search').length;
    const second = await (await get(path)).json();
    expect(first.cached).toBe(false);
    expect(second.cached).toBe(true);
    expect(second.results).toEqual(first.results);
    expect(upstream.requestsTo('/brave/res/v1/web/search').length).toBe(before);
  });

  it('shares one fan-out between identical concurrent searches', async () => {
    upstream.on('/brave/res/v1/web/search', {
      kind: 'respond',
      body: braveBody('https://shared.example/'),
      headers: { 'content-type': 'application/json' },
      delayMs: 100,
    });
    const before = upstream.requestsTo('/brave/res/v1/web/search').length;
    const answers = await Promise.all([1, 2, 3].map(() => get('/v1/search/web?q=together&providers=brave').then((r) => r.json())));
    expect(answers.every((answer) => answer.results[0].url === 'https://shared.example/')).toBe(true);
    expect(upstream.requestsTo('/brave/res/v1/web/search').length - before).toBe(1);
    upstream.json('/brave/res/v1/web/search', braveBody('https://brave.example/1', 'https://brave.example/2'));
  });

  it('does not cache an answer in which every provider failed', async () => {
    upstream.json('/brave/res/v1/web/search', { type: 'ErrorResponse', error: { detail: 'down' } }, 503);
    const first = await (await get('/v1/search/web?q=all+fail&providers=brave')).json();
    expect(first.results).toEqual([]);
    expect(first.providers[0]).toMatchObject({ provider: 'brave', status: 'error', message: 'HTTP 503: the provider is failing on its side: down; retry later' });
    const second = await (await get('/v1/search/web?q=all+fail&providers=brave')).json();
    expect(second.cached).toBe(false);
    upstream.json('/brave/res/v1/web/search', braveBody('https://brave.example/1', 'https://brave.example/2'));
  });

  it('answers by the deadline with a hanging provider marked timeout and the others\' results', async () => {
    upstream.on('/brave/res/v1/web/search', { kind: 'hang' });
    const response = await get('/v1/search/web?q=provider&providers=brave,local&timeout_ms=300');
    const body = await response.json();
    expect(response.status).toBe(200);
    const brave = body.providers.find((outcome: { provider: string }) => outcome.provider === 'brave');
    expect(brave).toMatchObject({ status: 'timeout', message: 'no answer within 300 ms' });
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results.every((result: { sources: Array<{ provider: string }> }) => result.sources[0]!.provider === 'local')).toBe(true);
    upstream.json('/brave/res/v1/web/search', braveBody('https://brave.example/1', 'https://brave.example/2'));
  });

  it('aborts the upstream requests of a client that disconnects', async () => {
    upstream.on('/brave/res/v1/web/search', { kind: 'hang' });
    const abortedBefore = upstream.abortedPaths.length;
    const client = new AbortController();
    const pending = fetch(`${service.origin}/v1/search/web?q=gone+away&providers=brave&timeout_ms=30000`, { signal: client.signal }).catch(
      (error: unknown) => error,
    );
    await expect.poll(() => upstream.requestsTo('/brave/res/v1/web/search').some((r) => r.url.searchParams.get('q') === 'gone away')).toBe(true);
    client.abort();
    expect(await pending).toBeInstanceOf(Error);
    await expect.poll(() => upstream.abortedPaths.slice(abortedBefore)).toContain('/brave/res/v1/web/search');
    upstream.json('/brave/res/v1/web/search', braveBody('https://brave.example/1', 'https://brave.example/2'));
  });

  it.each([
    ['/v1/search/web', 'q: missing; allowed: a string (1–500 characters)'],
    ['/v1/search/web?q=', 'q: empty; allowed: 1–500 characters'],
    [`/v1/search/web?q=${'x'.repeat(501)}`, 'q: 501 characters is too long; allowed: 1–500 characters'],
    ['/v1/search/web?q=a&limit=0', 'limit: 0 is too small; allowed: 1–50'],
    ['/v1/search/web?q=a&limit=51', 'limit: 51 is too large; allowed: 1–50'],
    ['/v1/search/web?q=a&limit=ten', 'limit: "ten" is not a number; allowed: a number (1–50)'],
    ['/v1/search/web?q=a&timeout_ms=50', 'timeout_ms: 50 is too small; allowed: 100–30000'],
    ['/v1/search/web?q=a&explain=maybe', 'explain: "maybe" is not a boolean; allowed: true or false'],
    ['/v1/search/web?q=a&colour=red', 'colour: not a known field; allowed: q, providers, limit, timeout_ms, page, explain, time_range, language, include_domains, exclude_domains, safesearch'],
    ['/v1/search/web?q=a&page=0', 'page: 0 is too small; allowed: 1–10'],
    ['/v1/search/web?q=a&page=11', 'page: 11 is too large; allowed: 1–10'],
    ['/v1/search/web?q=a&include_domains=example.org,not%20a%20domain', 'include_domains.1: not a domain name; allowed: a domain such as example.com, with or without a path (docs.example.com/guide)'],
    ['/v1/search/web?q=a&include_domains=docs.example.com/guide%3Fv%3D2', 'include_domains.0: not a domain name; allowed: a domain such as example.com, with or without a path (docs.example.com/guide)'],
    ['/v1/search/web?q=a&include_domains=', 'include_domains: empty; allowed: 1–20 items'],
    ['/v1/search/web?q=a&time_range=decade', 'time_range: "decade" is not allowed; allowed: "day", "week", "month", "year"'],
    ['/v1/search/web?q=a&year_from=2000', 'year_from: not a known field'],
    ['/v1/search/papers?q=a&year_from=2020&year_to=2010', 'year_from: 2020 is after year_to (2010); allowed: a year no later than year_to'],
    ['/v1/search/papers?q=a&open_access=yes', 'open_access: "yes" is not a boolean; allowed: true or false'],
    ['/v1/search/web?q=a&providers=google', 'unknown provider "google"; allowed for web: local, brave'],
    ['/v1/search/web?q=a&providers=arxiv', '"arxiv" serves papers, not web'],
    ['/v1/search/papers?q=a&providers=brave', '"brave" serves web, not papers'],
    // A parameter of one value written twice is said to be that, not a list that is "not a number".
    ['/v1/search/web?q=a&limit=5&limit=6', 'limit: given 2 times (["5","6"]); allowed: once, a number (1–50)'],
    ['/v1/search/web?q=a&q=b', 'q: given 2 times (["a","b"]); allowed: once, a string (1–500 characters)'],
    ['/v1/search/web?q=a&time_range=day&time_range=week', 'time_range: given 2 times (["day","week"]); allowed: once, one of "day", "week", "month", "year"'],
    ['/v1/search/papers?q=a&open_access=true&open_access=1', 'open_access: given 2 times (["true","1"]); allowed: once, true or false'],
    // What is allowed once is what a bad single value is told (the field's format or pattern), not "a string".
    ['/v1/search/web?q=a&language=en&language=de', 'language: given 2 times (["en","de"]); allowed: once, a code such as en or pt-BR'],
    [
      '/v1/papers/download?url=https://a.example/x.pdf&url=https://b.example/y.pdf',
      'url: given 2 times (["https://a.example/x.pdf","https://b.example/y.pdf"]); allowed: once, an http(s) URL',
    ],
  ])('GET %s is a 400 that says what is wrong', async (path, expected) => {
    const response = await get(path);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body).toMatchObject({ statusCode: 400, code: 'QUERY_INVALID' });
    expect(body.message).toContain(expected);
  });

  it.each([
    [{ q: 'a', limit: '5' }, 'limit: "5" is not a number; allowed: a number (1–50)'],
    // A list in a JSON body is what was sent, not a parameter repeated.
    [{ q: 'a', limit: ['5', '6'] }, 'limit: ["5","6"] is not a number; allowed: a number (1–50)'],
    [{ q: 'a', extra: true }, 'extra: not a known field; allowed: q, providers, limit, timeout_ms, page, explain, time_range, language, include_domains, exclude_domains, safesearch'],
    [{ limit: 5 }, 'q: missing; allowed: a string (1–500 characters)'],
    [
      { q: 'a', providers: 5 },
      'providers: matches none of the accepted forms; allowed: a list of 1–20 provider names (see /v1/providers), a comma-separated string of them, or "auto"',
    ],
    ['{"q": "a",', 'body: not valid JSON; allowed: a JSON object'],
    ['', 'body: empty; allowed: a JSON object'],
  ])('POST %j is a 400 that says what is wrong', async (body, expected) => {
    const response = await post('/v1/search/web', body);
    expect(response.status).toBe(400);
    expect((await response.json()).message).toContain(expected);
  });

  it('answers a value nested deeper than JSON.stringify can quote with a 400 that says so, not a 500', async () => {
    const response = await post('/v1/search/web', `{"q": "a", "limit": ${'['.repeat(10_000)}${']'.repeat(10_000)}}`);
    expect(response.status).toBe(400);
    expect((await response.json()).message).toContain('limit: an array nested too deeply to show is not a number; allowed: a number (1–50)');
  });

  it('never writes the API key to a response or a log line', async () => {
    await get('/v1/search/web?q=secret+check&providers=brave', { authorization: `Bearer ${BRAVE_KEY}`, 'x-api-key': BRAVE_KEY });
    const providers = await (await get('/v1/providers')).text();
    expect(providers).not.toContain(BRAVE_KEY);
    expect(service.logs.length).toBeGreaterThan(0);
    expect(service.logs.join('\n')).not.toContain(BRAVE_KEY);
    // Every request's lines carry its id.
    const lines = service.logs.map((line) => JSON.parse(line)).filter((line) => line.req);
    expect(lines.every((line) => typeof line.reqId === 'string')).toBe(true);
    // So do the lines each provider's outcome writes during a search.
    const providerLines = service.logs.map((line) => JSON.parse(line)).filter((line) => line.provider);
    expect(providerLines.length).toBeGreaterThan(0);
    expect(providerLines.every((line) => typeof line.reqId === 'string')).toBe(true);
  });

  it('lists every provider with kind, configuration, weight and timeout', async () => {
    const body = await (await get('/v1/providers')).json();
    const tavily = body.providers.find((provider: { name: string }) => provider.name === 'tavily');
    expect(tavily).toMatchObject({ kind: 'web', configured: false, missing: ['TAVILY_API_KEY'], weight: 1.2, timeout_ms: 5000 });
    const brave = body.providers.find((provider: { name: string }) => provider.name === 'brave');
    expect(brave).toMatchObject({ configured: true, missing: [] });
    expect(body.providers.map((provider: { name: string }) => provider.name)).toContain('arxiv');
  });

  it('serves health, readiness, docs and an unknown route as JSON 404', async () => {
    expect(await (await get('/healthz')).json()).toEqual({ status: 'ok' });
    expect(await (await get('/readyz')).json()).toEqual({ status: 'ready' });
    const docs = await get('/docs/');
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger');
    const missing = await get('/v2/nothing');
    expect(missing.status).toBe(404);
    expect((await missing.json()).code).toBe('NOT_FOUND');
  });
});

describe('providers=auto on the search routes', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'silent', WIKIPEDIA_BASE_URL: 'http://127.0.0.1:9/wikipedia' });
  });
  afterAll(() => service.stop());

  it('chooses providers by the query and says why', async () => {
    const body = await (await request(service.origin, '/v1/search/web?q=what+is+a+provider&providers=auto')).json();
    expect(body.routing.providers).toEqual(['wikipedia', 'local']);
    expect(body.routing.reasons[0]).toMatch(/^definition query/);
    expect(body.providers.map((outcome: { provider: string }) => outcome.provider).sort()).toEqual(['local', 'wikipedia']);
  });
});
