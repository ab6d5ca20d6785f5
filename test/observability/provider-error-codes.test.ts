import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE = '/brave/res/v1/web/search';

/** The value of one sample line, e.g. `name{a="b"} 3`, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/**
 * "Provider X's quota is used up" is an alert of its own: an upstream's 429 must be told from its 5xx on /metrics,
 * not only in the answer's outcome (both are status="error" in fedsearch_provider_outcomes_total).
 */
describe('provider error codes', () => {
  let upstream: FakeUpstream | undefined;
  let service: RunningService | undefined;
  afterEach(async () => {
    await service?.stop();
    await upstream?.stop();
  });

  it("count an upstream's own 429 apart from its 5xx, beside the error outcomes they both are", async () => {
    upstream = await startFakeUpstream();
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'test-key-1', BRAVE_RATE_LIMIT: 'off', LOG_LEVEL: 'silent' });
    const search = async (query: string): Promise<unknown> => {
      const body = (await (await request(service!.origin, `/v1/search/web?q=${query}&providers=brave`)).json()) as { providers: Array<{ provider: string }> };
      return body.providers.find((outcome) => outcome.provider === 'brave');
    };

    // The 5xx first: a 429's Retry-After suspends the provider for that long.
    upstream.on(BRAVE, { kind: 'respond', status: 502, body: 'bad gateway' });
    expect(await search('broken')).toMatchObject({ status: 'error', code: 'PROVIDER_HTTP' });
    upstream.json(BRAVE, { type: 'ErrorResponse', error: { detail: 'quota' } }, 429, { 'retry-after': '60' });
    expect(await search('quota')).toMatchObject({ status: 'error', code: 'PROVIDER_RATE_LIMITED' });

    const text = await (await request(service.origin, '/metrics')).text();
    expect(sample(text, 'fedsearch_provider_outcomes_total{provider="brave",status="error"}')).toBe(2);
    expect(sample(text, 'fedsearch_provider_errors_total{provider="brave",code="PROVIDER_RATE_LIMITED"}')).toBe(1);
    expect(sample(text, 'fedsearch_provider_errors_total{provider="brave",code="PROVIDER_HTTP"}')).toBe(1);
    expect(text.split('\n').filter((line) => line.startsWith('fedsearch_provider_errors_total{'))).toHaveLength(2);
  });
});
