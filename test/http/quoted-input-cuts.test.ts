import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connect, textOf, type Connected } from '../mcp/mcp-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, startService, type RunningService } from '../support/service.js';

/** No high surrogate without its low one after it, and no low one without its high one before it. */
function isWellFormed(value: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value);
}

/** 99 letters, then an emoji across the 100th and 101st UTF-16 units, where a message's quote of it is cut. */
const EMOJI_AT_THE_CUT = `${'a'.repeat(99)}😀${'b'.repeat(20)}`;

/**
 * A message quotes at most 100 characters of a caller's value. Cut by UTF-16 units, an emoji across the cut left its
 * first half: a lone surrogate in an MCP tool's text (invalid Unicode some clients refuse), or `\ud83d` in a quote.
 */
describe('a message quoting a long value cuts it between whole characters', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let connected: Connected;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    service = await startService({ ...providerEnv(upstream.origin), YOUTUBE_API_KEY: 'youtube-test-key-1', MCP_TOOLS: 'split', LOG_LEVEL: 'silent' });
    connected = await connect(service.origin, 'streamable');
  });
  afterAll(async () => {
    await connected.close();
    await service.stop();
    await upstream.stop();
  });

  it.each([
    ['paper_details', { id: EMOJI_AT_THE_CUT }, 'id: "'],
    ['youtube_video_details', { ids: [EMOJI_AT_THE_CUT] }, 'ids.0: "'],
  ])('%s quotes the start of the value and no half of the emoji, over REST and MCP', async (operation, params, start) => {
    const rest = await callOperation(service, operation, params);
    expect(rest.status).toBe(400);
    const { code, message } = (await rest.json()) as { code: string; message: string };
    expect(code).toBe('QUERY_INVALID');
    const tool = await callTool(connected.client, operation, params);
    expect(tool.isError).toBe(true);
    for (const text of [message, textOf(tool)]) {
      expect(text.startsWith(`${start}${'a'.repeat(99)}`), text).toBe(true);
      expect(isWellFormed(text), text).toBe(true);
      expect(text).not.toContain('\\ud83d');
      expect(text).not.toContain('b'.repeat(20));
    }
    expect(upstream.requests).toEqual([]);
  });
});
