import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, startService, type RunningService } from '../support/service.js';
import { prefixesOf } from '../support/secret-prefixes.js';

// A plainly fake key whose every start (4+ characters) is rare enough to be found only where the key leaked.
const YOUTUBE_KEY = 'qzx-fake-key-0123456789abcdefghij';

/**
 * An answer that is not JSON, echoing the request's URL (a proxy's or gateway's text page sent with 200): V8's
 * SyntaxError quotes ten characters of the body around the fault, which may be the start of the key, and a failed
 * capability call is logged with its cause. Whole-key redaction cannot find a key's first ten characters.
 */
describe('a JSON body that does not parse', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/youtube/youtube/v3/videos', {
      kind: 'handler',
      handle: (request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' }).end(`key=${request.url.searchParams.get('key')} is not a valid key`);
      },
    });
    service = await startService({ ...providerEnv(upstream.origin), YOUTUBE_API_KEY: YOUTUBE_KEY, CACHE_TTL_SECONDS: '0' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('is logged with its cause, and no log line holds any part of the key', async () => {
    const response = await callOperation(service, 'youtube_video_details', { ids: ['abcDEF12345'] });
    expect(response.status).toBe(502);
    const body = await response.json();
    expect(body.code).toBe('PROVIDER_PARSE');
    const logged = service.logs
      .map((line) => JSON.parse(line) as { reqId?: string; msg?: string; err?: { stack?: string } })
      .filter((line) => line.reqId === body.request_id && line.msg === 'request failed');
    expect(logged).toHaveLength(1);
    // The parser's own error is still in the chain (what failed, and that it was JSON), without the body's text.
    expect(logged[0]!.err?.stack).toContain('caused by: SyntaxError: Unexpected token');
    for (const line of service.logs) {
      for (const prefix of prefixesOf(YOUTUBE_KEY)) expect(line).not.toContain(prefix);
    }
  });
});
