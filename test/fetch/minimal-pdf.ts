import { deflateSync } from 'node:zlib';
/**
 * A PDF with real text objects and an Info dictionary, written by hand with a correct xref table, so PDF tests
 * need no fixture file and no PDF writer. Its `pages` (one unless given) all show the same content stream, as a
 * hostile file may: a few kilobytes that read as megabytes of text.
 */
export function minimalPdf(options: { lines: string[]; title?: string; author?: string; created?: string; pages?: number }): Buffer {
  const pageCount = options.pages ?? 1;
  const escape = (text: string): string => text.replace(/[\\()]/g, (character) => `\\${character}`);
  const content = `BT /F1 14 Tf 72 720 Td 20 TL ${options.lines.map((line) => `(${escape(line)}) Tj T*`).join(' ')} ET`;
  const info = [
    options.title ? `/Title (${escape(options.title)})` : '',
    options.author ? `/Author (${escape(options.author)})` : '',
    options.created ? `/CreationDate (${options.created})` : '',
  ].join(' ');
  // Objects 1–5, then one per page from 6: the pages share the font (3) and the content stream (4).
  const pageNumbers = Array.from({ length: pageCount }, (_, index) => index + 6);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pageNumbers.map((number) => `${number} 0 R`).join(' ')}] /Count ${pageCount} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    `<< ${info} >>`,
    ...pageNumbers.map(() => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>'),
  ];
  return pdfOfObjects(objects, '/Info 5 0 R');
}

/**
 * A PDF file of the given objects (numbered from 1; object 1 the catalog), with a correct xref table and a
 * trailer that may name more (`/Info 5 0 R`). The objects are latin1 text, so a binary stream survives.
 */
export function pdfOfObjects(objects: readonly string[], trailerExtra = ''): Buffer {
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(pdf.length);
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  const entries = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${trailerExtra ? ` ${trailerExtra}` : ''} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/**
 * 60 MiB of `(a) Tj` operators, Flate-compressed to about 90 KB: under the inflation budget (64 MiB), so it is
 * read, and PDF.js then spends about ten seconds of CPU on the one page that shows it.
 */
export function slowContentStream(): string {
  const operator = Buffer.from('(a) Tj\n', 'latin1');
  const raw = Buffer.alloc(60 * 1024 * 1024, 0x20);
  for (let at = 0; at + operator.length <= raw.length; at += operator.length) operator.copy(raw, at);
  const packed = deflateSync(raw, { level: 6 }).toString('latin1');
  return `<< /Length ${packed.length} /Filter /FlateDecode >>\nstream\n${packed}\nendstream`;
}

/** A one-page PDF of slowContentStream(): it keeps a reader thread busy until the thread is stopped. */
export function slowPdf(): Buffer {
  return pdfOfObjects([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [5 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    slowContentStream(),
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>',
  ]);
}

/**
 * A PDF under the standard security handler (RC4, revision 2) whose user password is not empty: its /U entry
 * matches no empty password, so no reader opens it without being given one.
 */
export function passwordProtectedPdf(): Buffer {
  return pdfOfObjects(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
      `<< /Filter /Standard /V 1 /R 2 /O <${'ab'.repeat(32)}> /U <${'cd'.repeat(32)}> /P -4 >>`,
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
    ],
    `/Encrypt 3 0 R /ID [<${'ef'.repeat(16)}> <${'ef'.repeat(16)}>]`,
  );
}
