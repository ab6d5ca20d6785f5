import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connect, textOf } from '../mcp/mcp-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, request, startService, type RunningService } from '../support/service.js';

/** The providers that look a DOI up; arXiv cannot and is skipped. */
const DOI_PROVIDERS = ['crossref', 'openalex', 'pubmed', 'semanticscholar'];
const AN_HOUR_S = 3600;

type Outcome = { provider: string; status: string; retry_after_ms?: number };

/**
 * Our own outbound rate limit (<NAME>_RATE_LIMIT) with no slot before the deadline: nothing is sent. A caller
 * who need only wait is told so, as for a suspended provider: 503 with Retry-After at the next slot, not a 502
 * that blames the upstream.
 */
describe('a paper lookup when every provider that could answer is out of outbound rate-limit slots', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream
      .json('/crossref/works/*', { status: 'failed', message: 'down' }, 500)
      .json('/openalex/works/*', { error: 'down' }, 500)
      .json('/semanticscholar/graph/v1/paper/*', { error: 'down' }, 500)
      .json('/pubmed/entrez/eutils/esearch.fcgi', { error: 'down' }, 500);
    const oneAnHour = Object.fromEntries(DOI_PROVIDERS.map((name) => [`${name.toUpperCase()}_RATE_LIMIT`, '1/h']));
    service = await startService({ ...providerEnv(upstream.origin), ...oneAnHour, BREAKER_FAILURES: '1000', LOG_LEVEL: 'silent' });
    // The hour's one request of each provider.
    await callOperation(service, 'paper_details', { id: '10.5555/first.lookup' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('paper_details answers 503 OUTBOUND_RATE_LIMITED with Retry-After at the next slot and every outcome', async () => {
    const sent = upstream.requests.length;
    const response = await callOperation(service, 'paper_details', { id: '10.5555/second.lookup' });
    expect(response.status).toBe(503);
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(AN_HOUR_S - 60);
    expect(retryAfter).toBeLessThanOrEqual(AN_HOUR_S);
    const body = await response.json();
    expect(body.code).toBe('OUTBOUND_RATE_LIMITED');
    expect(body.retry_after_ms).toBe(Math.min(...body.details.providers.flatMap((outcome: Outcome) => outcome.retry_after_ms ?? [])));
    expect(body.message).toMatch(/^no paper provider can look up doi 10\.5555\/second\.lookup now \(.*outbound rate limit 1\/h \(CROSSREF_RATE_LIMIT\).*\); retry after \d+ s$/);
    const statuses = Object.fromEntries(body.details.providers.map((outcome: Outcome) => [outcome.provider, outcome.status]));
    expect(statuses).toEqual({ ...Object.fromEntries(DOI_PROVIDERS.map((name) => [name, 'rate_limited'])), arxiv: 'skipped' });
    expect(upstream.requests.length).toBe(sent);
  });

  it('paper_read and GET /v1/papers/download answer the same 503', async () => {
    const read = await callOperation(service, 'paper_read', { id: '10.5555/third.lookup' });
    expect({ status: read.status, code: (await read.json()).code }).toEqual({ status: 503, code: 'OUTBOUND_RATE_LIMITED' });
    expect(Number(read.headers.get('retry-after'))).toBeGreaterThan(0);
    const download = await request(service.origin, `/v1/papers/download?id=${encodeURIComponent('10.5555/fourth.lookup')}`);
    expect({ status: download.status, code: (await download.json()).code }).toEqual({ status: 503, code: 'OUTBOUND_RATE_LIMITED' });
    expect(Number(download.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('tells an MCP client to wait, with the code and retry_after_ms', async () => {
    const connected = await connect(service.origin, 'streamable');
    try {
      const result = await callTool(connected.client, 'research', { operation: 'paper_details', params: { id: '10.5555/fifth.lookup' } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^no paper provider can look up doi 10\.5555\/fifth\.lookup now \(.*\); retry after \d+ s\n\(OUTBOUND_RATE_LIMITED; retry_after_ms: \d+\)$/s);
    } finally {
      await connected.close();
    }
  });
});

describe('a paper lookup one provider answered while the others were out of outbound rate-limit slots', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  const HELD = ['openalex', 'pubmed', 'semanticscholar'];

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream
      .on('/crossref/works/*', { kind: 'respond', status: 404, headers: { 'content-type': 'text/plain' }, body: 'Resource not found.' })
      .json('/openalex/works/*', { error: 'down' }, 500)
      .json('/semanticscholar/graph/v1/paper/*', { error: 'down' }, 500)
      .json('/pubmed/entrez/eutils/esearch.fcgi', { error: 'down' }, 500);
    const oneAnHour = Object.fromEntries(HELD.map((name) => [`${name.toUpperCase()}_RATE_LIMIT`, '1/h']));
    service = await startService({ ...providerEnv(upstream.origin), ...oneAnHour, BREAKER_FAILURES: '1000', LOG_LEVEL: 'silent' });
    await callOperation(service, 'paper_details', { id: '10.5555/first.lookup' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('is still 502 (the paper may exist), and says when the others can be asked again', async () => {
    const response = await callOperation(service, 'paper_details', { id: '10.5555/second.lookup' });
    expect(response.status).toBe(502);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(AN_HOUR_S - 60);
    const body = await response.json();
    expect(body.code).toBe('PROVIDERS_FAILED');
    expect(body.message).toMatch(/^could not look up doi 10\.5555\/second\.lookup: crossref answered and did not know it, but .*; the paper may exist, retry after \d+ s$/);
    const statuses = Object.fromEntries(body.details.providers.map((outcome: Outcome) => [outcome.provider, outcome.status]));
    expect(statuses).toEqual({ crossref: 'ok', ...Object.fromEntries(HELD.map((name) => [name, 'rate_limited'])), arxiv: 'skipped' });
  });
});

describe('a single provider call out of outbound rate-limit slots (fetch_url through Firecrawl)', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  const SCRAPE = '/firecrawl/v2/scrape';

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on(SCRAPE, {
      kind: 'respond',
      headers: { 'content-type': 'application/json' },
      body: readFileSync(new URL('../fixtures/firecrawl/scrape-v2.json', import.meta.url), 'utf8'),
    });
    service = await startService({
      ...providerEnv(upstream.origin),
      FIRECRAWL_API_KEY: 'fc-key-1234567890',
      FIRECRAWL_RATE_LIMIT: '1/h',
      FETCH_ALLOW_PRIVATE: 'true',
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('answers 503 OUTBOUND_RATE_LIMITED with Retry-After, without sending the scrape', async () => {
    const first = await callOperation(service, 'fetch_url', { url: `${upstream.origin}/page/one`, engine: 'firecrawl' });
    expect(first.status).toBe(200);
    const second = await callOperation(service, 'fetch_url', { url: `${upstream.origin}/page/two`, engine: 'firecrawl' });
    expect(second.status).toBe(503);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(AN_HOUR_S - 60);
    const body = await second.json();
    expect(body.code).toBe('OUTBOUND_RATE_LIMITED');
    // When to ask again once, in the Retry-After header's words and with its number.
    expect(body.message).toBe(`firecrawl: outbound rate limit 1/h (FIRECRAWL_RATE_LIMIT): no request slot before the deadline; retry after ${second.headers.get('retry-after')} s`);
    expect(upstream.requestsTo(SCRAPE)).toHaveLength(1);
  });
});
