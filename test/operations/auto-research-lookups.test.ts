import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, startService, type RunningService } from '../support/service.js';

const DOI = '10.5555/asked.once.7';

describe('auto_research naming one paper', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    // Crossref knows the paper (its work shape, no PDF link); the other DOI providers do not.
    upstream
      .json(`/crossref/works/${DOI}`, {
        status: 'ok',
        'message-type': 'work',
        message: { DOI, title: ['Asked Once'], URL: `https://doi.org/${DOI}`, issued: { 'date-parts': [[2021, 5]] } },
      })
      .on('/openalex/works/*', { kind: 'respond', status: 404, headers: { 'content-type': 'text/html' }, body: '<html>Not Found</html>' })
      .json('/semanticscholar/graph/v1/paper/*', { error: 'Paper with id DOI:x not found' }, 404)
      .on('/pubmed/entrez/eutils/esearch.fcgi', {
        kind: 'respond',
        headers: { 'content-type': 'text/xml' },
        body: '<?xml version="1.0"?><eSearchResult><Count>0</Count><RetMax>0</RetMax><RetStart>0</RetStart><IdList/></eSearchResult>',
      });
    service = await startService({ ...providerEnv(upstream.origin), LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('looks it up once for both paper_details and paper_read', async () => {
    const response = await callOperation(service, 'auto_research', { query: `what does ${DOI} say`, depth: 2 });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.plan.map((step: { operation: string }) => step.operation)).toEqual(['paper_details', 'paper_read', 'web_search']);
    const section = (name: string) => body.sections.find((candidate: { operation: string }) => candidate.operation === name);
    expect(section('paper_details').output.paper.title).toBe('Asked Once');
    // paper_read had the same record: no open PDF is known for it.
    expect(section('paper_read').error).toContain(`no open PDF is known for ${DOI}`);
    for (const path of [`/crossref/works/${DOI}`, `/openalex/works/doi:${DOI}`, `/semanticscholar/graph/v1/paper/DOI:${DOI}`, '/pubmed/entrez/eutils/esearch.fcgi']) {
      expect(upstream.requestsTo(path), path).toHaveLength(1);
    }
  });
});
