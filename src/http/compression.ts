import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { constants } from 'node:zlib';

/** Below this many bytes an answer goes as it is: the coding's own overhead would eat most of the saving. */
const SMALLEST_COMPRESSED_BYTES = 1024;

/**
 * What is compressed: JSON (answers, errors, the OpenAPI document), Markdown and other text, the page's HTML, CSS
 * and scripts. Never an event stream (`/v1/search/{kind}/stream` sends each event as it happens, and a coder
 * would hold them back; it also says `no-transform`), nor a PDF (already compressed inside).
 */
const COMPRESSIBLE_TYPES = /^(?:application\/(?:[\w.+-]+\+)?json|application\/javascript|text\/(?!event-stream)[\w.+-]+|image\/svg\+xml)(?:;|$)/i;

/**
 * Answers are compressed for clients that accept it (RFC 9110 §12.5.3): a page of results shrinks five to six
 * times, and CapRover's nginx, which most deployments sit behind, leaves compression off. gzip (level 6) is chosen
 * when the client takes both: on a 3.4 KB search answer it cost 35 µs for 593 bytes, brotli (quality 4, the level
 * made for answers written on the fly) 51 µs for 547. Brotli goes to clients that take only it. A proxy that
 * compresses on its own needs none of this: `COMPRESS_RESPONSES=false` leaves the service's CPU to searching.
 *
 * Requests are not decompressed here: a compressed request body is refused with 415 (http/body-encoding.ts).
 * MCP's transports write their answers themselves, past these hooks, as every streamed event must go at once.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    globalDecompression: false,
    encodings: ['gzip', 'br'],
    threshold: SMALLEST_COMPRESSED_BYTES,
    customTypes: COMPRESSIBLE_TYPES,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } },
  });
}
