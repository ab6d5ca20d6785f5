import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ProviderAnswer } from '../../src/engine/gather.js';
import { createMetrics } from '../../src/observability/metrics.js';
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
    metrics.watch({ circuitStates: () => [{ provider: 'brave', state: 'closed' }], mcpSessions: () => ({ streamable: 1 }) });
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
    expect([...labels]).toEqual(expect.arrayContaining(['route', 'provider', 'operation', 'transport']));
    const text = readme();
    expect([...labels].filter((name) => !text.includes(`\`${name}\``) && !text.includes(`${name}=`))).toEqual([]);
  });
});
