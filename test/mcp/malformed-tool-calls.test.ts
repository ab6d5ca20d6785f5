import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, LATEST_PROTOCOL_VERSION, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/operations/registry.js';
import { startService, type RunningService } from '../support/service.js';
import { connect, MCP_POST_HEADERS, rawRequest, streamableSessionId, textOf, TRANSPORT_KINDS, type Connected } from './mcp-client.js';

/**
 * A tools/call as a sloppy client writes it, past what the SDK client's types allow: the request goes out as given
 * (the client checks only the answer), so the server sees exactly these params.
 */
async function sendToolCall(client: Client, params: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.request({ method: 'tools/call', params } as never, CallToolResultSchema)) as CallToolResult;
}

/** What a refusal of the arguments reads, for a tool whose arguments were given as `given`. */
function argumentsRefusal(given: string, tool: string): string {
  return `arguments: ${given} is not an object; allowed: an object of ${tool}'s parameters ({} when none is needed), as its inputSchema in tools/list gives them`;
}

/**
 * A tools/call whose arguments are no object, or whose name is no string, is a caller's mistake like any other bad
 * argument: a tool error saying what was wrong and what is allowed. The SDK parsed such a request before any handler
 * ran and answered a JSON-RPC internal error (-32603) with zod's issue list as its message.
 */
const SERVICES = [
  ...TRANSPORT_KINDS.map((kind) => ({ label: kind, kind, env: {} })),
  // Every POST its own server: the same handler, reached without a session.
  { label: 'stateless Streamable HTTP', kind: 'streamable' as const, env: { MCP_STATELESS: 'true' } },
];

describe.each(SERVICES)('malformed tools/call over $label', ({ kind, env }) => {
  let service: RunningService;
  let split: Connected;

  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'silent', MCP_TOOLS: 'split', ...env });
    split = await connect(service.origin, kind);
  });
  afterAll(async () => {
    await split.close();
    await service.stop();
  });

  it.each([
    ['an array', ['reciprocal rank fusion']],
    ['a string', 'reciprocal rank fusion'],
    ['a number', 5],
    ['null', null],
  ])('refuses arguments given as %s with a tool error', async (given, args) => {
    const result = await sendToolCall(split.client, { name: 'web_search', arguments: args });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(argumentsRefusal(given, 'web_search'));
  });

  it('refuses a name that is missing or not a string, listing the tools', async () => {
    const tools = OPERATIONS.map((operation) => operation.name).join(', ');
    const missing = await sendToolCall(split.client, { arguments: {} });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toBe(`name: missing; tools: ${tools}`);
    const numbered = await sendToolCall(split.client, { name: 7, arguments: {} });
    expect(numbered.isError).toBe(true);
    expect(textOf(numbered)).toBe(`name: not a string; tools: ${tools}`);
  });

  it('still runs a call that gives no arguments at all', async () => {
    const result = await sendToolCall(split.client, { name: 'list_operations' });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('- web_search');
  });
});

describe('malformed tools/call of the compact tool', () => {
  let service: RunningService;
  let compact: Connected;

  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'silent', MCP_TOOLS: 'compact' });
    compact = await connect(service.origin, 'streamable');
  });
  afterAll(async () => {
    await compact.close();
    await service.stop();
  });

  /**
   * A tools/call sent as raw JSON text on the compact client's session: what no SDK client can send, since its
   * JSON.stringify cannot write a value nested deeper than its stack goes.
   */
  async function rawToolCall(params: string): Promise<{ text: string; isError: boolean }> {
    const sessionId = streamableSessionId(compact)!;
    const response = await rawRequest(service.origin, '/mcp', {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION },
      body: `{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":${params}}`,
    });
    const data = /^data: (.*)$/m.exec(response.body)?.[1];
    const message = JSON.parse(data ?? response.body) as { result?: CallToolResult; error?: { code: number; message: string } };
    if (message.error) return { text: `JSON-RPC error ${message.error.code}: ${message.error.message}`, isError: false };
    return { text: textOf(message.result!), isError: message.result!.isError === true };
  }

  /** The call's answer as text: a tool result's, or, for a JSON-RPC error (what these calls got before), its code and message. */
  async function answerText(params: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
    try {
      const result = await sendToolCall(compact.client, params);
      return { text: textOf(result), isError: result.isError === true };
    } catch (error) {
      if (error instanceof McpError) return { text: `JSON-RPC error ${error.code}: ${error.message}`, isError: false };
      throw error;
    }
  }

  it('names research as the tool whose arguments must be an object', async () => {
    expect(await answerText({ name: 'research', arguments: [{ operation: 'web_search' }] })).toEqual({
      text: argumentsRefusal('an array', 'research'),
      isError: true,
    });
  });

  it('refuses an operation that is not a string, however deeply it nests, listing the operations', async () => {
    // Within the body limit, deeper than JSON.stringify's stack goes: sent as raw JSON text, as a hostile client would.
    const nested = '['.repeat(60_000) + ']'.repeat(60_000);
    for (const operation of [nested, 7, { name: 'web_search' }]) {
      const answer =
        operation === nested
          ? await rawToolCall(`{"name":"research","arguments":{"operation":${nested}}}`)
          : await answerText({ name: 'research', arguments: { operation } });
      expect(answer).toEqual({ text: expect.stringMatching(/^operation: not a string; operations:\n- web_search\(query: string/), isError: true });
    }
  });
});
