import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopbackSite } from './loopback-site.js';
import { pdfOfObjects } from './minimal-pdf.js';
import { callOperation, startService, type RunningService } from '../support/service.js';

/**
 * A one-page PDF whose content stream is `spaces` blanks and one line of text, Flate-compressed: about a
 * thousandth of its decoded size on the wire, so it passes FETCH_MAX_BYTES with ease.
 */
function flateBombPdf(spaces: number): Buffer {
  const raw = Buffer.alloc(spaces + 40, 0x20);
  raw.write('BT /F1 14 Tf 72 720 Td (hi) Tj ET', spaces);
  return pdfWithContents(deflateSync(raw, { level: 9 }), '/FlateDecode');
}

/**
 * An LZWDecode content stream of blanks written as PDF.js's LZWStream reads codes (EarlyChange 1): each code one
 * blank longer than the last until the table is full, then the longest (3,839 blanks in 12 bits) `repeats` times.
 */
function lzwBombPdf(repeats: number): Buffer {
  const codes = [32, ...Array.from({ length: 4096 - 258 }, (_, index) => 258 + index), ...Array.from({ length: repeats }, () => 4095), 257];
  const bits: number[] = [];
  let nextCode = 258;
  let codeLength = 9;
  codes.forEach((code, index) => {
    for (let bit = codeLength - 1; bit >= 0; bit -= 1) bits.push((code >> bit) & 1);
    if (index === 0 || code === 257) return;
    nextCode += 1;
    if (((nextCode + 1) & nextCode) === 0) codeLength = Math.min(Math.log2(nextCode + 1) + 1, 12);
  });
  const packed = Buffer.alloc(Math.ceil(bits.length / 8));
  bits.forEach((bit, index) => {
    if (bit) packed[index >> 3]! |= 0x80 >> (index & 7);
  });
  return pdfWithContents(packed, '/LZWDecode');
}

function pdfWithContents(stream: Buffer, filter: string): Buffer {
  const packed = stream.toString('latin1');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [5 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${packed.length} /Filter ${filter} >>\nstream\n${packed}\nendstream`,
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>',
  ];
  return pdfOfObjects(objects);
}

describe('a PDF whose Flate or LZW streams expand far past the fetch limits', () => {
  let site: LoopbackSite;
  let service: RunningService;
  const bomb = flateBombPdf(200 * 1024 * 1024);

  beforeAll(async () => {
    site = await new LoopbackSite().serve('/bomb.pdf', 'application/pdf', bomb).serve('/small.pdf', 'application/pdf', flateBombPdf(10_000)).start();
    service = await startService({ FETCH_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await site.stop();
  });

  it('is refused before it is decoded, not inflated into hundreds of megabytes on the event loop', async () => {
    expect(bomb.length).toBeLessThan(300_000);
    const response = await callOperation(service, 'fetch_url', { url: `${site.origin}/bomb.pdf` });
    const body = await response.json();
    expect(response.status).toBe(413);
    expect(body.code).toBe('FETCH_TOO_LARGE');
    // The inflation budget's own refusal (pdf-inflation.ts), given before any stream is decoded; a bomb decoded
    // first would be refused, if at all, by the reader thread's heap limit, with another message.
    expect(body.message).toMatch(/expand/);
  });

  it('is refused for LZW as for Flate', async () => {
    site.serve('/lzw.pdf', 'application/pdf', lzwBombPdf(100_000));
    const response = await callOperation(service, 'fetch_url', { url: `${site.origin}/lzw.pdf` });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 'FETCH_TOO_LARGE', message: expect.stringMatching(/expand/) });
  });

  it('still reads a compressed PDF of ordinary proportions', async () => {
    const response = await callOperation(service, 'fetch_url', { url: `${site.origin}/small.pdf` });
    expect(response.status).toBe(200);
    expect((await response.json()).text).toContain('hi');
  });
});
