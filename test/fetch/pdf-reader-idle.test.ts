import { once } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { extractPdfText, PDF_READERS, PDF_READERS_IDLE_MS, pdfReaderThreads } from '../../src/fetch/extract-pdf.js';
import { minimalPdf } from './minimal-pdf.js';

/**
 * The idle wait runs on a fake clock (only setTimeout is faked: the threads and their messages are real), so the
 * test moves time on instead of sleeping through PDF_READERS_IDLE_MS.
 */
describe('the PDF reader threads after the last PDF', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('are ended once no PDF has been in hand for PDF_READERS_IDLE_MS, and started again for the next', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await expect(extractPdfText(minimalPdf({ lines: ['first'] }), { maxChars: 1_000_000, timeMs: 60_000 })).resolves.toMatchObject({ text: 'first' });
    const threads = pdfReaderThreads();
    expect(threads.length).toBe(PDF_READERS);
    const exits = threads.map((thread) => once(thread, 'exit'));

    vi.advanceTimersByTime(PDF_READERS_IDLE_MS - 1);
    expect(pdfReaderThreads()).toEqual(threads);
    vi.advanceTimersByTime(1);
    expect(pdfReaderThreads()).toEqual([]);
    await Promise.all(exits);

    await expect(extractPdfText(minimalPdf({ lines: ['second'] }), { maxChars: 1_000_000, timeMs: 60_000 })).resolves.toMatchObject({ text: 'second' });
    expect(pdfReaderThreads().length).toBe(PDF_READERS);
  });
});
