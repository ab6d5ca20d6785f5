import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startService, type RunningService } from '../support/service.js';

/** A POST body the API cannot read is refused with a message that says what was sent and what is allowed. */
describe('request bodies the API does not read', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'silent', BODY_LIMIT_BYTES: '2048' });
  });
  afterAll(() => service.stop());

  const post = (headers: Record<string, string>, body: string) => request(service.origin, '/v1/search/web', { method: 'POST', headers, body });

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
});
