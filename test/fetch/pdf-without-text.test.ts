import { describe, expect, it } from 'vitest';
import { extractDocument } from '../../src/fetch/extract.js';
import { minimalPdf } from './minimal-pdf.js';

/** A scanned paper is pages of images: PDF.js finds no text on them, and that is not an empty document. */
describe('a PDF without a text layer', () => {
  it('says that it has no text, instead of answering with empty text', async () => {
    const body = minimalPdf({ lines: [], title: 'A Scanned Paper', pages: 3 });
    const extracted = await extractDocument({ finalUrl: 'https://example.org/scan.pdf', contentType: 'application/pdf', kind: 'pdf', body });
    expect(extracted.title).toBe('A Scanned Paper');
    expect(extracted.markdown).toBe('[No text was found in the 3 pages of this PDF: it has no text layer (a scan, or pages of images) and would need OCR.]');
  });

  it('keeps the text of a PDF that has some', async () => {
    const body = minimalPdf({ lines: ['Some text'], pages: 2 });
    const extracted = await extractDocument({ finalUrl: 'https://example.org/text.pdf', contentType: 'application/pdf', kind: 'pdf', body });
    expect(extracted.markdown).toBe('Some text\n\nSome text');
  });
});
