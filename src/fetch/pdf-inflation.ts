import { constants as zlibConstants, inflateSync } from 'node:zlib';
import { FedsearchError } from '../domain/errors.js';

/** Decoded bytes all Flate and LZW streams of a PDF may come to: 16 times the file, and never less than 64 MiB. */
const MIN_INFLATE_BUDGET = 64 * 1024 * 1024;
const MAX_INFLATE_RATIO = 16;
/** A zlib header as PDF writers start a FlateDecode stream: CMF 0x78, then one of the usual FLG bytes. */
const ZLIB_HEADER = /^\x78[\x01\x5e\x9c\xda]/;
/** How far before `stream` its dictionary is looked at for /LZWDecode and /EarlyChange. */
const DICTIONARY_WINDOW = 512;

/**
 * Refuses a PDF whose Flate or LZW streams decode to more than the budget, before PDF.js sees it. PDF.js
 * decodes a content stream whole, with no limit of its own, and the time limit is only checked between pages:
 * a 1 MB file of compressed blanks became 2.5 GB of memory and half a minute of CPU, and LZW
 * (up to 4 KB per 12-bit code) does as much. Each `stream` is measured here: inflated by zlib with the budget
 * left as its output cap (so a bomb stops at the cap), to the end of the file rather than to the next
 * `endstream`, which compressed bytes may spell, and again while the result is another zlib stream (a
 * [/FlateDecode /FlateDecode] chain); or, when its dictionary names /LZWDecode, counted code by code.
 */
export function refuseInflationBomb(body: Buffer): void {
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
