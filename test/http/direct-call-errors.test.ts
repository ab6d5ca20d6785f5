import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connect } from '../mcp/mcp-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, startService, type RunningService } from '../support/service.js';

/**
 * What the caller of a direct operation reads when the one provider it needs fails. A search lists each provider's
 * outcome under its name; here the message is all there is, so it names the provider, then says what the upstream's
 * status means: its own failure (retry later) or a request it refused as invalid.
 */
describe('the error of a direct operation whose provider failed', () => {
  const KEY = 'test-key-youtube-direct-0001';
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    // MCP_TOOLS=split: each operation is a tool of its own name, as REST has a route of its own.
    service = await startService({ ...providerEnv(upstream.origin), YOUTUBE_API_KEY: KEY, CACHE_TTL_SECONDS: '0', MCP_TOOLS: 'split' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it("youtube_video_details on YouTube's 503 backendError names youtube and says to retry later", async () => {
    const unavailable = 'The service is currently unavailable.';
    upstream.json('/youtube/youtube/v3/videos', { error: { code: 503, message: unavailable, errors: [{ message: unavailable, domain: 'global', reason: 'backendError' }] } }, 503);
    const response = await callOperation(service, 'youtube_video_details', { ids: ['abcDEF12345'] });
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({
      code: 'PROVIDER_HTTP',
      message: `youtube: HTTP 503: the provider is failing on its side: backendError: ${unavailable}; retry later`,
    });
  });

  it('youtube_video_details on a 400 for a bad parameter says the request was refused as invalid, with the reason and without the key it quotes', async () => {
    // Google's error quotes the request it refused, key and all.
    const quoted = `Invalid value at 'id': /youtube/v3/videos?part=snippet&id=abcDEF12345&key=${KEY}`;
    upstream.json('/youtube/youtube/v3/videos', { error: { code: 400, message: quoted, errors: [{ message: quoted, domain: 'global', reason: 'invalidParameter' }] } }, 400);
    const response = await callOperation(service, 'youtube_video_details', { ids: ['abcDEF12345'] });
    expect(response.status).toBe(502);
    const body = await response.json();
    expect(body).toMatchObject({
      code: 'PROVIDER_HTTP',
      message: "youtube: HTTP 400: the provider refused the request as invalid: invalidParameter: Invalid value at 'id': /youtube/v3/videos?part=snippet&id=abcDEF12345&key=[redacted]",
    });
    for (const text of [JSON.stringify(body), ...service.logs]) expect(text).not.toContain(KEY);
  });

  it('youtube_transcript on an HTML 500 names youtube_web and says to retry later', async () => {
    upstream.on('/youtube_web/watch', { kind: 'respond', status: 500, headers: { 'content-type': 'text/html' }, body: '<html><body>Internal error</body></html>' });
    const response = await callOperation(service, 'youtube_transcript', { video: 'abcDEF12345' });
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({
      code: 'PROVIDER_HTTP',
      message: 'youtube_web: HTTP 500: the provider is failing on its side (HTML error page); retry later',
    });
  });

  it('says the same to an MCP client', async () => {
    upstream.on('/youtube_web/watch', { kind: 'respond', status: 500, headers: { 'content-type': 'text/html' }, body: '<html><body>Internal error</body></html>' });
    const { client, close } = await connect(service.origin, 'streamable');
    try {
      const result = await callTool(client, 'youtube_transcript', { video: 'abcDEF12345' });
      expect(result.isError).toBe(true);
      expect(result.content).toEqual([{ type: 'text', text: 'youtube_web: HTTP 500: the provider is failing on its side (HTML error page); retry later' }]);
    } finally {
      await close();
    }
  });
});
