import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, startService, type RunningService } from '../support/service.js';
import { callTool, connect, textOf, type Connected } from './mcp-client.js';

const NOT_A_VIDEO = 'is not a YouTube video; allowed: a video id of 11 characters (dQw4w9WgXcQ) or a link to one video (watch, youtu.be, shorts, embed, live)';

/** A wrong video is named by its field, as any invalid parameter is: among 50 ids, the model learns which one. */
describe('video ids that are not videos', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let connected: Connected;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    service = await startService({ ...providerEnv(upstream.origin), YOUTUBE_API_KEY: 'youtube-test-key-1', MCP_TOOLS: 'split', LOG_LEVEL: 'warn' });
    connected = await connect(service.origin, 'streamable');
  });
  afterAll(async () => {
    await connected.close();
    await service.stop();
    await upstream.stop();
  });

  it('names the field of the wrong one, over MCP and REST alike, before any provider is asked', async () => {
    const cases = [
      { operation: 'youtube_transcript', params: { video: 'abc' }, message: `video: "abc" ${NOT_A_VIDEO}` },
      {
        operation: 'youtube_video_details',
        params: { ids: ['dQw4w9WgXcQ', 'https://www.youtube.com/@SomeChannel'] },
        message: `ids.1: "https://www.youtube.com/@SomeChannel" ${NOT_A_VIDEO}`,
      },
    ];
    for (const { operation, params, message } of cases) {
      const tool = await callTool(connected.client, operation, params);
      expect(tool.isError).toBe(true);
      expect(textOf(tool).split('\n')[0]).toBe(message);
      const rest = await callOperation(service, operation, params);
      expect(rest.status).toBe(400);
      expect(await rest.json()).toMatchObject({ code: 'QUERY_INVALID', message, details: [{ field: message.slice(0, message.indexOf(':')) }] });
    }
    expect(upstream.requests).toEqual([]);
  });
});
