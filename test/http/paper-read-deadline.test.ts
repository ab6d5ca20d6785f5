import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalPdf } from '../fetch/minimal-pdf.js';
import { callTool, connect } from '../mcp/mcp-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, startService, type RunningService } from '../support/service.js';

const DOI = '10.5555/slow.links';
const ARXIV_ID = '2101.00001';
const arxivPdf = minimalPdf({ lines: ['Read from arXiv at last.'] });

/**
 * A paper with three PDF locations: Semantic Scholar's and Crossref's never answer, arXiv's would. Each location
 * gets FETCH_TIMEOUT_MS (1 s) of its own; without the caller's timeout_ms the whole read still has READ_TIMEOUT_MS
 * (1.5 s), so arXiv's copy is never reached: behind a proxy that gives up after 60 s, three slow locations of 20 s
 * each (the defaults) were a 504 from the proxy while the service went on downloading.
 */
describe('paper_read and /v1/papers/download without timeout_ms', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  const at = (path: string): string => `${upstream.origin}${path}`;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/semanticscholar/graph/v1/paper/*', {
      kind: 'handler',
      handle: (_recorded, response) =>
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            paperId: 'c'.repeat(40),
            title: 'Slow Links',
            externalIds: { DOI, ArXiv: ARXIV_ID },
            openAccessPdf: { url: at('/slow/first.pdf') },
          }),
        ),
    });
    // Crossref's link is the second location.
    upstream.on('/crossref/works/*', {
      kind: 'handler',
      handle: (_recorded, response) =>
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            status: 'ok',
            'message-type': 'work',
            message: { DOI, title: ['Slow Links'], URL: `https://doi.org/${DOI}`, link: [{ URL: at('/slow/second.pdf'), 'content-type': 'application/pdf' }] },
          }),
        ),
    });
    upstream.json('/openalex/works/*', { error: 'not found' }, 404);
    upstream.on('/slow/*', { kind: 'hang' });
    upstream.on(`/arxiv/pdf/${ARXIV_ID}`, {
      kind: 'handler',
      handle: (_recorded, response) => response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': arxivPdf.length }).end(arxivPdf),
    });
    service = await startService({
      ...providerEnv(upstream.origin),
      FETCH_ALLOW_PRIVATE: 'true',
      FETCH_TIMEOUT_MS: '1000',
      READ_TIMEOUT_MS: '1500',
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('has three locations to try: both slow links, then arXiv', async () => {
    const details = await (await callOperation(service, 'paper_details', { id: DOI })).json();
    expect(details.paper.arxiv_id).toBe(ARXIV_ID);
    expect(details.paper.pdf_urls).toEqual([at('/slow/first.pdf'), at('/slow/second.pdf')]);
  });

  it('paper_read answers 504 by READ_TIMEOUT_MS, naming the link it cut and arXiv as not tried', async () => {
    const response = await callOperation(service, 'paper_read', { id: DOI });
    const body = (await response.json()) as { code: string; message: string };
    expect({ status: response.status, code: body.code }).toEqual({ status: 504, code: 'FETCH_TIMEOUT' });
    expect(body.message).toMatch(new RegExp(`^the deadline for reading ${DOI.replace('.', '\\.')} \\(READ_TIMEOUT_MS 1500 ms\\) ran out: cut at `));
    expect(body.message).toContain(`not tried: ${at(`/arxiv/pdf/${ARXIV_ID}`)}`);
    expect(upstream.requestsTo(`/arxiv/pdf/${ARXIV_ID}`)).toEqual([]);
  });

  it('/v1/papers/download answers the same 504 rather than trying every link in turn', async () => {
    const response = await fetch(`${service.origin}/v1/papers/download?id=${encodeURIComponent(DOI)}`);
    const body = (await response.json()) as { code: string; message: string };
    expect({ status: response.status, code: body.code }).toEqual({ status: 504, code: 'FETCH_TIMEOUT' });
    expect(body.message).toContain(`(READ_TIMEOUT_MS 1500 ms) ran out`);
    expect(body.message).toContain(`not tried: ${at(`/arxiv/pdf/${ARXIV_ID}`)}`);
    expect(upstream.requestsTo(`/arxiv/pdf/${ARXIV_ID}`)).toEqual([]);
  });

  it('tells an MCP client the same, deadline and untried link included', async () => {
    const connected = await connect(service.origin, 'streamable');
    try {
      const result = await callTool(connected.client, 'research', { operation: 'paper_read', params: { id: DOI } });
      expect(result.isError).toBe(true);
      const text = (result.content as Array<{ type: string; text: string }>)[0]!.text;
      expect(text).toContain('(READ_TIMEOUT_MS 1500 ms) ran out');
      expect(text).toContain(`not tried: ${at(`/arxiv/pdf/${ARXIV_ID}`)}`);
    } finally {
      await connected.close();
    }
    expect(upstream.requestsTo(`/arxiv/pdf/${ARXIV_ID}`)).toEqual([]);
  });

  it("keeps a caller's timeout_ms as the deadline it names", async () => {
    const response = await callOperation(service, 'paper_read', { id: DOI, timeout_ms: 800 });
    const body = (await response.json()) as { code: string; message: string };
    expect(response.status).toBe(504);
    expect(body.message).toContain('(timeout_ms 800 ms) ran out');
  });
});
