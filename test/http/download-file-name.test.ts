import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentDisposition } from '../../src/http/download-file-name.js';
import { minimalPdf } from '../fetch/minimal-pdf.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

describe("the download's Content-Disposition", () => {
  it('names the file after the identifier, in plain ASCII, as before', () => {
    expect(contentDisposition('2401.00099', 'https://arxiv.org/pdf/2401.00099')).toBe('attachment; filename="2401.00099.pdf"');
    expect(contentDisposition('10.1000/xyz.123', 'https://example.org/a.pdf')).toBe('attachment; filename="10.1000_xyz.123.pdf"');
    expect(contentDisposition(undefined, 'https://example.org/files/paper.pdf')).toBe('attachment; filename="paper.pdf"');
  });

  it('can never break out of the header: quotes, CR, LF and backslashes are not sent', () => {
    const header = contentDisposition(undefined, 'https://example.org/files/a%22%0D%0ASet-Cookie:%20x=1%5C.pdf');
    expect(header).not.toMatch(/[\r\n\\]/);
    expect(header.match(/"/g)).toHaveLength(2);
    expect(header).toMatch(/^attachment; filename="[A-Za-z0-9._-]+\.pdf"(; filename\*=UTF-8''[A-Za-z0-9!#$&+.^_`|~%-]+)?$/);
  });

  it("gives a name with other letters whole as filename*, UTF-8 percent-encoded, after an ASCII filename", () => {
    expect(contentDisposition(undefined, 'https://example.org/papers/%C3%A9t%C3%A9.pdf')).toBe(
      `attachment; filename="_t_.pdf"; filename*=UTF-8''%C3%A9t%C3%A9.pdf`,
    );
    expect(contentDisposition(undefined, 'https://example.org/papers/%E4%B8%AD%E6%96%87')).toBe(
      `attachment; filename="paper.pdf"; filename*=UTF-8''%E4%B8%AD%E6%96%87.pdf`,
    );
    // RFC 8187 attr-chars only: ' ( ) * are escaped too, though encodeURIComponent leaves them.
    expect(contentDisposition(undefined, "https://example.org/papers/it's%20(draft)*.pdf")).toBe(
      `attachment; filename="it_s_draft__.pdf"; filename*=UTF-8''it%27s%20%28draft%29_.pdf`,
    );
  });

  it('never names the file ".pdf": a URL ending in a slash is "paper.pdf"', () => {
    expect(contentDisposition(undefined, 'https://example.org/download/')).toBe('attachment; filename="paper.pdf"');
  });
});

describe('GET /v1/papers/download of a file with a non-ASCII, quote-bearing name', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  const pdf = minimalPdf({ lines: ['A named file.'] });

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('*', {
      kind: 'handler',
      handle: (_recorded, response) => response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': pdf.length }).end(pdf),
    });
    service = await startService({ ...providerEnv(upstream.origin), FETCH_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('answers the PDF with a header a client can parse back to the name', async () => {
    const url = `${upstream.origin}/files/r%C3%A9sum%C3%A9%22%0D%0A.pdf`;
    const response = await request(service.origin, `/v1/papers/download?url=${encodeURIComponent(url)}`);
    expect(response.status).toBe(200);
    const header = response.headers.get('content-disposition')!;
    expect(header).toBe(`attachment; filename="r_sum__.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9_.pdf`);
    expect(decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(header)![1]!)).toBe('résumé_.pdf');
  });
});
