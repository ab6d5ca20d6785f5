import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, startService, type RunningService } from '../support/service.js';
import { callTool, connect, textOf, type Connected } from './mcp-client.js';

const VIDEO = 'abcDEF12345';
const VIDEO_LINK = `https://www.youtube.com/watch?v=${VIDEO}`;
/** The line a failed MCP tool call ends with when its error asks for a wait. */
const WAIT_LINE = /\n\(PROVIDER_SUSPENDED; retry_after_ms: (\d+)\)/;

const withoutNumbers = (text: string) => text.replace(/\d+/g, 'N');

interface ResearchSections {
  sections: Array<{ operation: string; error?: string; code?: string; retry_after_ms?: number }>;
}

/**
 * A step of auto_research that fails asking for a wait (its provider suspended by its breaker) reads as its operation
 * alone reads over MCP: the message, then the machine-readable line with the code and retry_after_ms, which an agent
 * schedules its retry by. The captions provider fails once (HTTP 500) and one failure opens its breaker.
 */
describe('MCP auto_research: a failed step that asks for a wait', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let connected: Connected;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/youtube_web/watch', { error: 'backend down' }, 500);
    service = await startService({ ...providerEnv(upstream.origin), BREAKER_FAILURES: '1', BREAKER_COOLDOWN_MS: '60000', LOG_LEVEL: 'silent' });
    connected = await connect(service.origin, 'streamable');
    // The one failure that suspends youtube_web.
    expect((await callOperation(service, 'youtube_transcript', { video: VIDEO })).status).toBe(502);
  });
  afterAll(async () => {
    await connected.close();
    await service.stop();
    await upstream.stop();
  });

  it('gives the section the message and the (CODE; retry_after_ms: N) line the operation alone gives', async () => {
    const alone = await callTool(connected.client, 'research', { operation: 'youtube_transcript', params: { video: VIDEO } });
    expect(alone.isError).toBe(true);
    const message = textOf(alone).replace(WAIT_LINE, '');
    expect(message).toMatch(/^youtube_web is suspended after 1 consecutive failure/);
    expect(textOf(alone)).toMatch(WAIT_LINE);

    const research = await callTool(connected.client, 'research', { operation: 'auto_research', params: { query: VIDEO_LINK, depth: 1 } });
    const section = (research.structuredContent as unknown as ResearchSections).sections.find((candidate) => candidate.operation === 'youtube_transcript');
    expect(section).toMatchObject({ error: expect.any(String), code: 'PROVIDER_SUSPENDED', retry_after_ms: expect.any(Number) });
    // The same words, the wait apart: a second may pass between the two calls.
    expect(withoutNumbers(section!.error!)).toBe(withoutNumbers(message));
    expect(section!.retry_after_ms).toBeGreaterThan(0);
    expect(section!.retry_after_ms).toBeLessThanOrEqual(60_000);
    // The text says what the JSON does, in the words and the line of the tool call alone.
    expect(textOf(research)).toContain(`failed: ${section!.error}\n(PROVIDER_SUSPENDED; retry_after_ms: ${section!.retry_after_ms})`);
  });

  it('gives REST callers the same code and wait in the section', async () => {
    const response = await callOperation(service, 'auto_research', { query: VIDEO_LINK, depth: 1 });
    expect(response.status).toBe(200);
    const section = ((await response.json()) as ResearchSections).sections.find((candidate) => candidate.operation === 'youtube_transcript');
    expect(section).toMatchObject({ code: 'PROVIDER_SUSPENDED', retry_after_ms: expect.any(Number), error: expect.stringMatching(/^youtube_web is suspended/) });
  });
});
