import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startService, type RunningService } from '../support/service.js';

/** A POST body the API cannot read is refused with a message that says what was sent and what is allowed. */
describe('request bodies the API does not read', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'silent', BODY_LIMIT_BYTES: '2048' });
  });
  afterAll(() => service.stop());

  const post = (headers: Record<string, string>, body: string | Uint8Array<ArrayBuffer>) => request(service.origin, '/v1/search/web', { method: 'POST', headers, body });

  it('refuses JSON sent as text/plain (fetch with a string body, no content-type) with 415 naming the content-type', async () => {
    const response = await post({ 'content-type': 'text/plain;charset=UTF-8' }, JSON.stringify({ q: 'fusion', providers: 'local' }));
    const body = await response.json();
    expect(response.status).toBe(415);
    expect(body).toMatchObject({ statusCode: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(body.message).toBe('content-type: "text/plain;charset=UTF-8" is not accepted; allowed: application/json, with a JSON object as the body');
  });

  it('says which content-type a form post sent and that JSON is allowed', async () => {
    const response = await post({ 'content-type': 'application/x-www-form-urlencoded' }, 'q=fusion');
    expect(response.status).toBe(415);
    expect((await response.json()).message).toBe('content-type: "application/x-www-form-urlencoded" is not accepted; allowed: application/json, with a JSON object as the body');
  });

  it('says how large a body may be when one is too large', async () => {
    const response = await post({ 'content-type': 'application/json' }, JSON.stringify({ q: 'x'.repeat(4096) }));
    const body = await response.json();
    expect(response.status).toBe(413);
    expect(body).toMatchObject({ statusCode: 413, code: 'BODY_TOO_LARGE' });
    expect(body.message).toBe('body: larger than 2048 bytes; allowed: at most 2048 bytes (BODY_LIMIT_BYTES)');
  });

  // Nothing decompresses a request body: gzip bytes were refused as "not valid JSON", and a body labelled br but sent plain was searched.
  it('refuses a compressed body with 415 naming the Content-Encoding, whether or not the bytes are compressed', async () => {
    const json = JSON.stringify({ q: 'fusion', providers: 'local' });
    const gzipped = await post({ 'content-type': 'application/json', 'content-encoding': 'gzip' }, new Uint8Array(gzipSync(json)));
    const gzippedBody = await gzipped.json();
    expect(gzipped.status).toBe(415);
    expect(gzippedBody).toMatchObject({ statusCode: 415, error: 'Unsupported Media Type', code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(gzippedBody.message).toBe('content-encoding: "gzip" is not accepted; allowed: an uncompressed body (no Content-Encoding, or identity)');
    expect(gzippedBody.request_id).toBe(gzipped.headers.get('x-request-id'));
    const mislabelled = await post({ 'content-type': 'application/json', 'content-encoding': 'br' }, json);
    expect(mislabelled.status).toBe(415);
    expect((await mislabelled.json()).code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('reads a body whose Content-Encoding is identity as it reads one without', async () => {
    const response = await post({ 'content-type': 'application/json', 'content-encoding': 'identity' }, JSON.stringify({ q: 'fusion', providers: 'local' }));
    expect(response.status).toBe(200);
    expect((await response.json()).query).toBe('fusion');
  });

  // JSON is UTF-8 (RFC 8259): a Latin-1 "café" arrived as "caf\uFFFD" and was searched for so.
  it('refuses a body that is not UTF-8 with 400, naming the charset it was sent with', async () => {
    const latin1 = Buffer.from('{"q":"caf\u00e9","providers":"local"}', 'latin1');
    expect(latin1.includes(0xe9)).toBe(true);
    const response = await post({ 'content-type': 'application/json; charset=latin1' }, new Uint8Array(latin1));
    const body = await response.json();
    expect(response.status).toBe(400);
    expect(body).toMatchObject({ statusCode: 400, code: 'QUERY_INVALID' });
    expect(body.message).toBe('body: not valid UTF-8 (it was sent as charset=latin1); allowed: JSON text in UTF-8, the only encoding JSON has (RFC 8259)');
  });

  it('reads the same text sent as UTF-8', async () => {
    const response = await post({ 'content-type': 'application/json' }, JSON.stringify({ q: 'café', providers: 'local' }));
    expect(response.status).toBe(200);
    expect((await response.json()).query).toBe('café');
  });

  // Fastify gives a request without a body a null body, which the schemas read as {}: a JSON null was taken for none.
  it('refuses a JSON null body as not an object, where no body at all is no parameters', async () => {
    const operations = (headers: Record<string, string>, body?: string) =>
      request(service.origin, '/v1/ops/list_operations', { method: 'POST', headers, body });
    const sentNull = await operations({ 'content-type': 'application/json' }, 'null');
    const body = await sentNull.json();
    expect(sentNull.status).toBe(400);
    expect(body).toMatchObject({ statusCode: 400, code: 'QUERY_INVALID' });
    expect(body.message).toBe('body: null is not an object; allowed: a JSON object ({} when no parameter is needed)');
    const search = await post({ 'content-type': 'application/json' }, 'null');
    expect(search.status).toBe(400);
    expect((await search.json()).message).toBe(body.message);
    const none = await operations({});
    expect(none.status).toBe(200);
    expect(Array.isArray((await none.json()).operations)).toBe(true);
  });
});
