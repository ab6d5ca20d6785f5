import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopbackSite } from '../fetch/loopback-site.js';
import { minimalPdf } from '../fetch/minimal-pdf.js';
import { callOperation, startService, type RunningService } from '../support/service.js';

/** The first bytes of a PNG and of a ZIP archive: what a mislabelled image or download starts with. */
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0]);
const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0x08, 0, 0x21, 0x00]);
const NOTE = 'Rooms 3 and 4 are closed for painting until Friday.';

describe('fetch_url believes a body over a Content-Type it contradicts', () => {
  const site = new LoopbackSite();
  let service: RunningService;

  beforeAll(async () => {
    await site.start();
    const pdf = minimalPdf({ lines: ['A paper its server calls a web page'] });
    site
      .serve('/paper-as-html', 'text/html; charset=utf-8', pdf)
      .serve('/paper-as-text', 'text/plain', pdf)
      .serve('/paper-download', 'application/force-download', pdf)
      .serve('/paper-x-download', 'application/x-download', pdf)
      .serve('/image-as-html', 'text/html', PNG)
      .serve('/archive-as-json', 'application/json', ZIP)
      // Text that holds NUL bytes or escape codes and is still text: not judged binary.
      .serve('/utf16-declared', 'text/plain; charset=utf-16le', Buffer.from(NOTE, 'utf16le'))
      .serve('/terminal-log', 'text/plain', `build \x1b[32mpassed\x1b[0m\f${NOTE}`);
    service = await startService({ FETCH_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await site.stop();
  });

  async function fetchPath(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await callOperation(service, 'fetch_url', { url: `${site.origin}${path}` });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('reads a PDF served as HTML, plain text or a forced download as the PDF it is', async () => {
    for (const path of ['/paper-as-html', '/paper-as-text', '/paper-download', '/paper-x-download']) {
      const { status, body } = await fetchPath(path);
      expect({ path, status, content_type: body['content_type'] }).toEqual({ path, status: 200, content_type: 'application/pdf' });
      expect(body['text'], path).toContain('A paper its server calls a web page');
      expect(body['text'], path).not.toContain('endobj');
    }
  });

  it('refuses binary content served as text, saying what was declared and what is read', async () => {
    for (const [path, type] of [
      ['/image-as-html', 'text/html'],
      ['/archive-as-json', 'application/json'],
    ] as const) {
      const { status, body } = await fetchPath(path);
      expect({ path, status, code: body['code'] }).toEqual({ path, status: 415, code: 'FETCH_UNSUPPORTED_TYPE' });
      expect(body['message']).toBe(
        `${site.origin}${path} says it is ${type}, but its content is binary, not text; supported: HTML, XHTML, plain text, JSON, XML and PDF`,
      );
    }
  });

  it('still reads text in UTF-16 or with terminal escape codes', async () => {
    const utf16 = await fetchPath('/utf16-declared');
    expect({ status: utf16.status, text: utf16.body['text'] }).toEqual({ status: 200, text: NOTE });
    const log = await fetchPath('/terminal-log');
    expect(log.status).toBe(200);
    expect(log.body['text']).toContain(NOTE);
  });
});
