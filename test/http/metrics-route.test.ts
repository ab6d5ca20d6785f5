import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../mcp/mcp-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const TOKEN = 'metrics-token-abcdef';

/** The value of one series in a scrape, e.g. `name{a="b"}`, or undefined when it is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const postJson = (origin: string, path: string, body: unknown) =>
  request(origin, path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('/metrics on the running service', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  const scrape = async () => (await request(service.origin, '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).text();

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', { web: { results: [{ title: 'M', url: 'https://m.example/' }] } });
    upstream.json('/wikipedia/w/api.php', { error: { code: 'x', info: 'nope' } }, 500);
    upstream.json('/youtube/youtube/v3/videos', { error: { code: 500, message: 'backend error' } }, 500);
    service = await startService({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'k-123456',
      YOUTUBE_API_KEY: 'yt-key-1234567890',
      METRICS_TOKEN: TOKEN,
      // One failure opens a breaker, so the test can watch a circuit change state.
      BREAKER_FAILURES: '1',
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('exports every provider\'s circuit state from the start, before any provider was asked', async () => {
    const text = await scrape();
    const names = service.app.searchService.providerNames();
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) expect(sample(text, `fedsearch_provider_circuit_state{provider="${name}"}`), name).toBe(0);
  });

  it('counts provider outcomes, latency, cache hits and circuit states, behind its token', async () => {
    await request(service.origin, '/v1/search/web?q=metrics&providers=brave,wikipedia');
    await request(service.origin, '/v1/search/web?q=metrics&providers=brave,wikipedia');
    expect((await request(service.origin, '/metrics')).status).toBe(401);
    const response = await request(service.origin, '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toMatch(/fedsearch_provider_outcomes_total\{provider="brave",status="ok"\} 1/);
    expect(text).toMatch(/fedsearch_provider_outcomes_total\{provider="wikipedia",status="error"\} 1/);
    expect(text).toMatch(/fedsearch_provider_latency_seconds_count\{provider="brave",status="ok"\} 1/);
    expect(text).toMatch(/fedsearch_cache_hits_total 1/);
    expect(text).toMatch(/fedsearch_cache_misses_total 1/);
    expect(sample(text, 'fedsearch_provider_circuit_state{provider="brave"}')).toBe(0);
    // Wikipedia answered 500 once, with BREAKER_FAILURES=1: its circuit is open.
    expect(sample(text, 'fedsearch_provider_circuit_state{provider="wikipedia"}')).toBe(2);
    expect(text).toMatch(/fedsearch_searches_in_flight 0/);
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it('counts HTTP requests by route pattern and status code, never by raw URL', async () => {
    expect((await request(service.origin, '/v1/search/web?q=secret-query-text&providers=brave')).status).toBe(200);
    expect((await postJson(service.origin, '/v1/ops/web_search', { query: 'x', max_results: 0 })).status).toBe(400);
    expect((await postJson(service.origin, '/v1/ops/youtube_video_details', { ids: ['abcDEF12345'] })).status).toBe(502);
    expect((await request(service.origin, '/no/such/page-8472?token=abc')).status).toBe(404);
    const text = await scrape();
    const requests = (method: string, route: string, status: number) =>
      sample(text, `fedsearch_http_requests_total{method="${method}",route="${route}",status_code="${status}"}`);
    expect(requests('GET', '/v1/search/web', 200)).toBeGreaterThanOrEqual(1);
    expect(requests('POST', '/v1/ops/web_search', 400)).toBe(1);
    expect(requests('POST', '/v1/ops/youtube_video_details', 502)).toBe(1);
    expect(requests('GET', 'unmatched', 404)).toBe(1);
    expect(sample(text, 'fedsearch_http_request_duration_seconds_count{method="POST",route="/v1/ops/youtube_video_details",status_code="502"}')).toBe(1);
    expect(text).not.toContain('secret-query-text');
    expect(text).not.toContain('page-8472');
  });

  it('counts open MCP sessions per transport', async () => {
    const sse = await connect(service.origin, 'sse');
    const streamable = await connect(service.origin, 'streamable');
    try {
      const open = await scrape();
      expect(sample(open, 'fedsearch_mcp_sessions{transport="sse"}')).toBe(1);
      expect(sample(open, 'fedsearch_mcp_sessions{transport="streamable"}')).toBe(1);
    } finally {
      await sse.leave();
      await streamable.leave();
    }
    // The server notices a client leaving when its connection closes, a moment after the client is done.
    await expect.poll(async () => sample(await scrape(), 'fedsearch_mcp_sessions{transport="sse"}')).toBe(0);
    await expect.poll(async () => sample(await scrape(), 'fedsearch_mcp_sessions{transport="streamable"}')).toBe(0);
  });
});

describe('/metrics under a rate limit', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_MS: '60000', LOG_LEVEL: 'silent' });
  });
  afterAll(() => service.stop());

  it('counts 429 answers on their route, and the scrape itself is never limited', async () => {
    const statuses = [];
    for (let attempt = 0; attempt < 3; attempt += 1) statuses.push((await request(service.origin, '/v1/providers')).status);
    expect(statuses).toEqual([200, 200, 429]);
    const text = await (await request(service.origin, '/metrics')).text();
    expect(sample(text, 'fedsearch_http_requests_total{method="GET",route="/v1/providers",status_code="200"}')).toBe(2);
    expect(sample(text, 'fedsearch_http_requests_total{method="GET",route="/v1/providers",status_code="429"}')).toBe(1);
  });
});
