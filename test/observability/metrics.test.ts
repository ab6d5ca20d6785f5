import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProviderOutcome } from '../../src/domain/outcome.js';
import type { ProviderAnswer } from '../../src/engine/gather.js';
import { createMetrics, registerMetricsRoute, type CircuitState, type Metrics } from '../../src/observability/metrics.js';
import { TestProvider } from '../support/test-provider.js';

function providerAnswer(outcome: Omit<ProviderOutcome, 'count'> & { count?: number }): ProviderAnswer {
  return { provider: new TestProvider(outcome.provider, 'http://127.0.0.1:9'), items: [], outcome: { count: 0, ...outcome } };
}

/** The value of one sample line, e.g. `name{a="b"} 3`, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics', () => {
  const apps: FastifyInstance[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  async function appWith(metrics: Metrics, token?: string): Promise<FastifyInstance> {
    const app = Fastify();
    registerMetricsRoute(app, metrics, token === undefined ? {} : { token });
    await app.ready();
    apps.push(app);
    return app;
  }

  it('exposes provider latency and outcomes, cache hits and misses, in-flight searches and circuit states', async () => {
    const metrics = createMetrics();
    const circuits: Array<{ provider: string; state: CircuitState }> = [
      { provider: 'exa', state: 'open' },
      { provider: 'brave', state: 'half-open' },
      { provider: 'searxng', state: 'closed' },
    ];
    metrics.watch({ circuitStates: () => circuits, mcpSessions: () => ({ sse: 0, streamable: 0 }) });
    metrics.recordProviderAnswer(providerAnswer({ provider: 'brave', status: 'ok', count: 3, latency_ms: 120 }));
    metrics.recordProviderAnswer(providerAnswer({ provider: 'brave', status: 'ok', count: 2, latency_ms: 80 }));
    metrics.recordProviderAnswer(providerAnswer({ provider: 'exa', status: 'timeout', latency_ms: 800, code: 'PROVIDER_TIMEOUT' }));
    metrics.recordProviderAnswer(providerAnswer({ provider: 'tavily', status: 'not_configured', latency_ms: 0 }));
    metrics.recordProviderAnswer(providerAnswer({ provider: 'searxng', status: 'suspended', latency_ms: 0, retry_after_ms: 30_000 }));
    metrics.recordCache('hit');
    metrics.recordCache('hit');
    metrics.recordCache('miss');
    metrics.recordCache('shared');
    const first = metrics.searchStarted();
    metrics.searchStarted();
    first();
    first();

    const response = await (await appWith(metrics)).inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body;

    expect(sample(text, 'fedsearch_provider_outcomes_total{provider="brave",status="ok"}')).toBe(2);
    expect(sample(text, 'fedsearch_provider_outcomes_total{provider="exa",status="timeout"}')).toBe(1);
    expect(sample(text, 'fedsearch_provider_outcomes_total{provider="tavily",status="not_configured"}')).toBe(1);
    expect(sample(text, 'fedsearch_provider_latency_seconds_count{provider="brave",status="ok"}')).toBe(2);
    expect(sample(text, 'fedsearch_provider_latency_seconds_sum{provider="brave",status="ok"}')).toBeCloseTo(0.2, 6);
    expect(sample(text, 'fedsearch_provider_latency_seconds_bucket{le="0.1",provider="brave",status="ok"}')).toBe(1);
    expect(sample(text, 'fedsearch_provider_latency_seconds_bucket{le="1",provider="exa",status="timeout"}')).toBe(1);
    expect(sample(text, 'fedsearch_provider_outcomes_total{provider="searxng",status="suspended"}')).toBe(1);
    // A provider never asked has no latency to report.
    expect(text).not.toContain('fedsearch_provider_latency_seconds_count{provider="tavily"');
    expect(text).not.toContain('fedsearch_provider_latency_seconds_count{provider="searxng"');

    expect(sample(text, 'fedsearch_cache_hits_total')).toBe(2);
    expect(sample(text, 'fedsearch_cache_misses_total')).toBe(1);
    expect(sample(text, 'fedsearch_cache_shared_total')).toBe(1);
    expect(sample(text, 'fedsearch_searches_in_flight')).toBe(1);
    expect(sample(text, 'fedsearch_provider_circuit_state{provider="exa"}')).toBe(2);
    expect(sample(text, 'fedsearch_provider_circuit_state{provider="brave"}')).toBe(1);
    expect(sample(text, 'fedsearch_provider_circuit_state{provider="searxng"}')).toBe(0);

    // Default process metrics come along.
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(text).toContain('nodejs_heap_size_used_bytes');
  });

  it('reads circuit states and MCP sessions when scraped, so they are current and present from the start', async () => {
    const metrics = createMetrics();
    let state: CircuitState = 'closed';
    let sessions = { sse: 2, streamable: 0 };
    metrics.watch({ circuitStates: () => [{ provider: 'brave', state }, { provider: 'arxiv', state: 'closed' }], mcpSessions: () => sessions });
    const first = await metrics.render();
    expect(sample(first, 'fedsearch_provider_circuit_state{provider="brave"}')).toBe(0);
    expect(sample(first, 'fedsearch_provider_circuit_state{provider="arxiv"}')).toBe(0);
    expect(sample(first, 'fedsearch_mcp_sessions{transport="sse"}')).toBe(2);
    expect(sample(first, 'fedsearch_mcp_sessions{transport="streamable"}')).toBe(0);
    state = 'open';
    sessions = { sse: 0, streamable: 1 };
    const second = await metrics.render();
    expect(sample(second, 'fedsearch_provider_circuit_state{provider="brave"}')).toBe(2);
    expect(sample(second, 'fedsearch_mcp_sessions{transport="sse"}')).toBe(0);
    expect(sample(second, 'fedsearch_mcp_sessions{transport="streamable"}')).toBe(1);
  });

  it('counts HTTP requests and their duration by method, route pattern and status code', async () => {
    const metrics = createMetrics();
    metrics.recordHttpRequest({ method: 'GET', route: '/v1/search/web', statusCode: 200, seconds: 0.2 });
    metrics.recordHttpRequest({ method: 'GET', route: '/v1/search/web', statusCode: 200, seconds: 0.02 });
    metrics.recordHttpRequest({ method: 'POST', route: '/v1/ops/fetch_url', statusCode: 502, seconds: 1.5 });
    const text = await metrics.render();
    expect(sample(text, 'fedsearch_http_requests_total{method="GET",route="/v1/search/web",status_code="200"}')).toBe(2);
    expect(sample(text, 'fedsearch_http_requests_total{method="POST",route="/v1/ops/fetch_url",status_code="502"}')).toBe(1);
    expect(sample(text, 'fedsearch_http_request_duration_seconds_count{method="GET",route="/v1/search/web",status_code="200"}')).toBe(2);
    expect(sample(text, 'fedsearch_http_request_duration_seconds_bucket{le="0.025",method="GET",route="/v1/search/web",status_code="200"}')).toBe(1);
    expect(sample(text, 'fedsearch_http_request_duration_seconds_bucket{le="2",method="POST",route="/v1/ops/fetch_url",status_code="502"}')).toBe(1);
  });

  it('counts each HTTP request once over several scrapes, and a series first seen between them', async () => {
    const metrics = createMetrics();
    metrics.recordHttpRequest({ method: 'GET', route: '/v1/search/web', statusCode: 200, seconds: 0.2 });
    await metrics.render();
    expect(sample(await metrics.render(), 'fedsearch_http_requests_total{method="GET",route="/v1/search/web",status_code="200"}')).toBe(1);
    metrics.recordHttpRequest({ method: 'GET', route: '/v1/search/web', statusCode: 200, seconds: 0.2 });
    metrics.recordHttpRequest({ method: 'GET', route: '/v1/search/web', statusCode: 429, seconds: 0.001 });
    metrics.recordHttpRequest({ method: 'GET', route: '/healthz', statusCode: 200, seconds: 0.001 });
    const text = await metrics.render();
    expect(sample(text, 'fedsearch_http_requests_total{method="GET",route="/v1/search/web",status_code="200"}')).toBe(2);
    expect(sample(text, 'fedsearch_http_requests_total{method="GET",route="/v1/search/web",status_code="429"}')).toBe(1);
    expect(sample(text, 'fedsearch_http_requests_total{method="GET",route="/healthz",status_code="200"}')).toBe(1);
    expect(sample(text, 'fedsearch_http_request_duration_seconds_count{method="GET",route="/v1/search/web",status_code="200"}')).toBe(2);
  });

  it('counts error outcomes by code and MCP tool calls by tool and outcome, each once over several scrapes', async () => {
    const metrics = createMetrics();
    const failed = (code: ProviderOutcome['code']) => providerAnswer({ provider: 'brave', status: 'error', latency_ms: 15, code });
    metrics.recordProviderAnswer(failed('PROVIDER_RATE_LIMITED'));
    metrics.recordProviderAnswer(providerAnswer({ provider: 'brave', status: 'ok', latency_ms: 15 }));
    // Our own limit is status rate_limited, with the same code: not an upstream error.
    metrics.recordProviderAnswer(providerAnswer({ provider: 'brave', status: 'rate_limited', latency_ms: 0, code: 'PROVIDER_RATE_LIMITED' }));
    metrics.recordMcpToolCall({ tool: 'research', operation: 'web_search', outcome: 'ok', seconds: 0.2 });
    await metrics.render();
    metrics.recordProviderAnswer(failed('PROVIDER_RATE_LIMITED'));
    metrics.recordProviderAnswer(failed('PROVIDER_HTTP'));
    metrics.recordMcpToolCall({ tool: 'research', operation: 'web_search', outcome: 'error', seconds: 0.001 });
    metrics.recordMcpToolCall({ tool: 'research', operation: 'web_search', outcome: 'ok', seconds: 3 });
    metrics.recordMcpToolCall({ tool: 'research', operation: 'fetch_url', outcome: 'ok', seconds: 0.5 });
    metrics.recordMcpToolCall({ tool: 'research', operation: undefined, outcome: 'error', seconds: 0.001 });
    // Its client cancelled it: no answer was sent, and the tool did not fail.
    metrics.recordMcpToolCall({ tool: 'research', operation: 'web_search', outcome: 'cancelled', seconds: 1 });
    const text = await metrics.render();
    expect(sample(text, 'fedsearch_provider_outcomes_total{provider="brave",status="error"}')).toBe(3);
    expect(sample(text, 'fedsearch_provider_errors_total{provider="brave",code="PROVIDER_RATE_LIMITED"}')).toBe(2);
    expect(sample(text, 'fedsearch_provider_errors_total{provider="brave",code="PROVIDER_HTTP"}')).toBe(1);
    expect(text.split('\n').filter((line) => line.startsWith('fedsearch_provider_errors_total{'))).toHaveLength(2);
    expect(sample(text, 'fedsearch_mcp_tool_calls_total{tool="research",operation="web_search",outcome="ok"}')).toBe(2);
    expect(sample(text, 'fedsearch_mcp_tool_calls_total{tool="research",operation="web_search",outcome="error"}')).toBe(1);
    expect(sample(text, 'fedsearch_mcp_tool_calls_total{tool="research",operation="web_search",outcome="cancelled"}')).toBe(1);
    expect(sample(text, 'fedsearch_mcp_tool_calls_total{tool="research",operation="fetch_url",outcome="ok"}')).toBe(1);
    expect(sample(text, 'fedsearch_mcp_tool_calls_total{tool="research",operation="none",outcome="error"}')).toBe(1);
    expect(sample(text, 'fedsearch_mcp_tool_call_duration_seconds_bucket{le="0.25",tool="research",operation="web_search",outcome="ok"}')).toBe(1);
    expect(sample(text, 'fedsearch_mcp_tool_call_duration_seconds_sum{tool="research",operation="web_search",outcome="ok"}')).toBeCloseTo(3.2, 6);
  });

  it('keeps each app\'s series apart, so several apps live in one process', async () => {
    const one = createMetrics();
    const two = createMetrics();
    one.recordCache('hit');
    one.recordProviderAnswer(providerAnswer({ provider: 'brave', status: 'error', latency_ms: 15, code: 'PROVIDER_HTTP' }));
    const textOne = await one.render();
    const textTwo = await two.render();
    expect(sample(textOne, 'fedsearch_cache_hits_total')).toBe(1);
    expect(sample(textTwo, 'fedsearch_cache_hits_total')).toBe(0);
    expect(textOne).toContain('fedsearch_provider_outcomes_total{provider="brave",status="error"} 1');
    expect(textTwo).not.toContain('provider="brave"');
  });

  describe('with METRICS_TOKEN set', () => {
    const token = 'metrics-token-0123456789';

    it.each([
      ['no Authorization header', undefined],
      ['a wrong token', 'Bearer not-the-token'],
      ['a longer token with the right start', `Bearer ${token}x`],
      ['the token under another scheme', `Basic ${token}`],
      ['the bare token', token],
      ['an empty bearer', 'Bearer '],
    ])('answers %s with 401 and a WWW-Authenticate challenge', async (_case, authorization) => {
      const metrics = createMetrics();
      const app = await appWith(metrics, token);
      const response = await app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      // The one error shape every error answer has, with the request id a caller quotes.
      expect(response.json()).toEqual({
        statusCode: 401,
        error: 'Unauthorized',
        code: 'UNAUTHORIZED',
        message: 'send Authorization: Bearer <METRICS_TOKEN>',
        request_id: expect.stringMatching(/\S/),
      });
      expect(response.body).not.toContain('fedsearch_');
    });

    it('serves the metrics to a scraper with the right bearer token, whatever the scheme\'s case', async () => {
      const metrics = createMetrics();
      metrics.recordCache('miss');
      const app = await appWith(metrics, token);
      for (const authorization of [`Bearer ${token}`, `bearer ${token}`]) {
        const response = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization } });
        expect(response.statusCode).toBe(200);
        expect(sample(response.body, 'fedsearch_cache_misses_total')).toBe(1);
      }
    });
  });

  it('is open without a token', async () => {
    const response = await (await appWith(createMetrics())).inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['www-authenticate']).toBeUndefined();
    expect(response.body).toContain('# HELP fedsearch_searches_in_flight');
  });
});
