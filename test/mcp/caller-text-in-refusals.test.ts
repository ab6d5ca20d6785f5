import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../support/service.js';
import { callTool, connect, LIST_TOOLS_MESSAGE, MCP_POST_HEADERS, textOf, type Connected } from './mcp-client.js';

/** Text a caller chose, far longer than a message should repeat, within Node's 16 KiB of headers and the body limit. */
const LONG = 'x'.repeat(8_000);
/** What a refusal may show of it: the first hundred characters, then `…` (domain/shown-value.ts). */
const SHOWN = `${'x'.repeat(100)}…`;

/** The message of a JSON-RPC error the MCP routes answer themselves. */
async function refusalMessage(origin: string, path: string, init: RequestInit): Promise<{ status: number; message: string }> {
  const response = await fetch(new URL(path, origin), init);
  const body = (await response.json()) as { error: { message: string } };
  return { status: response.status, message: body.error.message };
}

/**
 * A refusal names what the caller sent, cut short: the text is the caller's, as long as a header or the body limit
 * allows, and each refusal would send it back whole (REST cuts the values it names the same way).
 */
describe('MCP refusals name caller-chosen text cut short', () => {
  let service: RunningService;
  let connected: Connected;

  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'silent' });
    connected = await connect(service.origin, 'streamable');
  });
  afterAll(async () => {
    await connected.close();
    await service.stop();
  });

  it('cuts an unknown Streamable HTTP session id and an unknown SSE session id', async () => {
    const streamable = await refusalMessage(service.origin, '/mcp', {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, 'mcp-session-id': LONG },
      body: LIST_TOOLS_MESSAGE,
    });
    expect(streamable.status).toBe(404);
    expect(streamable.message).toBe(`Session not found: "${SHOWN}" is unknown or has ended; send a new initialize request`);

    const sse = await refusalMessage(service.origin, `/messages?sessionId=${LONG}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: LIST_TOOLS_MESSAGE,
    });
    expect(sse.status).toBe(404);
    expect(sse.message).toBe(`Session not found: no open SSE session "${SHOWN}"; open a new one with GET /sse`);
  });

  it('cuts an origin it refuses', async () => {
    const refused = await refusalMessage(service.origin, '/mcp', {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, origin: `https://${'x'.repeat(200)}.example` },
      body: LIST_TOOLS_MESSAGE,
    });
    expect(refused.status).toBe(403);
    expect(refused.message).toContain(`origin "https://${'x'.repeat(92)}…" is not allowed`);
  });

  it("cuts an unknown tool's name, an unknown operation's and the fields put beside params, naming ten of them", async () => {
    const tool = await callTool(connected.client, LONG, {});
    expect(tool.isError).toBe(true);
    expect(textOf(tool)).toMatch(new RegExp(`^unknown tool "${SHOWN}"; tools: `));

    const operation = await callTool(connected.client, 'research', { operation: LONG });
    expect(operation.isError).toBe(true);
    expect(textOf(operation)).toContain(`unknown operation "${'x'.repeat(99)}…; operations:`);

    const beside = Object.fromEntries(Array.from({ length: 25 }, (_, index) => [`${LONG}${index}`, 1]));
    const stray = await callTool(connected.client, 'research', { operation: 'web_search', ...beside });
    expect(stray.isError).toBe(true);
    expect(textOf(stray)).toContain(`${Array.from({ length: 10 }, () => SHOWN).join(', ')} and 15 more are not a field of research`);
    expect(textOf(stray).length).toBeLessThan(5_000);
  });
});
