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
}

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
