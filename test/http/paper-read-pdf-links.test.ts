import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalPdf, passwordProtectedPdf } from '../fetch/minimal-pdf.js';
import { callTool, connect } from '../mcp/mcp-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, startService, type RunningService } from '../support/service.js';

const repositoryPdf = minimalPdf({ lines: ['Read from the repository copy.'] });

/**
 * Each DOI's PDF links by its suffix: Semantic Scholar's (a publisher's, the merged record's pdf_url: the
 * catalogue lists Semantic Scholar before Crossref, and both rank the paper first) and Crossref's (a repository's).
 */
const LINKS: Record<string, { semanticscholar: string; crossref: string }> = {
  refused: { semanticscholar: '/publisher/refused.pdf', crossref: '/repository/copy.pdf' },
  landing: { semanticscholar: '/publisher/landing', crossref: '/repository/copy.pdf' },
  gone: { semanticscholar: '/publisher/withdrawn.pdf', crossref: '/repository/gone.pdf' },
  pages: { semanticscholar: '/publisher/cover', crossref: '/repository/record' },
  broken: { semanticscholar: '/publisher/truncated.pdf', crossref: '/repository/copy.pdf' },
  unreadable: { semanticscholar: '/publisher/locked.pdf', crossref: '/repository/truncated.pdf' },
  // One location only, its PDF unreadable.
  lone: { semanticscholar: '/publisher/truncated.pdf', crossref: '' },
  // Known to both, a PDF link from neither.
  closed: { semanticscholar: '', crossref: '' },
};

/** A PDF cut short in transfer or on its server: its header and the start of its first object. */
const TRUNCATED_PDF = '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pa';

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function suffixOf(path: string): string | undefined {
  return /10\.5555\/links\.(\w+)/.exec(decodeURIComponent(path))?.[1];
}

/**
 * A paper that Semantic Scholar and Crossref both know, each with its own PDF link: the publisher's (the merged
 * record's pdf_url) is refused or a landing page, the repository's (the other source's) is the file. No arXiv
 * id, so arXiv's PDF is no way out.
 */
describe('paper_read of a paper whose sources give different PDF links', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  const at = (path: string): string => `${upstream.origin}${path}`;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/crossref/works/*', {
      kind: 'handler',
      handle: (recorded, response) => {
        const suffix = suffixOf(recorded.path)!;
        const doi = `10.5555/links.${suffix}`;
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            status: 'ok',
            'message-type': 'work',
            message: {
              DOI: doi,
              title: ['Links Apart'],
              URL: `https://doi.org/${doi}`,
              link: LINKS[suffix]!.crossref ? [{ URL: at(LINKS[suffix]!.crossref), 'content-type': 'application/pdf' }] : [],
            },
          }),
        );
      },
    });
    upstream.on('/semanticscholar/graph/v1/paper/*', {
      kind: 'handler',
      handle: (recorded, response) => {
        const suffix = suffixOf(recorded.path)!;
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            paperId: 'b'.repeat(40),
            title: 'Links Apart',
            externalIds: { DOI: `10.5555/links.${suffix}` },
            openAccessPdf: LINKS[suffix]!.semanticscholar ? { url: at(LINKS[suffix]!.semanticscholar) } : null,
          }),
        );
      },
    });
    upstream.json('/openalex/works/*', { error: 'not found' }, 404);
    upstream.on('/publisher/refused.pdf', { kind: 'respond', status: 404, headers: { 'content-type': 'text/html' }, body: '<html>Not here</html>' });
    upstream.on('/publisher/withdrawn.pdf', { kind: 'respond', status: 404, headers: { 'content-type': 'text/html' }, body: '<html>Withdrawn</html>' });
    upstream.on('/publisher/landing', { kind: 'respond', headers: { 'content-type': 'text/html' }, body: '<html><title>Journal</title><body>Buy this article</body></html>' });
    upstream.on('/repository/copy.pdf', {
      kind: 'handler',
      handle: (_recorded, response) => response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': repositoryPdf.length }).end(repositoryPdf),
    });
    upstream.on('/publisher/cover', { kind: 'respond', headers: { 'content-type': 'text/html' }, body: '<html><title>Cover</title><body>About this article</body></html>' });
    upstream.on('/repository/record', { kind: 'respond', headers: { 'content-type': 'text/html' }, body: '<html><title>Record</title><body>A record</body></html>' });
    upstream.on('/repository/gone.pdf', { kind: 'respond', status: 410, headers: { 'content-type': 'text/plain' }, body: 'Gone' });
    for (const path of ['/publisher/truncated.pdf', '/repository/truncated.pdf']) {
      upstream.on(path, { kind: 'respond', headers: { 'content-type': 'application/pdf' }, body: TRUNCATED_PDF });
    }
    const locked = passwordProtectedPdf();
    upstream.on('/publisher/locked.pdf', {
      kind: 'handler',
      handle: (_recorded, response) => response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': locked.length }).end(locked),
    });
    service = await startService({ ...providerEnv(upstream.origin), FETCH_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it("reads the second source's PDF when the merged record's link answers 404", async () => {
    const response = await callOperation(service, 'paper_read', { id: '10.5555/links.refused' });
    const body = await response.json();
    expect(response.status).toBe(200);
    expect(body.text).toBe('Read from the repository copy.');
    expect(body.url).toBe(at('/repository/copy.pdf'));
    expect(body.paper.pdf_url).toBe(at('/publisher/refused.pdf'));
    expect(body.paper.pdf_urls).toEqual([at('/publisher/refused.pdf'), at('/repository/copy.pdf')]);
    expect(upstream.requestsTo('/publisher/refused.pdf').length).toBe(1);
  });

  it("reads the second source's PDF when the first source's PDF cannot be read", async () => {
    const response = await callOperation(service, 'paper_read', { id: '10.5555/links.broken' });
    const body = await response.json();
    expect({ status: response.status, text: body.text, url: body.url }).toEqual({
      status: 200,
      text: 'Read from the repository copy.',
      url: at('/repository/copy.pdf'),
    });
    expect(upstream.requestsTo('/publisher/truncated.pdf').length).toBe(1);
  });

  it('names every PDF it could not read, and why, when no source has a readable one', async () => {
    const response = await callOperation(service, 'paper_read', { id: '10.5555/links.unreadable' });
    const body = await response.json();
    expect({ status: response.status, code: body.code }).toEqual({ status: 415, code: 'FETCH_UNSUPPORTED_TYPE' });
    expect(body.message).toMatch(
      new RegExp(
        `^none of the 2 PDF locations known for 10\\.5555/links\\.unreadable could be read: ` +
          `${escaped(at('/publisher/locked.pdf'))}: the PDF is encrypted and opens only with a password, which is not known here: its text cannot be read; ` +
          `${escaped(at('/repository/truncated.pdf'))}: the PDF could not be read: .+$`,
      ),
    );
  });

  it('names the one PDF location a paper has when its PDF cannot be read', async () => {
    const response = await callOperation(service, 'paper_read', { id: '10.5555/links.lone' });
    const body = await response.json();
    expect({ status: response.status, code: body.code }).toEqual({ status: 502, code: 'FETCH_FAILED' });
    expect(body.message).toMatch(new RegExp(`^${escaped(at('/publisher/truncated.pdf'))}: the PDF could not be read: .+$`));
  });

  it('says which sources know a paper that has no open PDF, and where its text may be read', async () => {
    const response = await callOperation(service, 'paper_read', { id: '10.5555/links.closed' });
    const body = await response.json();
    expect({ status: response.status, code: body.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(body.message).toContain(
      'no open PDF is known for 10.5555/links.closed: the sources that know it (semanticscholar, crossref) give no open PDF link, and it has no arXiv id',
    );
    // PubMed, which this test's upstream does not serve, failed: its record might have had a link.
    expect(body.message).toContain('; not heard from: pubmed (error);');
    expect(body.message).toContain("; try fetch_url on https://doi.org/10.5555/links.closed (the publisher's page)");
  });

  it("downloads the second source's PDF when the merged record's link is a landing page", async () => {
    const response = await fetch(`${service.origin}/v1/papers/download?id=${encodeURIComponent('10.5555/links.landing')}`);
    expect(upstream.requestsTo('/publisher/landing').length).toBe(1);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await response.arrayBuffer()).equals(repositoryPdf)).toBe(true);
  });

  it('names every link it tried when none gives the PDF', async () => {
    const response = await callOperation(service, 'paper_read', { id: '10.5555/links.gone' });
    expect(response.status).toBe(502);
    const body = await response.json();
    expect(body.code).toBe('FETCH_FAILED');
    expect(body.message).toBe(
      `none of the 2 PDF locations known for 10.5555/links.gone could be read: ${at('/publisher/withdrawn.pdf')} answered HTTP 404; ${at('/repository/gone.pdf')} answered HTTP 410`,
    );
  });

  it('refuses a download naming every link it tried when each is a landing page', async () => {
    const response = await fetch(`${service.origin}/v1/papers/download?id=${encodeURIComponent('10.5555/links.pages')}`);
    expect(response.status).toBe(415);
    const body = (await response.json()) as { code: string; message: string };
    expect(body.code).toBe('FETCH_UNSUPPORTED_TYPE');
    expect(body.message).toBe(
      `no location of the paper answered with a PDF (tried ${at('/publisher/cover')}, ${at('/repository/record')}): ${at('/publisher/cover')} answered text/html; use paper_read for its text`,
    );
  });

  it('gives an MCP client the same PDF links as REST', async () => {
    const rest = await (await callOperation(service, 'paper_details', { id: '10.5555/links.refused' })).json();
    const connected = await connect(service.origin, 'streamable');
    try {
      const result = await callTool(connected.client, 'research', { operation: 'paper_details', params: { id: '10.5555/links.refused' } });
      expect(result.isError).toBeFalsy();
      const paper = (result.structuredContent as { paper: { pdf_urls?: string[] } }).paper;
      expect(paper.pdf_urls).toEqual([at('/publisher/refused.pdf'), at('/repository/copy.pdf')]);
      expect(paper.pdf_urls).toEqual(rest.paper.pdf_urls);
    } finally {
      await connected.close();
    }
  });
});
