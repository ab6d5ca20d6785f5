import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderAnswer } from '../../src/engine/gather.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, request, startService, type RunningService } from '../support/service.js';
import { TestProvider } from '../support/test-provider.js';

const readme = () => readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** Dashboards and alerts are written against metric names: each one the service exports is named in README.md. */
describe('README.md metric names', () => {
  it('names every fedsearch_ metric /metrics exports', async () => {
    const text = readme();
    const exported = [...(await createMetrics().render()).matchAll(/^# TYPE (fedsearch_\w+) /gm)].map((match) => match[1]!);
    expect(exported.length).toBeGreaterThan(0);
    expect(exported.filter((name) => !text.includes(`\`${name}\``))).toEqual([]);
  });

  it('names every label of those metrics (queries select and group by them)', async () => {
    const metrics = createMetrics();
    // One series of every metric, so each shows its labels.
    metrics.watch({
      circuitStates: () => [{ provider: 'brave', state: 'closed' }],
      mcpSessions: () => ({ streamable: 1 }),
      fetchLookups: () => ({ waiting: 1, running: 1, timedOutWaiting: 1 }),
    });
    const provider = new TestProvider('brave', 'http://127.0.0.1:9');
    const failed: ProviderAnswer = { provider, items: [], outcome: { provider: 'brave', status: 'error', count: 0, latency_ms: 5, code: 'PROVIDER_HTTP' } };
    metrics.recordProviderAnswer(failed);
    metrics.recordCache('hit');
    metrics.recordMcpToolCall({ tool: 'research', operation: 'web_search', outcome: 'ok', seconds: 0.1 });
    metrics.searchStarted();
    metrics.recordHttpRequest({ method: 'GET', route: '/v1/search/web', statusCode: 200, seconds: 0.1 });
    metrics.recordAbortedRequest({ method: 'GET', route: '/v1/search/web' });
    metrics.recordRateLimitWait('brave', 100);
    metrics.recordRateLimited('brave');
    const rendered = await metrics.render();
    const labels = new Set<string>();
    for (const [, labelText] of rendered.matchAll(/^fedsearch_\w+\{([^}]*)\}/gm)) {
      for (const [, name] of labelText!.matchAll(/(\w+)="/g)) if (name !== 'le') labels.add(name!);
    }
    expect([...labels]).toEqual(expect.arrayContaining(['route', 'provider', 'operation', 'transport', 'state']));
    const text = readme();
    expect([...labels].filter((name) => !text.includes(`\`${name}\``) && !text.includes(`${name}=`))).toEqual([]);
  });
});

/**
 * An alert on fedsearch_provider_errors_total selects a `code`: every value it takes must be explained where the metric
 * is (README.md's /metrics list, and the metric's own HELP). The refusals an adapter makes before sending anything
 * (QUERY_INVALID, PROVIDER_NOT_CONFIGURED) were counted there and explained nowhere.
 */
describe('fedsearch_provider_errors_total codes', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('GET /wikipedia/w/api.php', { error: 'down' }, 500);
    service = await startService({ ...providerEnv(upstream.origin), CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('README.md and the HELP line explain every code the failures of a search count under', async () => {
    await request(service.origin, '/v1/search/papers?q=AND&providers=arxiv');
    await callOperation(service, 'github_search', { query: 'fastify', type: 'code' });
    await request(service.origin, '/v1/search/web?q=down&providers=wikipedia');
    const text = await (await request(service.origin, '/metrics')).text();
    const codes = new Set([...text.matchAll(/^fedsearch_provider_errors_total\{[^}]*code="([A-Z_]+)"/gm)].map((match) => match[1]!));
    // The searches arXiv and GitHub cannot be asked are not tried (skipped, not_configured): no error to count.
    expect([...codes].sort()).toEqual(['PROVIDER_HTTP']);
    expect(text).toMatch(/^fedsearch_provider_outcomes_total\{[^}]*provider="arxiv"[^}]*status="skipped"/m);
    expect(text).toMatch(/^fedsearch_provider_outcomes_total\{[^}]*provider="github"[^}]*status="not_configured"/m);

    const readmeText = readme();
    const start = readmeText.indexOf('(`fedsearch_provider_errors_total`:');
    const passage = readmeText.slice(start, readmeText.indexOf('cache lookups', start));
    expect(start).toBeGreaterThan(0);
    const help = /^# HELP fedsearch_provider_errors_total (.*)$/m.exec(text)?.[1] ?? '';
    expect([...codes].filter((code) => !passage.includes(`\`${code}\``))).toEqual([]);
    expect([...codes].filter((code) => !help.includes(code))).toEqual([]);
  });
});
