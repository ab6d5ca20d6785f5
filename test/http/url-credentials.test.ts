import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopbackSite } from '../fetch/loopback-site.js';
import { minimalPdf } from '../fetch/minimal-pdf.js';
import { prefixesOf } from '../support/secret-prefixes.js';
import { callOperation, request, startService, type RunningService } from '../support/service.js';

/** A password for someone else's site, written into a URL the caller asks us to read. */
const PASSWORD = 'url-pw-7c41d9e02b86f35a-a-long-one-that-runs-past-a-quote';
/** One longer than the part of a redirect's target an error shows: cut before it is hidden, its start would show. */
const LONG_PASSWORD = `${PASSWORD}-${'p'.repeat(400)}`;

/** Where the loopback site's redirects lead: each to a URL with a user name and password, which the fetcher refuses. */
const REDIRECTS: Record<string, (port: number) => string> = {
  '/to-credentials': (port) => `http://alice:${PASSWORD}@127.0.0.1:${port}/paper.pdf`,
  '/to-long-credentials': (port) => `http://alice:${LONG_PASSWORD}@127.0.0.1:${port}/paper.pdf`,
  '/to-invalid-credentials': () => `http://alice:${PASSWORD}@exa mple.com/paper.pdf`,
};

interface Line {
  reqId?: string;
  msg?: string;
  message?: string;
  req?: { url?: string };
}

/**
 * A URL's user name and password are refused by the fetcher (the site never hears them), and must not come out
 * anywhere else either: not in the line the request is logged with (GET /v1/papers/download takes the URL in its
 * query string), nor in the refusal of a URL that does not parse, which quotes what was sent.
 */
describe('credentials written into a URL to read', () => {
  const site = new LoopbackSite();
  let service: RunningService;

  beforeAll(async () => {
    await site.start();
    site.serve('/paper.pdf', 'application/pdf', minimalPdf({ lines: ['reached'] }));
    for (const [path, target] of Object.entries(REDIRECTS)) {
      site.on(path, (_request, response) => response.writeHead(302, { location: target(site.port) }).end());
    }
    // Private addresses allowed: the credentials are the only reason left to refuse the loopback site.
    service = await startService({ FETCH_ALLOW_PRIVATE: 'true' });
  });
  afterAll(async () => {
    await service.stop();
    await site.stop();
  });

  const linesOf = (id: string | null): Line[] => service.logs.map((line) => JSON.parse(line) as Line).filter((line) => line.reqId === id);

  function expectNoPassword(texts: string[]): void {
    for (const text of texts) for (const prefix of prefixesOf(PASSWORD)) expect(text).not.toContain(prefix);
  }

  it.each([
    ['percent-encoded', (url: string) => encodeURIComponent(url)],
    ['written plainly', (url: string) => url],
  ])('GET /v1/papers/download with the URL %s: refused unsent, and logged without the password', async (_spelling, written) => {
    const url = `http://alice:${PASSWORD}@127.0.0.1:${site.port}/paper.pdf`;
    const response = await request(service.origin, `/v1/papers/download?url=${written(url)}`);
    const body = await response.text();
    expect(response.status).toBe(400);
    expect(JSON.parse(body)).toMatchObject({ code: 'FETCH_FORBIDDEN', message: 'refused: URLs with a user name or password are not fetched; allowed: http and https URLs without them' });
    expect(site.requestedPaths).not.toContain('/paper.pdf');

    const id = response.headers.get('x-request-id');
    const completed = () => linesOf(id).filter((line) => line.msg === 'request completed');
    await expect.poll(completed).toHaveLength(1);
    expect(completed()[0]!.req?.url).toContain('[redacted]');
    expectNoPassword([body, ...service.logs]);
  });

  /** The three ways a caller names a URL to read, each answering with the body of its refusal. */
  const readers: Array<[string, (url: string) => Promise<Response>]> = [
    ['fetch_url', (url) => callOperation(service, 'fetch_url', { url })],
    ['paper_read', (url) => callOperation(service, 'paper_read', { url })],
    ['GET /v1/papers/download', (url) => request(service.origin, `/v1/papers/download?url=${encodeURIComponent(url)}`)],
  ];

  describe.each(readers)('%s of a page that redirects to a URL with a user name and password', (_reader, read) => {
    it.each([
      ['/to-credentials', 400, 'FETCH_FORBIDDEN', (port: number) => `redirected to http://[redacted]@127.0.0.1:${port}/paper.pdf: refused, URLs with a user name or password are not fetched; allowed: http and https URLs without them`],
      ['/to-long-credentials', 400, 'FETCH_FORBIDDEN', (port: number) => `redirected to http://[redacted]@127.0.0.1:${port}/paper.pdf: refused, URLs with a user name or password are not fetched; allowed: http and https URLs without them`],
      ['/to-invalid-credentials', 502, 'FETCH_FAILED', () => 'redirected to an invalid URL: http://[redacted]@exa mple.com/paper.pdf'],
    ])('%s: refused unsent, the target named without them', async (path, status, code, named) => {
      const response = await read(`${site.origin}${path}`);
      const body = await response.text();
      expect(response.status).toBe(status);
      const answer = JSON.parse(body) as { code: string; message: string };
      expect(answer.code).toBe(code);
      expect(answer.message).toBe(`${site.origin}${path} ${named(site.port)}`);
      expect(site.requestedPaths).not.toContain('/paper.pdf');
      for (const prefix of prefixesOf(LONG_PASSWORD)) expect(body).not.toContain(prefix);
    });
  });

  it.each(['fetch_url', 'paper_read'])('%s of a URL that does not parse names it without its password, in the answer and the log', async (operation) => {
    const response = await callOperation(service, operation, { url: `http://alice:${PASSWORD}@exa mple.com/paper.pdf` });
    const body = await response.text();
    expect(response.status).toBe(400);
    expect(JSON.parse(body)).toMatchObject({ code: 'QUERY_INVALID', message: 'url: "http://[redacted]@exa mple.com/paper.pdf" is not a URL; allowed: an http(s) URL' });

    const id = response.headers.get('x-request-id');
    await expect.poll(() => linesOf(id).some((line) => line.msg === 'request rejected')).toBe(true);
    expectNoPassword([body, ...service.logs.filter((line) => line.includes(`"reqId":"${id}"`))]);
  });
});
