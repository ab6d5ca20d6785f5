import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, startService, type RunningService } from '../support/service.js';

const SCRAPE = '/firecrawl/v2/scrape';

/** fetch_url's timeout_ms bounds the whole call: a direct fetch that used it up leaves nothing for Firecrawl. */
describe('fetch_url keeps its deadline across engines', () => {
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
      FETCH_TIMEOUT_MS: '20000',
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('answers the timeout when the direct fetch ran out of timeout_ms, without starting a Firecrawl scrape', async () => {
    const response = await callOperation(service, 'fetch_url', { url: `${upstream.origin}/site/hangs`, engine: 'auto', timeout_ms: 300 });
    const body = (await response.json()) as { code: string; message: string };
    expect({ status: response.status, code: body.code }).toEqual({ status: 504, code: 'FETCH_TIMEOUT' });
    expect(upstream.requestsTo(SCRAPE)).toEqual([]);
  });
});

/**
 * Without timeout_ms, fetch_url still has READ_TIMEOUT_MS in all: a direct fetch that used it up leaves no
 * Firecrawl scrape after it (one more provider timeout on top, past a proxy's patience).
 */
describe('fetch_url without timeout_ms keeps READ_TIMEOUT_MS across engines', () => {
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
      FETCH_TIMEOUT_MS: '1000',
      READ_TIMEOUT_MS: '1000',
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('answers the timeout when the direct fetch ran out of READ_TIMEOUT_MS, without starting a Firecrawl scrape', async () => {
    const response = await callOperation(service, 'fetch_url', { url: `${upstream.origin}/site/hangs`, engine: 'auto' });
    const body = (await response.json()) as { code: string; message: string };
    expect({ status: response.status, code: body.code }).toEqual({ status: 504, code: 'FETCH_TIMEOUT' });
    expect(upstream.requestsTo(SCRAPE)).toEqual([]);
  });
});
