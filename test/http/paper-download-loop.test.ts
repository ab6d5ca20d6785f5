import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalPdf } from '../fetch/minimal-pdf.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { USER_AGENT } from '../../src/version.js';
import { callOperation, request, startService, type RunningService } from '../support/service.js';

/**
 * A page that redirects to the service's own GET /v1/papers/download, naming as its url a page that redirects there
 * again: each download the service makes asks the service for the next. (FETCH_ALLOW_PRIVATE lets the test's loopback
 * service be fetched; a public deployment is reached the same way under its public name.)
 */
describe('a redirect chain through GET /v1/papers/download', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  const pdf = minimalPdf({ lines: ['A paper any client may download.'] });

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/loop/*', {
      kind: 'handler',
      handle: (asked, response) => {
        const next = Number(asked.path.slice('/loop/'.length)) + 1;
        const download = `${service.origin}/v1/papers/download?url=${encodeURIComponent(`${upstream.origin}/loop/${next}`)}`;
        response.writeHead(302, { location: download }).end();
      },
    });
    upstream.on('/files/paper.pdf', {
      kind: 'handler',
      handle: (_asked, response) => response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': pdf.length }).end(pdf),
    });
    service = await startService({ FETCH_ALLOW_PRIVATE: 'true' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it("ends at its first turn: fetch_url fails on the refused download, and the page was asked once", async () => {
    const response = await callOperation(service, 'fetch_url', { url: `${upstream.origin}/loop/0`, timeout_ms: 5000 });
    const body = (await response.json()) as { code?: string; message?: string };
    expect({ status: response.status, code: body.code }).toEqual({ status: 502, code: 'FETCH_FAILED' });
    expect(body.message).toContain('/v1/papers/download?url=');
    expect(body.message).toContain('answered HTTP 400');
    // The caller's fetch of /loop/0 alone: the download it redirected to was refused before it fetched /loop/1.
    expect(upstream.requests.map((asked) => asked.path)).toEqual(['/loop/0']);
  });

  it('tells a fedsearch page fetch why its download is refused and what is allowed instead', async () => {
    const response = await request(service.origin, `/v1/papers/download?url=${encodeURIComponent(`${upstream.origin}/files/paper.pdf`)}`, {
      headers: { 'user-agent': USER_AGENT },
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { code?: string; message?: string };
    expect(body.code).toBe('FETCH_FORBIDDEN');
    expect(body.message).toMatch(/^refused: this download was asked by a fedsearch page fetch .*; allowed: the file itself, asked for directly, not a download of it$/);
  });

  it('still serves a download asked by any other client', async () => {
    const response = await request(service.origin, `/v1/papers/download?url=${encodeURIComponent(`${upstream.origin}/files/paper.pdf`)}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
  });
});
