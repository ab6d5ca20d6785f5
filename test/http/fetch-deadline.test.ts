import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, startService, type RunningService } from '../support/service.js';

const SCRAPE = '/firecrawl/v2/scrape';

/** A site whose page never answers, Firecrawl's scrape answering at once, and a service with these settings. */
function hangingSiteAndFirecrawl(settings: Record<string, string>): () => { upstream: FakeUpstream; service: RunningService } {
  let upstream: FakeUpstream;
  let service: RunningService;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/site/hangs', { kind: 'hang' });
    upstream.on(SCRAPE, {
      kind: 'respond',
      headers: { 'content-type': 'application/json' },
      body: readFileSync(new URL('../fixtures/firecrawl/scrape-v2.json', import.meta.url), 'utf8'),
    });
    service = await startService({
      ...providerEnv(upstream.origin),
      FIRECRAWL_API_KEY: 'fc-key-1234567890',
      FETCH_ALLOW_PRIVATE: 'true',
      LOG_LEVEL: 'silent',
      ...settings,
    });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });
  return () => ({ upstream, service });
}

/** Asks fetch_url for the page that never answers, then expects the timeout and no scrape sent. */
async function expectTimeoutWithoutScrape({ upstream, service }: { upstream: FakeUpstream; service: RunningService }, timeoutMs?: number): Promise<void> {
  const input = { url: `${upstream.origin}/site/hangs`, engine: 'auto', ...(timeoutMs === undefined ? {} : { timeout_ms: timeoutMs }) };
  const response = await callOperation(service, 'fetch_url', input);
  const body = (await response.json()) as { code: string; message: string };
  expect({ status: response.status, code: body.code }).toEqual({ status: 504, code: 'FETCH_TIMEOUT' });
  expect(upstream.requestsTo(SCRAPE)).toEqual([]);
}

/** fetch_url's timeout_ms bounds the whole call: a direct fetch that used it up leaves nothing for Firecrawl. */
describe('fetch_url keeps its deadline across engines', () => {
  const running = hangingSiteAndFirecrawl({ FETCH_TIMEOUT_MS: '20000' });

  it('answers the timeout when the direct fetch ran out of timeout_ms, without starting a Firecrawl scrape', async () => {
    await expectTimeoutWithoutScrape(running(), 300);
  });
});

/**
 * Without timeout_ms, fetch_url still has READ_TIMEOUT_MS in all: a direct fetch that used it up leaves no
 * Firecrawl scrape after it (one more provider timeout on top, past a proxy's patience).
 */
describe('fetch_url without timeout_ms keeps READ_TIMEOUT_MS across engines', () => {
  const running = hangingSiteAndFirecrawl({ FETCH_TIMEOUT_MS: '1000', READ_TIMEOUT_MS: '1000' });

  it('answers the timeout when the direct fetch ran out of READ_TIMEOUT_MS, without starting a Firecrawl scrape', async () => {
    await expectTimeoutWithoutScrape(running());
  });
});
