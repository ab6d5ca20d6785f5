import { FedsearchError } from '../domain/errors.js';

export interface PdfText {
  text: string;
  pages: number;
  title: string | undefined;
  author: string | undefined;
  /** ISO 8601, from the document's CreationDate. */
  created: string | undefined;
}

/**
 * A PDF's text layer, page by page, with PDF.js (the legacy build, which runs on Node 20 with no browser
 * APIs and no binaries). Script evaluation is off: the document is untrusted. PDF.js is imported on first
 * use so that a service that never reads a PDF does not load it.
 */
export async function extractPdfText(body: Buffer): Promise<PdfText> {
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
    for (let number = 1; number <= document.numPages; number += 1) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str + (item.hasEOL ? '\n' : '');
      }
      pages.push(text.replace(/[ \t]+\n/g, '\n').trim());
      page.cleanup();
    }
    const { info } = await document.getMetadata();
    const fields = (info ?? {}) as Record<string, unknown>;
    const created = typeof fields.CreationDate === 'string' ? pdfjs.PDFDateString.toDateObject(fields.CreationDate) : null;
    return {
      text: pages.filter((page) => page !== '').join('\n\n'),
      pages: document.numPages,
      title: stringField(fields.Title),
      author: stringField(fields.Author),
      created: created ? created.toISOString() : undefined,
    };
  } catch (error) {
    throw new FedsearchError('FETCH_FAILED', `the PDF could not be read: ${(error as Error).message ?? error}`, { cause: error });
  } finally {
    await task.destroy();
  }
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
