import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopbackSite } from '../fetch/loopback-site.js';
import { minimalPdf } from '../fetch/minimal-pdf.js';
import { callOperation, startService, type RunningService } from '../support/service.js';

const paragraph =
  'The library opens at nine on weekdays and at ten on Saturdays; it is closed on Sundays and public holidays. ' +
  'Books borrowed may be renewed twice, online or at the desk, unless another reader has reserved them. ';
const page = `<!doctype html><html><head><title>Opening hours of the city library</title></head><body><article><h1>When the library is open</h1><p>${paragraph}</p><p>${paragraph}</p></article></body></html>`;

/** FETCH_MAX_BYTES in this test: the compressed bodies fit it, the one that inflates past it does not. */
const MAX_BYTES = 64 * 1024;

describe('fetch_url reads a body its server compressed unasked', () => {
  const site = new LoopbackSite();
  let service: RunningService;

  /** Serves `body` compressed as `coding` says, whatever the request's Accept-Encoding (fedsearch sends none). */
  function serveCoded(path: string, contentType: string, coding: string, body: Buffer): void {
    site.on(path, (_request, response) => {
      response.writeHead(200, { 'content-type': contentType, 'content-encoding': coding, 'content-length': body.length }).end(body);
    });
  }

  beforeAll(async () => {
    await site.start();
    serveCoded('/gzip', 'text/html; charset=utf-8', 'gzip', gzipSync(page));
    serveCoded('/br', 'text/html; charset=utf-8', 'br', brotliCompressSync(page));
    serveCoded('/paper.pdf', 'application/pdf', 'deflate', deflateSync(minimalPdf({ lines: ['Compressed in transit, read whole'] })));
    // Served as gzip with no type: the decompressed body is what is sniffed.
    serveCoded('/untyped', '', 'gzip', gzipSync(page));
    serveCoded('/not-gzip', 'text/html', 'gzip', Buffer.from(page));
    serveCoded('/zstd', 'text/html', 'zstd', Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0, 0x58]));
    serveCoded('/inflates', 'text/plain', 'gzip', gzipSync(Buffer.alloc(MAX_BYTES * 4, 'a')));
    service = await startService({ FETCH_ALLOW_PRIVATE: 'true', FETCH_MAX_BYTES: String(MAX_BYTES), LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await site.stop();
  });

  async function fetchPath(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await callOperation(service, 'fetch_url', { url: `${site.origin}${path}` });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('undoes gzip, br and deflate before reading the page or PDF', async () => {
    for (const path of ['/gzip', '/br', '/untyped']) {
      const { status, body } = await fetchPath(path);
      expect({ path, status, title: body['title'], content_type: body['content_type'] }).toEqual({ path, status: 200, title: 'Opening hours of the city library', content_type: 'text/html' });
      expect(body['text'], path).toContain('Books borrowed may be renewed twice');
    }
    const pdf = await fetchPath('/paper.pdf');
    expect(pdf.status).toBe(200);
    expect(pdf.body['text']).toContain('Compressed in transit, read whole');
  });

  it('says so when the body does not decode as its coding, or the coding is not one read here', async () => {
    const broken = await fetchPath('/not-gzip');
    expect({ status: broken.status, code: broken.body['code'] }).toEqual({ status: 502, code: 'FETCH_FAILED' });
    expect(broken.body['message']).toBe(`${site.origin}/not-gzip sent its body encoded as gzip, which could not be decoded; decoded here: gzip, deflate, br`);
    const unknown = await fetchPath('/zstd');
    expect({ status: unknown.status, code: unknown.body['code'] }).toEqual({ status: 502, code: 'FETCH_FAILED' });
    expect(unknown.body['message']).toContain('encoded as zstd');
  });

  it('holds the decompressed body to FETCH_MAX_BYTES', async () => {
    const { status, body } = await fetchPath('/inflates');
    expect({ status, code: body['code'] }).toEqual({ status: 413, code: 'FETCH_TOO_LARGE' });
    expect(body['message']).toBe(`${site.origin}/inflates is larger than the ${MAX_BYTES}-byte limit (FETCH_MAX_BYTES); it is that large once decompressed`);
  });
});
