import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, startService, type RunningService } from '../support/service.js';

/** The paths each paper provider's requests belong under: base URL path (providerEnv's /<name>) plus its API path. */
const INTENDED_PATHS = ['/crossref/works/', '/openalex/works/', '/semanticscholar/graph/v1/paper/', '/pubmed/entrez/eutils/', '/arxiv/api/query'];

const CLIMBING_IDS = [
  '10.1234/../../../../graph/v1/author/1741101/papers?limit=1000&offset=0#',
  '10.1234/%2e%2e/%2E%2E/%2e%2E/%2E%2e/graph/v1/author/1741101/papers',
  '10.1234/.%2E/.%2e/works',
];

describe('a paper id whose DOI climbs out of the lookup path', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('*', { data: [] });
    service = await startService({ ...providerEnv(upstream.origin), SEMANTIC_SCHOLAR_API_KEY: 's2-secret-key', CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it.each(CLIMBING_IDS)('paper_details %s answers 400 and asks no upstream outside its lookup path', async (id) => {
    const response = await callOperation(service, 'paper_details', { id });
    const body = await response.json();
    expect(response.status).toBe(400);
    expect(body.code).toBe('QUERY_INVALID');
    expect(body.message).toMatch(/has a part between slashes that is "\." or "\.\." \(also as %2e\), which no DOI has; use the DOI as registered/);
    const outside = upstream.requests.filter((request) => !INTENDED_PATHS.some((path) => request.path.startsWith(path)));
    expect(outside.map((request) => request.url.pathname + request.url.search)).toEqual([]);
  });

  it('paper_read refuses it the same way', async () => {
    const response = await callOperation(service, 'paper_read', { id: CLIMBING_IDS[0] });
    expect(response.status).toBe(400);
    expect((await response.json()).code).toBe('QUERY_INVALID');
  });
});
