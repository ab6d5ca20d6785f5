import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopbackSite } from '../fetch/loopback-site.js';
import { passwordProtectedPdf } from '../fetch/minimal-pdf.js';
import { callOperation, startService, type RunningService } from '../support/service.js';

const ENCRYPTED = 'the PDF is encrypted and opens only with a password, which is not known here: its text cannot be read';

describe('a PDF that opens only with a password', () => {
  const site = new LoopbackSite();
  let service: RunningService;

  beforeAll(async () => {
    await site.start();
    site.serve('/locked.pdf', 'application/pdf', passwordProtectedPdf());
    service = await startService({ FETCH_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await site.stop();
  });

  it('is refused as a file that cannot be read, not a failure to retry, by fetch_url and paper_read alike', async () => {
    for (const operation of ['fetch_url', 'paper_read']) {
      const response = await callOperation(service, operation, { url: `${site.origin}/locked.pdf` });
      const body = (await response.json()) as { code?: string; message?: string };
      expect({ operation, status: response.status, code: body.code, message: body.message }).toEqual({
        operation,
        status: 415,
        code: 'FETCH_UNSUPPORTED_TYPE',
        message: ENCRYPTED,
      });
    }
  });
});
