import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE = '/brave/res/v1/web/search';
const ABORTED = 'fedsearch_http_requests_aborted_total{method="GET",route="/v1/search/web"}';

/** The value of one sample line of a scrape, or undefined when the series is absent. */
async function scraped(service: RunningService, series: string): Promise<number | undefined> {
  const text = await (await request(service.origin, '/metrics')).text();
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('a request whose client leaves before its answer', () => {
  let upstream: FakeUpstream | undefined;
  let service: RunningService | undefined;
  afterEach(async () => {
    await service?.stop();
    await upstream?.stop();
  });

  it('is counted in fedsearch_http_requests_aborted_total by route pattern, since no answer is counted for it', async () => {
    upstream = await startFakeUpstream();
    const arrived = new Promise<void>((resolve) => upstream!.on(BRAVE, { kind: 'handler', handle: () => resolve() }));
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-left-key-0123456789', LOG_LEVEL: 'silent' });
    const running = service;
    expect(await scraped(running, ABORTED)).toBeUndefined();
    const leaving = new AbortController();
    const answer = request(running.origin, '/v1/search/web?q=given+up&providers=brave', { signal: leaving.signal });
    await arrived;
    leaving.abort();
    await expect(answer).rejects.toThrow();
    // The service hears of the closed connection on its own time: polled for, not waited out.
    await expect.poll(() => scraped(running, ABORTED), { timeout: 10_000 }).toBe(1);
    expect(await scraped(running, 'fedsearch_http_requests_total{method="GET",route="/v1/search/web",status_code="200"}')).toBeUndefined();
  });
});
