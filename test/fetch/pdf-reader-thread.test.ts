import { describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { extractPdfText } from '../../src/fetch/extract-pdf.js';
import { minimalPdf, pdfOfObjects, slowContentStream } from './minimal-pdf.js';


/** A PDF whose pages show the given content streams, in order. */
function pdfOfPages(contents: string[]): Buffer {
  const pages = contents.map((_, index) => 4 + contents.length + index);
  return pdfOfObjects([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pages.map((number) => `${number} 0 R`).join(' ')}] /Count ${pages.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ...contents,
    ...contents.map((_, index) => `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${4 + index} 0 R >>`),
  ]);
}

const lightPage = (text: string): string => {
  const content = `BT /F1 14 Tf 72 720 Td (${text}) Tj ET`;
  return `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
};

describe('a PDF read on a reader thread', () => {
  const slow = slowContentStream();

  it('abandons a first page that alone outlasts the time, with FETCH_TIMEOUT, instead of reading on', async () => {
    const error = await extractPdfText(pdfOfPages([slow]), { maxChars: 1_000_000, timeMs: 0 }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(FedsearchError);
    expect((error as FedsearchError).code).toBe('FETCH_TIMEOUT');
    expect((error as FedsearchError).message).toBe("the PDF's first page was not read within 2000 ms (FETCH_TIMEOUT_MS and 2000 ms for one page)");
  });

  it('keeps the pages read before a page that outlasts the time, saying where reading stopped', async () => {
    const read = await extractPdfText(pdfOfPages([lightPage('the first page'), slow, lightPage('never reached')]), { maxChars: 1_000_000, timeMs: 3_000 });
    expect(read.text).toBe('the first page');
    expect(read.pages).toBe(3);
    // Between the pages when the first took longer than the time, else by stopping the thread in the second.
    expect(read.stopped).toMatch(/^after \d+ ms \(FETCH_TIMEOUT_MS[^)]*\), at page 1 of 3$/);
  });

  it('reads PDFs asked for at once, more than there are reader threads, each whole', async () => {
    const texts = Array.from({ length: 5 }, (_, index) => `document number ${index}`);
    const read = await Promise.all(texts.map((text) => extractPdfText(minimalPdf({ lines: [text], title: text }), { maxChars: 1_000_000, timeMs: 60_000 })));
    expect(read.map(({ text, title }) => [text, title])).toEqual(texts.map((text) => [text, text]));
  });
});
