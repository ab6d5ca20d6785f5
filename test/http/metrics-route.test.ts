import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const TOKEN = 'metrics-token-abcdef';

describe('/metrics on the running service', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', { web: { results: [{ title: 'M', url: 'https://m.example/' }] } });
    upstream.json('/wikipedia/w/api.php', { error: { code: 'x', info: 'nope' } }, 500);
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'k-123456', METRICS_TOKEN: TOKEN, LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
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
    expect(text).toMatch(/fedsearch_provider_circuit_state\{provider="brave"\} 0/);
    expect(text).toMatch(/fedsearch_searches_in_flight 0/);
    expect(text).toContain('process_cpu_user_seconds_total');
  });
});
