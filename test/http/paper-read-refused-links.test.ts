import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalPdf } from '../fetch/minimal-pdf.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, startService, type RunningService } from '../support/service.js';

const repositoryPdf = minimalPdf({ lines: ['Read past the refused link.'] });

/** Each DOI's PDF links by its suffix, as addresses on the fake upstream: Semantic Scholar's first, then Crossref's. */
type Links = Record<string, { semanticscholar: (origin: string) => string; crossref: (origin: string) => string }>;

/** A link with a user name and password: the safe fetcher refuses it whatever FETCH_ALLOW_PRIVATE says. */
const withUserInfo = (origin: string, path: string): string => origin.replace('http://', 'http://reader:secret@') + path;

/**
 * A paper that Semantic Scholar and Crossref both know, with `links` as their PDF links (the merged record's pdf_url
 * is Semantic Scholar's), served by one fake upstream that also serves the repository's copy.
 */
async function startPaperSources(links: Links): Promise<FakeUpstream> {
  const upstream = await startFakeUpstream();
  const suffixOf = (path: string): string => /10\.5555\/refused\.(\w+)/.exec(decodeURIComponent(path))![1]!;
  upstream.on('/crossref/works/*', {
    kind: 'handler',
    handle: (recorded, response) => {
      const suffix = suffixOf(recorded.path);
      const doi = `10.5555/refused.${suffix}`;
      const link = links[suffix]!.crossref(upstream.origin);
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: 'ok', 'message-type': 'work', message: { DOI: doi, title: ['Refused Apart'], URL: `https://doi.org/${doi}`, link: [{ URL: link, 'content-type': 'application/pdf' }] } }));
    },
  });
  upstream.on('/semanticscholar/graph/v1/paper/*', {
    kind: 'handler',
    handle: (recorded, response) => {
      const suffix = suffixOf(recorded.path);
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          paperId: 'c'.repeat(40),
          title: 'Refused Apart',
          externalIds: { DOI: `10.5555/refused.${suffix}` },
          openAccessPdf: { url: links[suffix]!.semanticscholar(upstream.origin) },
        }),
      );
    },
  });
  upstream.json('/openalex/works/*', { error: 'not found' }, 404);
  upstream.on('/repository/copy.pdf', {
    kind: 'handler',
    handle: (_recorded, response) => response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': repositoryPdf.length }).end(repositoryPdf),
  });
  upstream.on('/repository/gone.pdf', { kind: 'respond', status: 410, headers: { 'content-type': 'text/plain' }, body: 'Gone' });
  upstream.on('/publisher/*', { kind: 'respond', headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.4 never to be read' });
  return upstream;
}

/**
 * A paper's PDF links come from its providers, not from the caller: one the safe fetcher refuses (a poisoned record,
 * a link with credentials in it, a private address) is passed over for the paper's other links, as a link that
 * fails is; nothing is ever sent to it.
 */
describe('paper_read past a PDF link the fetcher refuses', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startPaperSources({
      second: { semanticscholar: (origin) => withUserInfo(origin, '/publisher/poisoned.pdf'), crossref: (origin) => `${origin}/repository/copy.pdf` },
      gone: { semanticscholar: (origin) => withUserInfo(origin, '/publisher/poisoned.pdf'), crossref: (origin) => `${origin}/repository/gone.pdf` },
    });
    service = await startService({ ...providerEnv(upstream.origin), FETCH_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it("reads the other source's PDF, and sends nothing to the refused link", async () => {
    const response = await callOperation(service, 'paper_read', { id: '10.5555/refused.second' });
    const body = await response.json();
    expect(response.status).toBe(200);
    expect(body.text).toBe('Read past the refused link.');
    expect(body.url).toBe(`${upstream.origin}/repository/copy.pdf`);
    expect(body.paper.pdf_urls).toEqual([withUserInfo(upstream.origin, '/publisher/poisoned.pdf'), `${upstream.origin}/repository/copy.pdf`]);
    expect(upstream.requestsTo('/publisher/poisoned.pdf')).toEqual([]);
  });

  it("answers with the failure of a link that was fetched, not the refusal, when no link gives the paper", async () => {
    const response = await callOperation(service, 'paper_read', { id: '10.5555/refused.gone' });
    expect(response.status).toBe(502);
    const body = await response.json();
    expect(body.code).toBe('FETCH_FAILED');
    expect(body.message).toBe(
      `none of the 2 PDF locations known for 10.5555/refused.gone could be read: ${upstream.origin}/publisher/poisoned.pdf: ` +
        `refused: URLs with a user name or password are not fetched; ${upstream.origin}/repository/gone.pdf answered HTTP 410; ` +
        // What the refusal allows, after the list: between its reasons, it read as the next location's.
        'allowed: http and https URLs without them',
    );
    // The link's user name and password are no one's to read: the location is named without them.
    expect(body.message).not.toContain('secret');
    expect(upstream.requestsTo('/publisher/poisoned.pdf')).toEqual([]);
  });
});

describe('paper_read when every PDF link is on a private address', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startPaperSources({
      private: { semanticscholar: (origin) => `${origin}/publisher/private.pdf`, crossref: (origin) => `${origin}/repository/copy.pdf` },
    });
    // The address policy as deployed: the fake upstream's loopback address is refused.
    service = await startService({ ...providerEnv(upstream.origin), LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('tries each, fetches none, and names each with its reason', async () => {
    const response = await callOperation(service, 'paper_read', { id: '10.5555/refused.private' });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.code).toBe('FETCH_FORBIDDEN');
    expect(body.message).toBe(
      `none of the 2 PDF locations known for 10.5555/refused.private could be read: ${upstream.origin}/publisher/private.pdf: refused: 127.0.0.1 is a loopback address; ` +
        `${upstream.origin}/repository/copy.pdf: refused: 127.0.0.1 is a loopback address; ` +
        'allowed: public addresses (FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only)',
    );
    expect(upstream.requests.filter((request) => request.path.startsWith('/publisher/') || request.path.startsWith('/repository/'))).toEqual([]);
  });
});
