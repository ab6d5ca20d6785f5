import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../support/service.js';
import { connect, streamableSessionId } from '../mcp/mcp-client.js';

/** The lines that quote `text`. */
function linesWith(service: RunningService, text: string): string[] {
  return service.logs.filter((line) => line.includes(text));
}

describe('MCP session ids stay out of the logs', () => {
  let service: RunningService;
  beforeAll(async () => {
    // No API keys: the session id is all a client needs to use a session, as a key is elsewhere.
    service = await startService({ LOG_LEVEL: 'debug' });
  });
  afterAll(() => service.stop());

  it('logs a Streamable HTTP session under a tag that is not its id, from open to close', async () => {
    const connected = await connect(service.origin, 'streamable');
    const sessionId = streamableSessionId(connected)!;
    await connected.client.listTools();
    await connected.leave();
    await expect.poll(() => service.logs.some((line) => line.includes('MCP Streamable HTTP session closed'))).toBe(true);

    expect(linesWith(service, sessionId)).toEqual([]);
    const opened = service.logs.map((line) => JSON.parse(line) as { msg?: string; mcpSession?: string }).find((line) => line.msg === 'MCP Streamable HTTP session opened');
    expect(opened?.mcpSession).toMatch(/^[0-9a-f]{12}$/);
  });

  it('logs an SSE session under a tag that is not its id', async () => {
    const controller = new AbortController();
    const stream = await fetch(`${service.origin}/sse`, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = '';
    while (!received.includes('\n\n')) received += (await reader.read()).value ?? '';
    const sessionId = /sessionId=([0-9a-f-]{36})/.exec(received)![1]!;
    await reader.cancel();
    controller.abort();
    await expect.poll(() => service.logs.some((line) => line.includes('MCP SSE session closed'))).toBe(true);

    expect(linesWith(service, sessionId)).toEqual([]);
  });
});
