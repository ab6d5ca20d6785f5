import type { Dispatcher } from 'undici';
import { FedsearchError } from '../domain/errors.js';

/** Drops a body we will not read; undici reports the resulting abort as an 'error' nobody else listens to. */
export function discardBody(response: Dispatcher.ResponseData): void {
  response.body.on('error', () => undefined);
  response.body.destroy();
}

export interface BodyErrors {
  /** The error for a body past the cap; reading stops there and the rest is dropped. */
  tooLarge(): FedsearchError;
  /** What a stream failure (reset, abort) becomes. */
  failed(error: unknown): unknown;
}

/** Reads a whole body, but never more than maxBytes of it: upstream answers and fetched pages alike. */
export async function readBodyCapped(response: Dispatcher.ResponseData, maxBytes: number, errors: BodyErrors): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body) {
      const buffer = chunk as Buffer;
      size += buffer.length;
      if (size > maxBytes) {
        discardBody(response);
        throw errors.tooLarge();
      }
      chunks.push(buffer);
    }
  } catch (error) {
    // Our own errors (the cap, a typed abort reason) pass through as they are.
    if (error instanceof FedsearchError) throw error;
    throw errors.failed(error);
  }
  // Most bodies arrive in one chunk: it is the body, no copy needed (undici's own body.text() does the same).
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}
