import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { readBodyCapped, type BodyErrors } from '../../src/transport/read-body.js';

const errors: BodyErrors = {
  tooLarge: () => new FedsearchError('PROVIDER_PARSE', 'too large'),
  failed: (error) => error,
};

/** A response whose body is a real stream of these chunks. */
function responseOf(chunks: Buffer[]): Dispatcher.ResponseData {
  return { body: Readable.from(chunks, { objectMode: false }) } as unknown as Dispatcher.ResponseData;
}

describe('readBodyCapped', () => {
  it('hands back a body that came in one chunk as it is, without a copy', async () => {
    const chunk = Buffer.from('{"results": []}');
    expect(await readBodyCapped(responseOf([chunk]), 1024, errors)).toBe(chunk);
  });

  it('joins a body that came in several chunks', async () => {
    const body = await readBodyCapped(responseOf([Buffer.from('{"res'), Buffer.from('ults": '), Buffer.from('[]}')]), 1024, errors);
    expect(body.toString()).toBe('{"results": []}');
  });

  it('stops at the cap', async () => {
    const reading = readBodyCapped(responseOf([Buffer.alloc(600), Buffer.alloc(600)]), 1024, errors);
    await expect(reading).rejects.toThrow('too large');
  });
});
