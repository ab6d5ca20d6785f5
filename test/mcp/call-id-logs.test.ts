import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { connect, type Connected } from './mcp-client.js';

const BRAVE_PATH = '/brave/res/v1/web/search';

interface LogLine {
  msg?: string;
  mcpRequestId?: unknown;
}

/**
 * Sends one tools/call with the JSON-RPC id given, through the SDK client's own transport (the client picks its
 * ids itself), and resolves with the answer to it.
 */
function callWithId(connected: Connected, id: string, query: string): Promise<JSONRPCMessage> {
  const { transport } = connected;
  const passOn = transport.onmessage;
  const answered = new Promise<JSONRPCMessage>((resolve) => {
    transport.onmessage = (message: JSONRPCMessage) => {
      if ('id' in message && message.id === id) resolve(message);
      else passOn?.(message);
    };
  });
  const call: JSONRPCMessage = {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'research', arguments: { operation: 'web_search', params: { query, providers: ['brave'] } } },
  };
  return transport.send(call).then(() => answered);
}

describe('an MCP tool call id in the log', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    // A failing provider: its outcome line is at info, so the call writes two lines with its bindings.
    upstream.on(BRAVE_PATH, { kind: 'respond', status: 500, body: '{"error":"down"}' });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-test-key-0123456789', LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('is cut short on every line of the call when the client made it long, and answered whole', async () => {
    const connected = await connect(service.origin, 'streamable');
    try {
      const id = `call-${'i'.repeat(100_000)}`;
      const query = 'long call id';
      const answer = await callWithId(connected, id, query);
      expect('result' in answer && answer.id).toBe(id);

      const callLines = service.logs.filter((line) => line.includes(id.slice(0, 100)));
      expect(callLines.map((line) => (JSON.parse(line) as LogLine).msg)).toEqual(expect.arrayContaining(['provider brave: error', 'MCP tool call']));
      for (const line of callLines) {
        expect(line.length).toBeLessThan(5_000);
        expect((JSON.parse(line) as LogLine).mcpRequestId).toBe(`${id.slice(0, 100)}…`);
      }
      expect(service.logs.filter((line) => line.includes(id))).toEqual([]);
    } finally {
      await connected.leave();
    }
  });

  it('is logged as it was sent when it is short', async () => {
    const connected = await connect(service.origin, 'streamable');
    try {
      const id = 'short-call-id-42';
      await callWithId(connected, id, 'short call id');
      const toolCall = service.logs.map((line) => JSON.parse(line) as LogLine).find((line) => line.msg === 'MCP tool call' && line.mcpRequestId === id);
      expect(toolCall).toBeDefined();
    } finally {
      await connected.leave();
    }
  });
});
