import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync, type ZlibOptions } from 'node:zlib';

/**
 * Undoes a response's Content-Encoding. A request that names no Accept-Encoding leaves the coding to the server
 * (RFC 9110 §12.5.3), and a proxy that compresses everything (nginx's `gzip_proxied any`, a CDN) does send gzip or
 * br; undici's dispatcher, unlike fetch, hands the bytes over as they came. The decoded body is held to the same
 * cap as the raw one: a small compressed body may decode to a great deal more.
 */

export interface DecodeErrors {
  /** The decoded body passed the cap. */
  tooLarge(): Error;
  /** The body does not decode as `coding`, or `coding` is not one we know. */
  undecodable(coding: string): Error;
  /** The body names `count` codings, more than MAX_CODINGS. */
  tooManyCodings(count: number): Error;
}

/**
 * Codings undone at most. A server compresses once, and a proxy in front of it at most once more; the cap on each
 * decoded body does not bound a stack of them: an upstream that named gzip 300 times over 6 MB of stored (not
 * compressed) data held the event loop 3.4 s, each layer decoded in full, and its 16 KB of headers had room for ten
 * times that.
 */
export const MAX_CODINGS = 2;

type Decoder = (body: Buffer, options: ZlibOptions) => Buffer;

/** `deflate` is zlib-wrapped by the standard, raw in some servers: the first byte tells them apart (zlib's CMF is 0x?8). */
const inflate: Decoder = (body, options) => ((body[0]! & 0x0f) === 0x08 ? inflateSync(body, options) : inflateRawSync(body, options));

const DECODERS: Readonly<Record<string, Decoder>> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflate,
  br: brotliDecompressSync,
};

/** `body` with every coding in `contentEncoding` undone, last applied first; as it is when there is none. */
export function decodedBody(body: Buffer, contentEncoding: string | undefined, maxBytes: number, errors: DecodeErrors): Buffer {
  if (contentEncoding === undefined || body.length === 0) return body;
  const codings = contentEncoding
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length > MAX_CODINGS) throw errors.tooManyCodings(codings.length);
  let decoded = body;
  for (const coding of codings.reverse()) {
    const decode = DECODERS[coding];
    if (!decode) throw errors.undecodable(coding);
    try {
      decoded = decode(decoded, { maxOutputLength: maxBytes });
    } catch (error) {
      throw (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? errors.tooLarge() : errors.undecodable(coding);
    }
  }
  return decoded;
}
