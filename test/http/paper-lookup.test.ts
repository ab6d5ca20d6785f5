import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connect, textOf } from '../mcp/mcp-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const DOI = '10.5555/exists.2024.1';
const UNKNOWN_DOI = '10.5555/nobody.knows';
/** The providers that look a DOI up; arXiv cannot and is skipped. */
const DOI_PROVIDERS = ['crossref', 'openalex', 'pubmed', 'semanticscholar'];

function call(service: RunningService, operation: string, body: unknown) {
  return request(service.origin, `/v1/ops/${operation}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** Every paper provider's lookup answers HTTP 500. */
function failEveryLookup(upstream: FakeUpstream): void {
  upstream
    .json('/crossref/works/*', { status: 'failed', message: 'down' }, 500)
    .json('/openalex/works/*', { error: 'down' }, 500)
    .json('/semanticscholar/graph/v1/paper/*', { error: 'down' }, 500)
    .json('/pubmed/entrez/eutils/esearch.fcgi', { error: 'down' }, 500);
}

type Outcome = { provider: string; status: string };

describe('a paper lookup no provider could answer is not "not found"', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    failEveryLookup(upstream);
    // Crossref does answer for this one DOI: "no such work".
    upstream.on(`/crossref/works/${UNKNOWN_DOI}`, { kind: 'respond', status: 404, headers: { 'content-type': 'text/plain' }, body: 'Resource not found.' });
    service = await startService({ ...providerEnv(upstream.origin), BREAKER_FAILURES: '1000', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('paper_details answers 502 with every provider\'s outcome', async () => {
    const response = await call(service, 'paper_details', { id: DOI });
    expect(response.status).toBe(502);
    const body = await response.json();
    expect(body.code).toBe('PROVIDERS_FAILED');
    expect(body.message).toMatch(new RegExp(`^could not look up doi ${DOI.replace(/\./g, '\\.')}: no paper provider answered \\(.*\\); the paper may exist, retry later$`));
    const statuses = Object.fromEntries(body.details.providers.map((outcome: Outcome) => [outcome.provider, outcome.status]));
    expect(statuses).toEqual({ ...Object.fromEntries(DOI_PROVIDERS.map((name) => [name, 'error'])), arxiv: 'skipped' });
  });

  it('paper_read and GET /v1/papers/download answer 502 as well', async () => {
    const read = await call(service, 'paper_read', { id: DOI });
    expect(read.status).toBe(502);
    expect((await read.json()).code).toBe('PROVIDERS_FAILED');
    const download = await request(service.origin, `/v1/papers/download?id=${encodeURIComponent(DOI)}`);
    expect(download.status).toBe(502);
    expect((await download.json()).details.providers).toHaveLength(DOI_PROVIDERS.length + 1);
  });

  it('an MCP client is told the paper may exist', async () => {
    const connected = await connect(service.origin, 'streamable');
    try {
      const result = await callTool(connected.client, 'research', { operation: 'paper_details', params: { id: DOI } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('the paper may exist, retry later');
      expect(textOf(result)).toContain('crossref: error');
    } finally {
      await connected.close();
    }
  });

  it('is 502, not 404, when one provider answered "unknown" and the others failed: the paper may exist', async () => {
    const response = await call(service, 'paper_details', { id: UNKNOWN_DOI });
    expect(response.status).toBe(502);
    const body = await response.json();
    expect(body.code).toBe('PROVIDERS_FAILED');
    expect(body.message.startsWith(`could not look up doi ${UNKNOWN_DOI}: crossref answered and did not know it, but `)).toBe(true);
    for (const name of ['openalex', 'pubmed', 'semanticscholar']) expect(body.message).toContain(`${name}: error`);
    expect(body.message).toContain('crossref: ok');
    expect(body.message.endsWith('; the paper may exist, retry later')).toBe(true);
    expect(body.details.providers.find((outcome: Outcome) => outcome.provider === 'openalex')).toMatchObject({ status: 'error' });
  });
});

/** A PubMed search by DOI that finds nothing. */
const NO_PUBMED_MATCH =
  '<?xml version="1.0" encoding="UTF-8" ?><eSearchResult><Count>0</Count><RetMax>0</RetMax><RetStart>0</RetStart><IdList></IdList></eSearchResult>';
const SLOW_DOI = '10.5555/crossref.is.slow';

describe('a paper lookup every provider answered', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    const notFound = { kind: 'respond', status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not found.' } as const;
    upstream
      .on('/crossref/works/*', notFound)
      .on('/openalex/works/*', notFound)
      .json('/semanticscholar/graph/v1/paper/*', { error: 'Paper not found' }, 404)
      .on('/pubmed/entrez/eutils/esearch.fcgi', { kind: 'respond', headers: { 'content-type': 'text/xml' }, body: NO_PUBMED_MATCH })
      .on(`/crossref/works/${SLOW_DOI}`, { kind: 'hang' });
    service = await startService({ ...providerEnv(upstream.origin), BREAKER_FAILURES: '1000', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('is 404 when every provider that can look a DOI up answered and none knew it (arXiv, skipped, does not count)', async () => {
    const response = await call(service, 'paper_details', { id: UNKNOWN_DOI });
    expect(response.status).toBe(404);
    const body = await response.json();
    expect(body.code).toBe('NOT_FOUND');
    expect(body.message.startsWith(`no provider knows doi ${UNKNOWN_DOI} (`)).toBe(true);
    const statuses = Object.fromEntries(body.details.providers.map((outcome: Outcome) => [outcome.provider, outcome.status]));
    expect(statuses).toEqual({ ...Object.fromEntries(DOI_PROVIDERS.map((name) => [name, 'ok'])), arxiv: 'skipped' });
  });

  it('is 502 when one of them timed out though the others answered "unknown"', async () => {
    const response = await call(service, 'paper_details', { id: SLOW_DOI, timeout_ms: 300 });
    expect(response.status).toBe(502);
    const body = await response.json();
    expect(body.code).toBe('PROVIDERS_FAILED');
    // Named in the order they finished.
    expect(body.message).toMatch(/: (openalex|pubmed|semanticscholar), (openalex|pubmed|semanticscholar), (openalex|pubmed|semanticscholar) answered and did not know it, but crossref did not answer \(/);
    expect(body.message).toContain('crossref: timeout');
    expect(body.message.endsWith('; the paper may exist, retry later')).toBe(true);
    expect(body.details.providers.find((outcome: Outcome) => outcome.provider === 'crossref')).toMatchObject({ status: 'timeout' });
  });
});

describe('a paper lookup while every provider is suspended', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    failEveryLookup(upstream);
    service = await startService({ ...providerEnv(upstream.origin), BREAKER_FAILURES: '1', BREAKER_COOLDOWN_MS: '60000', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('answers 503 with Retry-After and the suspensions', async () => {
    expect((await call(service, 'paper_details', { id: DOI })).status).toBe(502);
    const response = await call(service, 'paper_details', { id: DOI });
    expect(response.status).toBe(503);
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const body = await response.json();
    expect(body.code).toBe('PROVIDER_SUSPENDED');
    expect(body.message).toMatch(new RegExp(`^no paper provider can look up doi ${DOI.replace(/\./g, '\\.')} now \\(.*\\); retry after \\d+ s$`));
    const statuses = body.details.providers.map((outcome: Outcome) => outcome.status).sort();
    expect(statuses).toEqual(['skipped', ...DOI_PROVIDERS.map(() => 'suspended')]);
  });
});
