import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { prefixesOf } from '../support/secret-prefixes.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE_KEY = 'qzrRedirectTestKey0123456789abcdef';

interface Outcome {
  provider: string;
  status: string;
  code?: string;
  message?: string;
}

/** A route that redirects to `location(request)`, as a server that moved (http to https, a new path) does. */
function redirecting(upstream: FakeUpstream, route: string, status: number, location: (query: string) => string): void {
  upstream.on(route, {
    kind: 'handler',
    handle: (request, response) => void response.writeHead(status, { location: location(request.url.search), 'content-type': 'text/html' }).end('<html>Moved</html>'),
  });
}

/**
 * A provider whose base URL redirects: the redirect is not followed (the request carries the provider's key, and a
 * POST must not be sent again), and the outcome says where it leads and which setting to change.
 */
describe('a provider whose base URL redirects', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  /** Holds the providers file; removed after the service that read it stops. */
  let folder: string | undefined;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    // The moved-to addresses answer properly: a request reaching them would be a followed redirect.
    upstream.on('/moved/*', { kind: 'respond', headers: { 'content-type': 'application/json' }, body: '{"results":[]}' });
    redirecting(upstream, '/searxng/search', 301, (query) => `${upstream.origin}/moved/searxng/search${query}`);
    // A server that echoes the key it was given into the Location's query, as a proxy or a sloppy API might.
    redirecting(upstream, '/brave/res/v1/web/search', 307, (query) => `${upstream.origin}/moved/brave/res/v1/web/search${query}&token=${BRAVE_KEY}`);
    redirecting(upstream, '/team-searx/search', 308, () => '/moved/team-searx/');
    folder = mkdtempSync(path.join(tmpdir(), 'fedsearch-redirect-'));
    const file = path.join(folder, 'providers.yaml');
    writeFileSync(file, ['providers:', '  - name: team-searx', '    use: searxng', `    base_url: ${upstream.origin}/team-searx`, ''].join('\n'));
    const env = { ...providerEnv(upstream.origin), BRAVE_API_KEY: BRAVE_KEY, PROVIDERS_FILE: file, CACHE_TTL_SECONDS: '0' };
    // SearXNG's instance is set by SEARXNG_URL alone, as operators usually set it.
    delete (env as Record<string, string>).SEARXNG_BASE_URL;
    service = await startService(env);
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  async function outcomeOf(provider: string): Promise<{ outcome: Outcome; answer: string }> {
    const response = await request(service.origin, `/v1/search/web?q=moved+server&providers=${provider}`);
    const answer = await response.text();
    const outcome = (JSON.parse(answer) as { providers: Outcome[] }).providers.find((each) => each.provider === provider)!;
    return { outcome, answer };
  }

  it('301: the outcome names where it leads and the variable to set, and the redirect is not followed', async () => {
    const { outcome } = await outcomeOf('searxng');
    expect(outcome).toMatchObject({ status: 'error', code: 'PROVIDER_HTTP' });
    expect(outcome.message).toBe(
      `HTTP 301: the upstream redirects to ${upstream.origin}/moved/searxng/search (not followed); set SEARXNG_URL to ${upstream.origin}/moved/searxng`,
    );
    expect(upstream.requestsTo('/searxng/search')).toHaveLength(1);
    expect(upstream.requests.filter((each) => each.path.startsWith('/moved/'))).toEqual([]);

    const listing = (await (await request(service.origin, '/v1/providers')).json()) as { providers: Array<{ name: string; health: { last_error?: { message: string } } }> };
    expect(listing.providers.find((each) => each.name === 'searxng')!.health.last_error?.message).toBe(outcome.message);
  });

  it('307: a key the Location carries in its query reaches neither the answer nor the logs, and nothing is sent there', async () => {
    const { outcome, answer } = await outcomeOf('brave');
    expect(outcome).toMatchObject({ status: 'error', code: 'PROVIDER_HTTP' });
    expect(outcome.message).toBe(
      `HTTP 307: the upstream redirects to ${upstream.origin}/moved/brave/res/v1/web/search (not followed); set BRAVE_BASE_URL to ${upstream.origin}/moved/brave`,
    );
    expect(upstream.requestsTo('/brave/res/v1/web/search')).toHaveLength(1);
    expect(upstream.requests.filter((each) => each.path.startsWith('/moved/'))).toEqual([]);
    const listing = await (await request(service.origin, '/v1/providers')).text();
    for (const text of [answer, listing, ...service.logs]) {
      for (const prefix of prefixesOf(BRAVE_KEY)) expect(text).not.toContain(prefix);
    }
  });

  it('an instance from PROVIDERS_FILE is pointed at its own base_url key, and a relative Location is read against the request', async () => {
    const { outcome } = await outcomeOf('team-searx');
    expect(outcome).toMatchObject({ status: 'error', code: 'PROVIDER_HTTP' });
    // The Location keeps none of the request's path: no base URL can be worked out from it, only where it leads.
    expect(outcome.message).toBe(
      `HTTP 308: the upstream redirects to ${upstream.origin}/moved/team-searx/ (not followed); set base_url of team-searx in PROVIDERS_FILE to the address it moved to`,
    );
    expect(upstream.requests.filter((each) => each.path.startsWith('/moved/'))).toEqual([]);
  });
});

/**
 * OpenAlex answers a merged entity's old ID with a 301 to the entity it was merged into, on the same API
 * (docs.openalex.org, "Get single entities", Merged Entity IDs): a GET whose redirect stays within the provider's
 * base URL is followed; a POST's never is.
 */
describe('a redirect within the same API', () => {
  const DOI = '10.5555/lookup.2020.3';
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    redirecting(upstream, `/openalex/works/doi:${DOI}`, 301, () => `${upstream.origin}/openalex/works/W3000000004`);
    upstream.json('GET /openalex/works/W3000000004', readFileSync(new URL('../fixtures/openalex/work-lookup.json', import.meta.url), 'utf8'));
    redirecting(upstream, '/tavily/search', 307, () => '/tavily/search/again');
    upstream.json('/tavily/search/again', { results: [] });
    service = await startService({ ...providerEnv(upstream.origin), TAVILY_API_KEY: 'tavily-redirect-test-key-1', CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it("a paper lookup by a merged work's old address finds the work it was merged into; a POST provider's redirect is not followed", async () => {
    const response = await request(service.origin, '/v1/ops/paper_details', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: DOI }),
    });
    const answer = await response.text();
    expect(response.status, answer).toBe(200);
    expect(answer).toContain('Looking papers up by identifier');
    const openalex = upstream.requests.filter((each) => each.path.startsWith('/openalex/works/'));
    expect(openalex.map((each) => each.path)).toEqual([`/openalex/works/doi:${DOI}`, '/openalex/works/W3000000004']);
    expect(openalex[1]!.headers.accept).toBe('application/json');

    // A POST provider's 3xx within its base URL is still refused, and the POST sent once.
    const searched = await request(service.origin, '/v1/search/web?q=moved+server&providers=tavily');
    const outcome = ((await searched.json()) as { providers: Outcome[] }).providers.find((each) => each.provider === 'tavily')!;
    expect(outcome).toMatchObject({ status: 'error', code: 'PROVIDER_HTTP' });
    expect(outcome.message).toBe(`HTTP 307: the upstream redirects to ${upstream.origin}/tavily/search/again (not followed); set TAVILY_BASE_URL to the address it moved to`);
    expect(upstream.requests.filter((each) => each.path.startsWith('/tavily/')).map((each) => `${each.method} ${each.path}`)).toEqual(['POST /tavily/search']);
  });
});
