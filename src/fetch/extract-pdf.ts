import { FedsearchError } from '../domain/errors.js';

export interface PdfText {
  text: string;
  pages: number;
  title: string | undefined;
  author: string | undefined;
  /** ISO 8601, from the document's CreationDate. */
  created: string | undefined;
  /** Why reading stopped before the last page ("at 10,000 characters …"), when it did. */
  stopped?: string;
}

/**
 * How much of an untrusted PDF is read. Its size is capped when it is fetched, but not what it holds: a
 * compressed content stream, or one stream shared by thousands of pages, makes far more text than bytes, and
 * every page costs CPU however little it holds.
 */
export interface PdfReadingLimits {
  /** Characters of text at most (FETCH_MAX_BYTES: as many characters as the file may have bytes). */
  maxChars: number;
  /** Time for reading the pages (FETCH_TIMEOUT_MS): the first page is always read. */
  timeMs: number;
  /** The caller went away: reading stops between pages, rejecting with its reason. */
  signal?: AbortSignal;
}

/**
 * A PDF's text layer, page by page, with PDF.js (the legacy build, which runs on Node 20 with no browser
 * APIs and no binaries). Script evaluation is off: the document is untrusted. PDF.js is imported on first
 * use so that a service that never reads a PDF does not load it.
 */
export async function extractPdfText(body: Buffer, limits: PdfReadingLimits): Promise<PdfText> {
  const deadline = performance.now() + limits.timeMs;
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // PDF.js takes ownership of (and detaches) the array it is given, so it gets a copy, never the caller's Buffer.
  const task = pdfjs.getDocument({
    data: new Uint8Array(body),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
  });
  try {
    const document = await task.promise;
    const pages: string[] = [];
    let chars = 0;
    let stopped: string | undefined;
    for (let number = 1; number <= document.numPages; number += 1) {
      limits.signal?.throwIfAborted();
      if (number > 1 && performance.now() >= deadline) {
        stopped = `after ${limits.timeMs} ms (FETCH_TIMEOUT_MS), at page ${number - 1} of ${document.numPages}`;
        break;
      }
      if (chars >= limits.maxChars) {
        stopped = `at ${limits.maxChars} characters (FETCH_MAX_BYTES), at page ${number - 1} of ${document.numPages}`;
        break;
      }
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str + (item.hasEOL ? '\n' : '');
      }
      const pageText = text.replace(/[ \t]+\n/g, '\n').trim();
      pages.push(pageText);
      // With the blank line that joins pages: a close count, enough to stop on.
      chars += pageText.length + 2;
      page.cleanup();
    }
    const { info } = await document.getMetadata();
    const fields = (info ?? {}) as Record<string, unknown>;
    const created = typeof fields.CreationDate === 'string' ? pdfjs.PDFDateString.toDateObject(fields.CreationDate) : null;
    const text = pages.filter((page) => page !== '').join('\n\n');
    const result: PdfText = {
      text: text.length > limits.maxChars ? text.slice(0, limits.maxChars) : text,
      pages: document.numPages,
      title: stringField(fields.Title),
      author: stringField(fields.Author),
      created: created ? created.toISOString() : undefined,
    };
    // The last page read may run past the limit on its own.
    stopped ??= text.length > limits.maxChars ? `at ${limits.maxChars} characters (FETCH_MAX_BYTES)` : undefined;
    if (stopped) result.stopped = stopped;
    return result;
  } catch (error) {
    if (limits.signal?.aborted) throw limits.signal.reason;
    throw new FedsearchError('FETCH_FAILED', `the PDF could not be read: ${(error as Error).message ?? error}`, { cause: error });
  } finally {
    await task.destroy();
  }
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
