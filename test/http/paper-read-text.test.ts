import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalPdf } from '../fetch/minimal-pdf.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, startService, type RunningService } from '../support/service.js';

const pdfWithoutTitle = minimalPdf({ lines: ['The body of the tiny paper.'] });

function servePdf(upstream: FakeUpstream, path: string): void {
  upstream.on(path, {
    kind: 'handler',
    handle: (_recorded, response) => response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': pdfWithoutTitle.length }).end(pdfWithoutTitle),
  });
}

/** paper_read on papers whose PDF says little of itself, or whose first PDF link does not lead to a PDF. */
describe('paper_read of a paper found by identifier', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/arxiv/api/query', {
      kind: 'handler',
      handle: (_recorded, response) =>
        response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(
          `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom">` +
            `<entry><id>http://arxiv.org/abs/2401.00099v1</id><title>A Tiny Paper</title><summary>Tiny.</summary>` +
            `<published>2024-01-05T00:00:00Z</published><author><name>Ada Lovelace</name></author>` +
            `<link title="pdf" href="${upstream.origin}/files/tiny.pdf" rel="related" type="application/pdf"/></entry></feed>`,
        ),
    });
    servePdf(upstream, '/files/tiny.pdf');
    // A DOI whose Crossref record links a publisher's PDF that is refused (as text-mining links often are),
    // and which Semantic Scholar knows as an arXiv paper too.
    // tiny.1's link is refused (as text-mining links often are), tiny.2's is a landing page.
    upstream.on('/crossref/works/*', {
      kind: 'handler',
      handle: (recorded, response) => {
        const doi = recorded.path.endsWith('tiny.2') ? '10.5555/tiny.2' : '10.5555/tiny.1';
        const link = doi.endsWith('2') ? `${upstream.origin}/publisher/landing` : `${upstream.origin}/publisher/tiny.pdf`;
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            status: 'ok',
            'message-type': 'work',
            message: { DOI: doi, title: ['A Tiny Journal Paper'], URL: `https://doi.org/${doi}`, link: [{ URL: link, 'content-type': 'application/pdf' }] },
          }),
        );
      },
    });
    upstream.on('/publisher/landing', { kind: 'respond', headers: { 'content-type': 'text/html' }, body: '<html><title>Journal</title><body>Buy this article</body></html>' });
    upstream.on('/publisher/tiny.pdf', { kind: 'respond', status: 403, headers: { 'content-type': 'text/html' }, body: '<html>Forbidden</html>' });
    upstream.on('/semanticscholar/graph/v1/paper/*', {
      kind: 'handler',
      handle: (recorded, response) => {
        const doi = /10\.5555\/tiny\.\d/.exec(decodeURIComponent(recorded.path))?.[0];
        if (!doi) return void response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Paper not found"}');
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({ paperId: 'a'.repeat(40), title: 'A Tiny Journal Paper', externalIds: { DOI: doi, ArXiv: '2401.00777' } }),
        );
      },
    });
    servePdf(upstream, '/arxiv/pdf/2401.00777');
    upstream.json('/openalex/works/*', { error: 'not found' }, 404);
    service = await startService({ ...providerEnv(upstream.origin), FETCH_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it("titles the text with the paper's title when its PDF names none, not with the file name", async () => {
    const response = await callOperation(service, 'paper_read', { id: 'arXiv:2401.00099v1' });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.text).toBe('The body of the tiny paper.');
    expect(body.title).toBe('A Tiny Paper');
  });

  it("reads the paper's arXiv PDF when its open-access link answers with an error", async () => {
    const response = await callOperation(service, 'paper_read', { id: '10.5555/tiny.1' });
    const body = await response.json();
    expect(upstream.requestsTo('/publisher/tiny.pdf').length).toBe(1);
    expect(response.status).toBe(200);
    expect(body.url).toBe(`${upstream.origin}/arxiv/pdf/2401.00777`);
    expect(body.text).toBe('The body of the tiny paper.');
  });

  it("downloads the paper's arXiv PDF when its open-access link is a landing page", async () => {
    const response = await fetch(`${service.origin}/v1/papers/download?id=${encodeURIComponent('10.5555/tiny.2')}`);
    expect(upstream.requestsTo('/publisher/landing').length).toBe(1);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await response.arrayBuffer()).equals(pdfWithoutTitle)).toBe(true);
  });
});
