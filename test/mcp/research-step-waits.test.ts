import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, startService, type RunningService } from '../support/service.js';
import { callTool, connect, textOf, type Connected } from './mcp-client.js';

const DOI = '10.5555/waits.for.9';
const QUESTION = `what does ${DOI} say`;
/** The line a failed MCP tool call ends with when its error asks for a wait. */
const WAIT_LINE = /\n\(PROVIDER_SUSPENDED; retry_after_ms: (\d+)\)/;

const withoutNumbers = (text: string) => text.replace(/\d+/g, 'N');

interface ResearchSections {
  sections: Array<{ operation: string; error?: string; code?: string; retry_after_ms?: number }>;
}

/**
 * A step of auto_research that fails asking for a wait (its providers suspended by their breakers) reads as its
 * operation alone reads over MCP: the message, then the machine-readable line with the code and retry_after_ms, which
 * an agent schedules its retry by. Every paper provider fails once (HTTP 500) and one failure opens each breaker. (A
 * step of one provider, such as youtube_transcript, is not planned while that provider is suspended: its slot goes to
 * the next step, test/operations/auto-research-suspended.test.ts; paper_details asks several, and fails when all are.)
 */
describe('MCP auto_research: a failed step that asks for a wait', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let connected: Connected;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('*', { error: 'backend down' }, 500);
    service = await startService({ ...providerEnv(upstream.origin), BREAKER_FAILURES: '1', BREAKER_COOLDOWN_MS: '60000', LOG_LEVEL: 'silent' });
    connected = await connect(service.origin, 'streamable');
    // The one failure that suspends every provider that looks a DOI up.
    expect((await callOperation(service, 'paper_details', { id: DOI })).status).toBe(502);
  });
  afterAll(async () => {
    await connected.close();
    await service.stop();
    await upstream.stop();
  });

  it('gives the section the message and the (CODE; retry_after_ms: N) line the operation alone gives', async () => {
    const alone = await callTool(connected.client, 'research', { operation: 'paper_details', params: { id: DOI } });
    expect(alone.isError).toBe(true);
    const message = textOf(alone).replace(WAIT_LINE, '');
    expect(message).toMatch(/^no paper provider can look up doi 10\.5555\/waits\.for\.9 now \(.*suspended/);
    expect(textOf(alone)).toMatch(WAIT_LINE);

    const research = await callTool(connected.client, 'research', { operation: 'auto_research', params: { query: QUESTION, depth: 1 } });
    const section = (research.structuredContent as unknown as ResearchSections).sections.find((candidate) => candidate.operation === 'paper_details');
    expect(section).toMatchObject({ error: expect.any(String), code: 'PROVIDER_SUSPENDED', retry_after_ms: expect.any(Number) });
    // The same words, the wait apart: a second may pass between the two calls.
    expect(withoutNumbers(section!.error!)).toBe(withoutNumbers(message));
    expect(section!.retry_after_ms).toBeGreaterThan(0);
    expect(section!.retry_after_ms).toBeLessThanOrEqual(60_000);
    // The text says what the JSON does, in the words and the line of the tool call alone.
    expect(textOf(research)).toContain(`failed: ${section!.error}\n(PROVIDER_SUSPENDED; retry_after_ms: ${section!.retry_after_ms})`);
  });

  it('gives REST callers the same code and wait in the section', async () => {
    const response = await callOperation(service, 'auto_research', { query: QUESTION, depth: 1 });
    expect(response.status).toBe(200);
    const section = ((await response.json()) as ResearchSections).sections.find((candidate) => candidate.operation === 'paper_details');
    expect(section).toMatchObject({ code: 'PROVIDER_SUSPENDED', retry_after_ms: expect.any(Number), error: expect.stringMatching(/^no paper provider can look up doi/) });
  });
});
