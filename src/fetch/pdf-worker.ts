import type { MessagePort } from 'node:worker_threads';
import { FedsearchError } from '../domain/errors.js';
import { refuseInflationBomb } from './pdf-inflation.js';

/** One PDF to read, as the reader thread receives it. */
export interface PdfTask {
  /** The file, transferred to this thread: PDF.js takes ownership of (and detaches) it. */
  data: Uint8Array;
  maxChars: number;
  timeMs: number;
  /** Epoch milliseconds after which no further page is started (the first page is always read). */
  stopAt: number;
  /** Where the document's metadata and then each page's text are posted as soon as they are read. */
  port: MessagePort;
}

/** Posted once PDF.js is loaded, before the document is looked at: from here on the reading is timed. */
export interface PdfStartedMessage {
  kind: 'started';
}

/** Posted once, before any page. */
export interface PdfDocumentMessage {
  kind: 'document';
  pages: number;
  title: string | undefined;
  author: string | undefined;
  created: string | undefined;
}

export interface PdfPageMessage {
  kind: 'page';
  text: string;
}

/**
 * Posted last, on the same channel as the pages so that it never overtakes them: why reading stopped early, or
 * the error to report (thrown errors lose their class between threads).
 */
export type PdfEndMessage = { kind: 'end' } & (
  | { stopped?: string; outOfTime?: true }
  | { error: { code: 'FETCH_TOO_LARGE' | 'FETCH_FAILED' | 'FETCH_UNSUPPORTED_TYPE'; message: string } }
);

/**
 * Reads a PDF's text layer with PDF.js (the legacy build, which runs on Node 20 with no browser APIs and no
 * binaries), on a reader thread of its own: whatever the document makes PDF.js do, the service's event loop is
 * not the one doing it, and the thread can be stopped (see extract-pdf.ts). Script evaluation is off: the
 * document is untrusted. Pages are posted as they are read, so a reading stopped from outside keeps them.
 */
export default async function readPdf(task: PdfTask): Promise<void> {
  const { port } = task;
  const end = await readPages(task);
  port.postMessage(end);
  port.close();
}

async function readPages(task: PdfTask): Promise<PdfEndMessage> {
  const { port } = task;
  try {
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const started: PdfStartedMessage = { kind: 'started' };
    port.postMessage(started);
    refuseInflationBomb(Buffer.from(task.data.buffer, task.data.byteOffset, task.data.byteLength));
    const loading = pdfjs.getDocument({
      data: task.data,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: pdfjs.VerbosityLevel.ERRORS,
    });
    try {
      const document = await loading.promise;
      const { info } = await document.getMetadata();
      const fields = (info ?? {}) as Record<string, unknown>;
      const created = typeof fields.CreationDate === 'string' ? pdfjs.PDFDateString.toDateObject(fields.CreationDate) : null;
      const opened: PdfDocumentMessage = {
        kind: 'document',
        pages: document.numPages,
        title: stringField(fields.Title),
        author: stringField(fields.Author),
        created: created ? created.toISOString() : undefined,
      };
      port.postMessage(opened);
      let chars = 0;
      for (let number = 1; number <= document.numPages; number += 1) {
        if (number > 1 && Date.now() >= task.stopAt) {
          return { kind: 'end', stopped: `after ${task.timeMs} ms (FETCH_TIMEOUT_MS), at page ${number - 1} of ${document.numPages}`, outOfTime: true };
        }
        if (chars >= task.maxChars) {
          return { kind: 'end', stopped: `at ${task.maxChars} characters (FETCH_MAX_BYTES), at page ${number - 1} of ${document.numPages}` };
        }
        const page = await document.getPage(number);
        const content = await page.getTextContent();
        let text = '';
        for (const item of content.items) {
          if (!('str' in item)) continue;
          text += item.str + (item.hasEOL ? '\n' : '');
        }
        const pageText = text.replace(/[ \t]+\n/g, '\n').trim();
        const message: PdfPageMessage = { kind: 'page', text: pageText };
        port.postMessage(message);
        // With the blank line that joins pages: a close count, enough to stop on.
        chars += pageText.length + 2;
        page.cleanup();
      }
      return { kind: 'end' };
    } finally {
      await loading.destroy();
    }
  } catch (error) {
    if (error instanceof FedsearchError && error.code === 'FETCH_TOO_LARGE') return { kind: 'end', error: { code: error.code, message: error.message } };
    // PDF.js's own words for it, "No password given", read to a caller as a fault to retry; no retry opens the file.
    if ((error as { name?: unknown }).name === 'PasswordException') {
      const message = 'the PDF is encrypted and opens only with a password, which is not known here: its text cannot be read';
      return { kind: 'end', error: { code: 'FETCH_UNSUPPORTED_TYPE', message } };
    }
    return { kind: 'end', error: { code: 'FETCH_FAILED', message: `the PDF could not be read: ${(error as Error).message ?? error}` } };
  }
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
