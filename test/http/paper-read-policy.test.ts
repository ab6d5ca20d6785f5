import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, startService, type RunningService } from '../support/service.js';

/**
 * paper_read fetches a PDF from wherever a paper provider says it is: that is not a provider call but a
 * fetch of an arbitrary address, so the safe fetcher's address policy applies to it as to fetch_url.
 */
describe('paper_read keeps the address policy', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/files/paper.pdf', { kind: 'respond', headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.4' });
    // arXiv names a PDF on a loopback address (a provider's data is not trusted to point somewhere safe).
    upstream.on('/arxiv/api/query', {
      kind: 'handler',
      handle: (_recorded, response) =>
        response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(
          `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom">` +
            `<entry><id>http://arxiv.org/abs/2401.00099v1</id><title>A Tiny Paper</title><summary>Tiny.</summary>` +
            `<published>2024-01-05T00:00:00Z</published><author><name>Ada Lovelace</name></author>` +
            `<link title="pdf" href="${upstream.origin}/files/paper.pdf" rel="related" type="application/pdf"/></entry></feed>`,
        ),
    });
    upstream.json('/semanticscholar/graph/v1/paper/*', { error: 'Paper not found' }, 404);
    service = await startService({ ...providerEnv(upstream.origin), LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('refuses a PDF location on a private address that a lookup found, and fetches nothing there', async () => {
    const response = await callOperation(service, 'paper_read', { id: 'arXiv:2401.00099v1' });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.code).toBe('FETCH_FORBIDDEN');
    // arXiv's own PDF, tried after the refused link (a provider's link is not final), is on the same loopback address.
    expect(body.message).toBe(
      `none of the 2 PDF locations known for arXiv:2401.00099v1 could be read: ${upstream.origin}/files/paper.pdf: refused: 127.0.0.1 is a loopback address; ` +
        `${upstream.origin}/arxiv/pdf/2401.00099: refused: 127.0.0.1 is a loopback address; ` +
        // What is allowed, said once for the two refusals, not once for each.
        'allowed: public addresses (FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only)',
    );
    expect(upstream.requestsTo('/arxiv/api/query').length).toBeGreaterThan(0);
    expect(upstream.requestsTo('/files/paper.pdf')).toEqual([]);
    expect(upstream.requestsTo('/arxiv/pdf/2401.00099')).toEqual([]);
  });

  it('refuses a private address given as the url', async () => {
    const response = await callOperation(service, 'paper_read', { url: `${upstream.origin}/files/paper.pdf` });
    expect(response.status).toBe(400);
    expect((await response.json()).code).toBe('FETCH_FORBIDDEN');
    expect(upstream.requestsTo('/files/paper.pdf')).toEqual([]);
  });
});

/** paper_read's timeout_ms bounds the whole read, as fetch_url's does: the download too, not only the lookup. */
describe('paper_read keeps its deadline', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/files/slow.pdf', { kind: 'hang' });
    service = await startService({ ...providerEnv(upstream.origin), FETCH_ALLOW_PRIVATE: 'true', FETCH_TIMEOUT_MS: '20000', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('gives up on a PDF download at timeout_ms, well before FETCH_TIMEOUT_MS', async () => {
    const response = await callOperation(service, 'paper_read', { url: `${upstream.origin}/files/slow.pdf`, timeout_ms: 300 });
    expect(response.status).toBe(504);
    const body = (await response.json()) as { code: string; message: string };
    expect(body.code).toBe('FETCH_TIMEOUT');
    const allowed = Number(/took longer than (\d+) ms/.exec(body.message)?.[1]);
    expect(allowed).toBeGreaterThan(0);
    expect(allowed).toBeLessThanOrEqual(300);
  });
});
