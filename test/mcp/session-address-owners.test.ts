import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpSessionCounts } from '../../src/mcp/register.js';
import { startService, type RunningService } from '../support/service.js';
import { connect, LIST_TOOLS_MESSAGE, MCP_POST_HEADERS, streamableSessionId } from './mcp-client.js';

/** A request from another loopback address (Linux routes all of 127.0.0.0/8 to lo): another client, to the service. */
function fromOtherAddress(origin: string, path: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(new URL(path, origin), { method, headers, localAddress: '127.0.0.2' }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

function expectSessionNotFound(response: { status: number; body: string }): void {
  expect(response.status).toBe(404);
  expect(JSON.parse(response.body)).toMatchObject({ error: { code: -32001, message: expect.stringContaining('Session not found') } });
}

describe('without API keys, an MCP session belongs to the address that opened it', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'silent' });
  });
  afterAll(() => service.stop());

  it('answers another address on a Streamable HTTP session as an unknown session, for POST and DELETE', async () => {
    const connected = await connect(service.origin, 'streamable');
    const headers = { 'mcp-session-id': streamableSessionId(connected)!, 'mcp-protocol-version': '2025-06-18' };
    try {
      expectSessionNotFound(await fromOtherAddress(service.origin, '/mcp', 'POST', { ...MCP_POST_HEADERS, ...headers }, LIST_TOOLS_MESSAGE));
      expectSessionNotFound(await fromOtherAddress(service.origin, '/mcp', 'DELETE', headers));
      expect(mcpSessionCounts(service.app).streamable).toBe(1);
      expect((await connected.client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await connected.leave();
    }
  });

  it('answers another address posting to an SSE session as an unknown session', async () => {
    const controller = new AbortController();
    const stream = await fetch(`${service.origin}/sse`, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = '';
    try {
      while (!received.includes('\n\n')) received += (await reader.read()).value ?? '';
      const endpoint = /data: (\/messages\?sessionId=[0-9a-f-]{36})\n/.exec(received)![1]!;
      expectSessionNotFound(await fromOtherAddress(service.origin, endpoint, 'POST', MCP_POST_HEADERS, LIST_TOOLS_MESSAGE));
      const own = await fetch(`${service.origin}${endpoint}`, { method: 'POST', headers: MCP_POST_HEADERS, body: LIST_TOOLS_MESSAGE });
      expect(own.status).toBe(202);
    } finally {
      await reader.cancel();
      controller.abort();
    }
  });
});
