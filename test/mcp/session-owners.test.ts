import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpSessionCounts } from '../../src/mcp/register.js';
import { startService, type RunningService } from '../support/service.js';
import { connect, LIST_TOOLS_MESSAGE, MCP_POST_HEADERS, rawRequest, streamableSessionId } from './mcp-client.js';

const KEY_A = 'owner-key-aaaaaaaaaaaaaaaa';
const KEY_B = 'owner-key-bbbbbbbbbbbbbbbb';
const PROTOCOL_VERSION = '2025-06-18';

/** What an unknown session is answered: the same for a session another key opened. */
function expectSessionNotFound(response: { status: number; body: string }): void {
  expect(response.status).toBe(404);
  expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32001, message: expect.stringContaining('Session not found') } });
}

describe('MCP sessions belong to the API key that opened them', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ API_KEYS: `${KEY_A},${KEY_B}`, LOG_LEVEL: 'silent' });
  });
  afterAll(() => service.stop());

  it('answers another key on a Streamable HTTP session as an unknown session, for POST, GET and DELETE', async () => {
    const connected = await connect(service.origin, 'streamable', { headers: { authorization: `Bearer ${KEY_A}` } });
    const sessionHeaders = { 'mcp-session-id': streamableSessionId(connected)!, 'mcp-protocol-version': PROTOCOL_VERSION, 'x-api-key': KEY_B };
    try {
      expectSessionNotFound(
        await rawRequest(service.origin, '/mcp', { method: 'POST', headers: { ...MCP_POST_HEADERS, ...sessionHeaders }, body: LIST_TOOLS_MESSAGE }),
      );
      const controller = new AbortController();
      const stream = await fetch(`${service.origin}/mcp`, { headers: { ...sessionHeaders, accept: 'text/event-stream' }, signal: controller.signal });
      const streamBody = await (stream.status === 404 ? stream.text() : Promise.resolve(''));
      controller.abort();
      expectSessionNotFound({ status: stream.status, body: streamBody });
      expectSessionNotFound(await rawRequest(service.origin, '/mcp', { method: 'DELETE', headers: sessionHeaders }));

      expect(mcpSessionCounts(service.app).streamable).toBe(1);
      expect((await connected.client.listTools()).tools.map((tool) => tool.name)).toEqual(['research']);
    } finally {
      await connected.leave();
    }
  });

  it('answers another key on an SSE session as an unknown session, and the owner goes on', async () => {
    const controller = new AbortController();
    const stream = await fetch(`${service.origin}/sse`, { headers: { accept: 'text/event-stream', 'x-api-key': KEY_A }, signal: controller.signal });
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = '';
    const readUntil = async (text: string): Promise<void> => {
      while (!received.includes(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before ${text}`);
        received += value;
      }
    };
    try {
      await readUntil('\n\n');
      const endpoint = /data: (\/messages\?sessionId=[0-9a-f-]{36})\n/.exec(received)![1]!;
      const post = (key: string) =>
        rawRequest(service.origin, endpoint, { method: 'POST', headers: { ...MCP_POST_HEADERS, 'x-api-key': key }, body: LIST_TOOLS_MESSAGE });

      expectSessionNotFound(await post(KEY_B));
      expect((await post(KEY_A)).status).toBe(202);
      await readUntil('"tools"');
      expect(mcpSessionCounts(service.app).sse).toBe(1);
    } finally {
      await reader.cancel();
      controller.abort();
    }
    await expect.poll(() => mcpSessionCounts(service.app).sse).toBe(0);
  });
});
