import { closedPort } from '../support/closed-port.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startService, type RunningService } from '../support/service.js';

describe('an unreachable upstream is named in what the caller sees', () => {
  let service: RunningService;
  let port: number;

  beforeAll(async () => {
    port = await closedPort();
    service = await startService({
      BRAVE_API_KEY: 'brave-key-123456',
      BRAVE_BASE_URL: `http://127.0.0.1:${port}/brave`,
      YOUTUBE_WEB_BASE_URL: 'http://www.youtube.invalid',
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(() => service.stop());

  it('youtube_transcript answers 502 saying YouTube could not be reached', async () => {
    const response = await request(service.origin, '/v1/ops/youtube_transcript', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ video: 'abcDEF12345' }),
    });
    expect(response.status).toBe(502);
    const body = await response.json();
    expect(body.code).toBe('PROVIDER_NETWORK');
    expect(body.message).toMatch(/^youtube_web \(www\.youtube\.invalid\): (host not found|DNS lookup failed)$/);
  });

  it("a search outcome names the provider's host, without its path or query", async () => {
    const body = await (await request(service.origin, '/v1/search/web?q=rust&providers=brave')).json();
    expect(body.providers[0]).toMatchObject({
      provider: 'brave',
      status: 'error',
      code: 'PROVIDER_NETWORK',
      message: `brave (127.0.0.1:${port}): connection refused`,
    });
  });
});
