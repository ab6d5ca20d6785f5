import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connect, textOf, type Connected } from '../mcp/mcp-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, request, startService, type RunningService } from '../support/service.js';

const TOKEN = 'metrics-token-0123456789';

/** A single provider call per operation, the provider it reaches, and the upstream path it asks first. */
const SINGLE_CALLS = [
  { operation: 'youtube_video_details', params: { ids: ['abcDEF12345'] }, provider: 'youtube', path: '/youtube/youtube/v3/videos' },
  { operation: 'youtube_transcript', params: { video: 'abcDEF12345' }, provider: 'youtube_web', path: '/youtube_web/watch' },
  // A literal public address: checked by the address policy without DNS, then handed to Firecrawl.
  { operation: 'fetch_url', params: { url: 'https://93.184.215.14/', engine: 'firecrawl' }, provider: 'firecrawl', path: '/firecrawl/v2/scrape' },
] as const;

/** The paper providers that look a DOI up (arXiv cannot), and the path prefix each is asked under. */
const LOOKUP_PREFIXES = ['/crossref/', '/openalex/', '/semanticscholar/', '/pubmed/'];
const DOI = '10.5555/breaker.2024.1';

/**
 * Video details, captions, Firecrawl scrapes and paper reads pass the same breaker as a search: after
 * BREAKER_FAILURES failures the next calls are answered without contacting the upstream.
 */
describe('single provider calls pass the breaker', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let mcp: Connected;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    for (const { path } of SINGLE_CALLS) upstream.json(path, { error: 'backend down' }, 500);
    upstream.on('/site/broken', { kind: 'reset' });
    upstream
      .json('/crossref/works/*', { status: 'failed', message: 'down' }, 500)
      .json('/openalex/works/*', { error: 'down' }, 500)
      .json('/semanticscholar/graph/v1/paper/*', { error: 'down' }, 500)
      .json('/pubmed/entrez/eutils/esearch.fcgi', { error: 'down' }, 500);
    service = await startService({
      ...providerEnv(upstream.origin),
      YOUTUBE_API_KEY: 'yt-key-1234567890',
      FIRECRAWL_API_KEY: 'fc-key-1234567890',
      BREAKER_FAILURES: '3',
      BREAKER_COOLDOWN_MS: '60000',
      METRICS_TOKEN: TOKEN,
      // Lets fetch_url reach the fake upstream directly (auto mode's fallback test).
      FETCH_ALLOW_PRIVATE: 'true',
    });
    mcp = await connect(service.origin, 'streamable');
  });
  afterAll(async () => {
    await mcp.close();
    await service.stop();
    await upstream.stop();
  });

  const providerNamed = async (name: string) => {
    const body = await (await request(service.origin, '/v1/providers')).json();
    return body.providers.find((provider: { name: string }) => provider.name === name);
  };

  it.each(SINGLE_CALLS)('$operation: three failures suspend $provider; then REST and MCP are answered without asking it', async ({ operation, params, provider, path }) => {
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const failed = await callOperation(service, operation, params);
      expect(failed.status).toBe(502);
      expect((await failed.json()).code).toBe('PROVIDER_HTTP');
    }
    expect(upstream.requestsTo(path)).toHaveLength(3);

    const suspended = await callOperation(service, operation, params);
    expect(suspended.status).toBe(503);
    const body = await suspended.json();
    expect(body.code).toBe('PROVIDER_SUSPENDED');
    expect(body.retry_after_ms).toBeGreaterThan(0);
    expect(body.retry_after_ms).toBeLessThanOrEqual(60_000);
    expect(Number(suspended.headers.get('retry-after'))).toBe(Math.ceil(body.retry_after_ms / 1000));
    // The advice in the Retry-After header's own words, with its number.
    expect(body.message).toBe(`${provider} is suspended after 3 consecutive failures; retry after ${suspended.headers.get('retry-after')} s`);

    const tool = await callTool(mcp.client, 'research', { operation, params });
    expect(tool.isError).toBe(true);
    expect(textOf(tool)).toMatch(new RegExp(`^${provider} is suspended after 3 consecutive failures; retry after \\d+ s\\n\\(PROVIDER_SUSPENDED; retry_after_ms: \\d+\\)$`));

    expect(upstream.requestsTo(path)).toHaveLength(3);
    expect((await providerNamed(provider)).health).toMatchObject({ state: 'open', consecutive_failures: 3, last_error: { message: expect.stringMatching(/^HTTP 500/) } });
  });

  it('fetch_url in auto mode does not fall back to a suspended Firecrawl: the direct fetch says what failed', async () => {
    expect((await providerNamed('firecrawl')).health.state).toBe('open');
    const scrapes = upstream.requestsTo('/firecrawl/v2/scrape').length;
    const response = await callOperation(service, 'fetch_url', { url: `${upstream.origin}/site/broken`, engine: 'auto' });
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ code: 'FETCH_FAILED', message: `could not fetch ${upstream.origin}/site/broken: connection closed by the server` });
    expect(upstream.requestsTo('/firecrawl/v2/scrape')).toHaveLength(scrapes);
  });

  it('paper_read: its lookup goes through the breaker, so a suspended set of paper providers is not asked again', async () => {
    const lookupRequests = () => upstream.requests.filter((recorded) => LOOKUP_PREFIXES.some((prefix) => recorded.path.startsWith(prefix))).length;
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const failed = await callOperation(service, 'paper_read', { id: DOI });
      expect(failed.status).toBe(502);
      expect((await failed.json()).code).toBe('PROVIDERS_FAILED');
    }
    const asked = lookupRequests();
    expect(asked).toBe(3 * LOOKUP_PREFIXES.length);

    const suspended = await callOperation(service, 'paper_read', { id: DOI });
    expect(suspended.status).toBe(503);
    const body = await suspended.json();
    expect(body.code).toBe('PROVIDER_SUSPENDED');
    expect(body.retry_after_ms).toBeGreaterThan(0);
    const tool = await callTool(mcp.client, 'research', { operation: 'paper_read', params: { id: DOI } });
    expect(tool.isError).toBe(true);
    expect(textOf(tool)).toMatch(/\(PROVIDER_SUSPENDED; retry_after_ms: \d+\)$/);
    expect(lookupRequests()).toBe(asked);
  });

  it('measures and logs a single call like a search member: an outcome per provider, one line naming the task', async () => {
    const metrics = await (await request(service.origin, '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    for (const { provider } of SINGLE_CALLS) {
      expect(metrics).toMatch(new RegExp(`fedsearch_provider_outcomes_total\\{provider="${provider}",status="error"\\} 3\\n`));
      expect(metrics).toMatch(new RegExp(`fedsearch_provider_outcomes_total\\{provider="${provider}",status="suspended"\\} 2\\n`));
    }
    const lines = service.logs.map((line) => JSON.parse(line) as { provider?: { provider: string; status: string }; task?: string; reqId?: string });
    const captionLines = lines.filter((line) => line.provider?.provider === 'youtube_web');
    expect(captionLines.map((line) => [line.task, line.provider!.status])).toEqual([
      ...Array.from({ length: 3 }, () => ['captions', 'error']),
      ['captions', 'suspended'],
      ['captions', 'suspended'],
    ]);
  });
});

describe('the captions source is a provider like the others', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    const track = () => ({ baseUrl: `${upstream.origin}/youtube_web/api/timedtext?v=abcDEF12345&lang=en`, languageCode: 'en', name: { simpleText: 'English' } });
    upstream
      .on('/youtube_web/watch', {
        kind: 'handler',
        handle: (_recorded, response) => {
          const player = { playabilityStatus: { status: 'OK' }, captions: { playerCaptionsTracklistRenderer: { captionTracks: [track()] } } };
          response.writeHead(200, { 'content-type': 'text/html' }).end(`<script>var ytInitialPlayerResponse = ${JSON.stringify(player)};</script>`);
        },
      })
      .on('/youtube_web/api/timedtext', {
        kind: 'respond',
        headers: { 'content-type': 'text/xml' },
        body: '<?xml version="1.0"?><transcript><text start="0" dur="2">Hello</text></transcript>',
      });
    service = await startService({ ...providerEnv(upstream.origin), DEFAULT_TIMEOUT_MS: '4321', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const captionsProvider = async () => {
    const body = await (await request(service.origin, '/v1/providers')).json();
    return body.providers.find((provider: { name: string }) => provider.name === 'youtube_web');
  };

  it('is listed in /v1/providers with its kind, its DEFAULT_TIMEOUT_MS and its health, which its calls update', async () => {
    expect(await captionsProvider()).toMatchObject({ kind: 'video', configured: true, missing: [], timeout_ms: 4321, health: { state: 'closed', recent_calls: 0 } });
    const transcript = await callOperation(service, 'youtube_transcript', { video: 'abcDEF12345' });
    expect(transcript.status).toBe(200);
    expect(await transcript.json()).toMatchObject({ video_id: 'abcDEF12345', language: 'en', text: 'Hello' });
    expect((await captionsProvider()).health).toMatchObject({ state: 'closed', recent_calls: 1, success_rate: 1 });
  });
});
