import { constants as zlibConstants, inflateSync } from 'node:zlib';
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
  refuseInflationBomb(body);
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

/** Decoded bytes all Flate and LZW streams of a PDF may come to: 16 times the file, and never less than 64 MiB. */
const MIN_INFLATE_BUDGET = 64 * 1024 * 1024;
const MAX_INFLATE_RATIO = 16;
/** A zlib header as PDF writers start a FlateDecode stream: CMF 0x78, then one of the usual FLG bytes. */
const ZLIB_HEADER = /^\x78[\x01\x5e\x9c\xda]/;
/** How far before `stream` its dictionary is looked at for /LZWDecode and /EarlyChange. */
const DICTIONARY_WINDOW = 512;

/**
 * Refuses a PDF whose Flate or LZW streams decode to more than the budget, before PDF.js sees it. PDF.js
 * decodes a content stream whole, in this process, with no limit of its own, and the time limit is only checked
 * between pages: a 1 MB file of compressed blanks became 2.5 GB of memory and half a minute of CPU, and LZW
 * (up to 4 KB per 12-bit code) does as much. Each `stream` is measured here: inflated by zlib with the budget
 * left as its output cap (so a bomb stops at the cap), to the end of the file rather than to the next
 * `endstream`, which compressed bytes may spell, and again while the result is another zlib stream (a
 * [/FlateDecode /FlateDecode] chain); or, when its dictionary names /LZWDecode, counted code by code.
 */
function refuseInflationBomb(body: Buffer): void {
  const budget = Math.max(MIN_INFLATE_BUDGET, body.length * MAX_INFLATE_RATIO);
  let spent = 0;
  for (let at = body.indexOf('stream'); at !== -1; at = body.indexOf('stream', at + 6)) {
    let start = at + 6;
    if (body[start] === 0x0d) start += 1;
    if (body[start] !== 0x0a) continue;
    let data: Buffer = body.subarray(start + 1);
    const dictionary = body.subarray(Math.max(0, at - DICTIONARY_WINDOW), at).toString('latin1');
    if (dictionary.includes('/LZWDecode')) {
      spent += lzwDecodedLength(data, /\/EarlyChange\s+0\b/.test(dictionary) ? 0 : 1, budget - spent);
      if (spent > budget) throw inflatesTooFar(budget);
      continue;
    }
    let decoded = 0;
    for (let depth = 0; depth < 4 && ZLIB_HEADER.test(data.subarray(0, 2).toString('latin1')); depth += 1) {
      try {
        data = inflateSync(data, { maxOutputLength: budget - spent + 1, finishFlush: zlibConstants.Z_SYNC_FLUSH });
      } catch (error) {
        if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') throw inflatesTooFar(budget);
        break;
      }
      if (spent + data.length > budget) throw inflatesTooFar(budget);
      decoded = data.length;
    }
    spent += decoded;
  }
}

/**
 * The length of what an LZWDecode stream decodes to, as PDF.js's LZWStream reads it (9 to 12-bit codes, 256
 * clears the table, 257 ends), counted without writing it out; the count stops once it passes `budget`.
 */
function lzwDecodedLength(data: Buffer, earlyChange: 0 | 1, budget: number): number {
  const lengths = new Uint16Array(4096);
  const bits = data.length * 8;
  let position = 0;
  let codeLength = 9;
  let nextCode = 258;
  let previousLength = 0;
  let total = 0;
  while (position + codeLength <= bits && total <= budget) {
    let code = 0;
    for (let bit = 0; bit < codeLength; bit += 1, position += 1) code = (code << 1) | ((data[position >> 3]! >> (7 - (position & 7))) & 1);
    if (code === 257) break;
    if (code === 256) {
      codeLength = 9;
      nextCode = 258;
      previousLength = 0;
      continue;
    }
    const length = code < 256 ? 1 : code < nextCode ? lengths[code]! : previousLength + 1;
    if (previousLength > 0) {
      if (nextCode < lengths.length) lengths[nextCode] = previousLength + 1;
      nextCode += 1;
      const next = nextCode + earlyChange;
      if ((next & (next - 1)) === 0) codeLength = Math.min(Math.log2(next) + 1, 12);
    }
    previousLength = length;
    total += length;
  }
  return total;
}

function inflatesTooFar(budget: number): FedsearchError {
  return new FedsearchError('FETCH_TOO_LARGE', `the PDF's compressed streams expand past ${budget} bytes, more than a document of its size holds; it is not read`);
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
