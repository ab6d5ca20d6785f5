import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startService, type RunningService } from '../support/service.js';

/**
 * fedsearch_provider_outcomes_total says what every provider did with the searches sent to it: one missing its
 * key or turned off is counted as not_configured or skipped, as its help promises, so a dashboard shows the
 * provider that never answers and why, rather than no series at all.
 */
describe('provider outcome counts', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ LOCAL_WEIGHT: '1', WIKIPEDIA_WEIGHT: '0' });
  });
  afterAll(() => service.stop());

  const count = (text: string, provider: string, status: string): number | undefined => {
    const line = text.split('\n').find((candidate) => candidate.startsWith(`fedsearch_provider_outcomes_total{provider="${provider}",status="${status}"} `));
    return line === undefined ? undefined : Number(line.split(' ').at(-1));
  };

  it('counts providers that were not asked, by why, beside those that answered, and logs them below info', async () => {
    for (const query of ['rust', 'go']) {
      const response = await request(service.origin, `/v1/search/web?q=${query}&providers=brave,wikipedia,local`);
      const body = (await response.json()) as { providers: Array<{ provider: string; status: string }> };
      expect(body.providers.map(({ provider, status }) => [provider, status]).sort()).toEqual([
        ['brave', 'not_configured'],
        ['local', 'ok'],
        ['wikipedia', 'skipped'],
      ]);
    }
    const text = await (await request(service.origin, '/metrics')).text();
    expect(count(text, 'brave', 'not_configured')).toBe(2);
    expect(count(text, 'wikipedia', 'skipped')).toBe(2);
    expect(count(text, 'local', 'ok')).toBe(2);
    // Counted, not logged at info: a provider left without a key would otherwise add a line to every search.
    const lines = service.logs.map((line) => JSON.parse(line) as { msg?: string; level?: number });
    expect(lines.filter((line) => /^provider (brave|wikipedia):/.test(line.msg ?? ''))).toEqual([]);
  });
});
