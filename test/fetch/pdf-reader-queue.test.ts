import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { extractPdfText, PDF_PAGE_GRACE_MS, PDF_THREAD_START_MS } from '../../src/fetch/extract-pdf.js';
import { minimalPdf, pdfOfObjects } from './minimal-pdf.js';

/** One page of 60 MiB of `(a) Tj` operators, Flate-compressed: PDF.js spends about ten seconds on it. */
function slowPdf(): Buffer {
  const operator = Buffer.from('(a) Tj\n', 'latin1');
  const raw = Buffer.alloc(60 * 1024 * 1024, 0x20);
  for (let at = 0; at + operator.length <= raw.length; at += operator.length) operator.copy(raw, at);
  const packed = deflateSync(raw, { level: 6 }).toString('latin1');
  return pdfOfObjects([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [5 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${packed.length} /Filter /FlateDecode >>\nstream\n${packed}\nendstream`,
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>',
  ]);
}

describe('a PDF waiting for a reader thread', () => {
  it('is read once the threads reading before it are stopped for running past their time', async () => {
    const slow = slowPdf();
    // Both reader threads busy until they are stopped, after the time and the grace for the page being read.
    const busy = [0, 1].map(() => extractPdfText(slow, { maxChars: 1_000_000, timeMs: 1_000 }).catch((error: unknown) => error));
    const waiting = extractPdfText(minimalPdf({ lines: ['waited'] }), { maxChars: 1_000_000, timeMs: 60_000 });
    const stopped = await Promise.all(busy);
    expect(stopped.map((error) => (error as FedsearchError).code)).toEqual(['FETCH_TIMEOUT', 'FETCH_TIMEOUT']);
    // Before the fix no thread was started for it again, and it waited for ever.
    const read = await Promise.race([waiting, new Promise((resolve) => setTimeout(() => resolve('still waiting'), 10_000))]);
    expect(read).toMatchObject({ text: 'waited' });
  }, 30_000);

  it('is given up at its own time and grace when both threads stay busy, not read whenever one frees', async () => {
    const slow = slowPdf();
    // Both reader threads busy for at least 10 s each (the time, then the grace for the page being read): longer
    // than the waiting PDF may wait (its 200 ms, the page grace and a thread's start: 7.2 s).
    const busy = [0, 1].map(() => extractPdfText(slow, { maxChars: 1_000_000, timeMs: 8_000 }).catch((error: unknown) => error));
    const waiting = await extractPdfText(minimalPdf({ lines: ['waited'] }), { maxChars: 1_000_000, timeMs: 200 }).catch((error: unknown) => error);
    expect(waiting).toBeInstanceOf(FedsearchError);
    expect((waiting as FedsearchError).code).toBe('FETCH_TIMEOUT');
    expect((waiting as FedsearchError).message).toBe(
      `the PDF waited longer than ${200 + PDF_PAGE_GRACE_MS + PDF_THREAD_START_MS} ms for a reader thread (FETCH_TIMEOUT_MS, ${PDF_PAGE_GRACE_MS} ms for one page and ${PDF_THREAD_START_MS} ms for a thread to start): others were being read`,
    );
    await Promise.all(busy);
  }, 30_000);
});
