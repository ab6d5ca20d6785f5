import { describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import {
  extractPdfText,
  PDF_PAGE_GRACE_MS,
  PDF_QUEUE_LENGTH,
  PDF_READERS,
  PDF_READERS_BUSY_RETRY_AFTER_MS,
  PDF_THREAD_START_MS,
} from '../../src/fetch/extract-pdf.js';
import { minimalPdf, slowPdf } from './minimal-pdf.js';


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
    // Both reader threads busy for at least 8 s each from now (the time, then the grace for the page being read, a
    // timer from the thread's start): longer than the waiting PDF, asked for next, may wait (its 200 ms, the page grace
    // and a thread's start: 7.2 s). Timers fire in the order they are due, so the margin holds however busy the
    // machine is; every second more of it was a second more waiting for the threads to stop at the end.
    const busy = [0, 1].map(() => extractPdfText(slow, { maxChars: 1_000_000, timeMs: 6_000 }).catch((error: unknown) => error));
    const waiting = await extractPdfText(minimalPdf({ lines: ['waited'] }), { maxChars: 1_000_000, timeMs: 200 }).catch((error: unknown) => error);
    expect(waiting).toBeInstanceOf(FedsearchError);
    expect((waiting as FedsearchError).code).toBe('FETCH_TIMEOUT');
    expect((waiting as FedsearchError).message).toBe(
      `the PDF waited longer than ${200 + PDF_PAGE_GRACE_MS + PDF_THREAD_START_MS} ms for a reader thread (FETCH_TIMEOUT_MS, ${PDF_PAGE_GRACE_MS} ms for one page and ${PDF_THREAD_START_MS} ms for a thread to start): others were being read`,
    );
    await Promise.all(busy);
  }, 30_000);

  it('is refused at once with PDF_READERS_BUSY when every thread is reading and the queue is full; those queued are still read', async () => {
    const slow = slowPdf();
    // Both threads busy until stopped (the time, then the page grace), the queue full behind them.
    const busy = Array.from({ length: PDF_READERS }, () => extractPdfText(slow, { maxChars: 1_000_000, timeMs: 1_000 }).catch((error: unknown) => error));
    const texts = Array.from({ length: PDF_QUEUE_LENGTH }, (_, index) => `queued number ${index}`);
    const queued = texts.map((text) => extractPdfText(minimalPdf({ lines: [text] }), { maxChars: 1_000_000, timeMs: 60_000 }));
    // Refused before a thread frees, not read (or timed out) once one does, as before the bound.
    const oneMore = await Promise.race([
      extractPdfText(minimalPdf({ lines: ['one too many'] }), { maxChars: 1_000_000, timeMs: 60_000 }).then(
        (read) => read,
        (error: unknown) => error,
      ),
      Promise.all(busy).then(() => 'a thread freed first'),
    ]);
    expect(oneMore).toBeInstanceOf(FedsearchError);
    expect(oneMore).toMatchObject({
      code: 'PDF_READERS_BUSY',
      httpStatus: 503,
      retryAfterMs: PDF_READERS_BUSY_RETRY_AFTER_MS,
      message: `the PDF readers are busy (${PDF_READERS} PDFs being read and ${PDF_QUEUE_LENGTH} waiting, as many as may wait): this PDF was fetched but not read; retry after ${PDF_READERS_BUSY_RETRY_AFTER_MS / 1000} s`,
    });
    expect((await Promise.all(queued)).map(({ text }) => text)).toEqual(texts);
    expect((await Promise.all(busy)).map((error) => (error as FedsearchError).code)).toEqual(['FETCH_TIMEOUT', 'FETCH_TIMEOUT']);
    // Every place is given back, whichever way its PDF ended.
    await expect(extractPdfText(minimalPdf({ lines: ['after the queue'] }), { maxChars: 1_000_000, timeMs: 60_000 })).resolves.toMatchObject({ text: 'after the queue' });
  }, 30_000);
});
