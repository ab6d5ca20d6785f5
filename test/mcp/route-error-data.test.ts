import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handOver } from '../../src/mcp/replies.js';
import { startService, type RunningService } from '../support/service.js';
import { connect, INITIALIZE_MESSAGE, LIST_TOOLS_MESSAGE, MCP_POST_HEADERS, streamableSessionId } from './mcp-client.js';

interface McpRouteError {
  status: number;
  headers: Headers;
  requestId: string | null;
  error: { code: number; message: string; data?: Record<string, unknown> };
}

/** One request by plain fetch, read as MCP's transports answer an error: a JSON-RPC error with no id. */
async function mcpError(origin: string, path: string, init: RequestInit): Promise<McpRouteError> {
  const response = await fetch(new URL(path, origin), init);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await response.json()) as { jsonrpc: string; id: unknown; error: McpRouteError['error'] };
  expect(body.jsonrpc).toBe('2.0');
  expect(body.id).toBeNull();
  return { status: response.status, headers: response.headers, requestId: response.headers.get('x-request-id'), error: body.error };
}

/** Our code and the id of the request it answers, which the x-request-id header and the log lines carry too. */
function expectData(answer: McpRouteError, code: string): void {
  expect(answer.requestId).toMatch(/.+/);
  expect(answer.error.data).toEqual({ code, request_id: answer.requestId });
}

const BATCH = JSON.stringify([
  { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
  { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
]);

describe('errors the MCP routes answer themselves carry our code and the request id in data (sessions)', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'silent' }, (app) => {
      // No real route can be made to fail inside its transport: this one hands over as they do, and fails there.
      app.post('/test/failing-handover', (_request, reply) =>
        handOver(reply, async () => {
          throw new Error('the transport broke');
        }),
      );
    });
  });
  afterAll(() => service.stop());

  it('answers an unknown Mcp-Session-Id on POST, GET and DELETE with 404 -32001 and NOT_FOUND', async () => {
    const sessionHeaders = { ...MCP_POST_HEADERS, 'mcp-session-id': '00000000-0000-4000-8000-000000000000' };
    for (const init of [
      { method: 'POST', headers: sessionHeaders, body: LIST_TOOLS_MESSAGE },
      { method: 'GET', headers: { ...sessionHeaders, accept: 'text/event-stream' } },
      { method: 'DELETE', headers: { 'mcp-session-id': '00000000-0000-4000-8000-000000000000' } },
    ]) {
      const answer = await mcpError(service.origin, '/mcp', init);
      expect(answer.status, init.method).toBe(404);
      expect(answer.error.code).toBe(-32001);
      expect(answer.error.message).toBe('Session not found: "00000000-0000-4000-8000-000000000000" is unknown or has ended; send a new initialize request');
      expectData(answer, 'NOT_FOUND');
    }
  });

  it('answers a missing Mcp-Session-Id (POST that is no initialize, GET, DELETE) with 400 and QUERY_INVALID', async () => {
    for (const init of [
      { method: 'POST', headers: MCP_POST_HEADERS, body: LIST_TOOLS_MESSAGE },
      { method: 'GET', headers: { accept: 'text/event-stream' } },
      { method: 'DELETE' },
    ]) {
      const answer = await mcpError(service.origin, '/mcp', init);
      expect(answer.status, init.method).toBe(400);
      expect(answer.error.code).toBe(-32000);
      expect(answer.error.message).toContain('Mcp-Session-Id header is required');
      expectData(answer, 'QUERY_INVALID');
    }
  });

  it('answers a batch of requests with 400 and QUERY_INVALID', async () => {
    const answer = await mcpError(service.origin, '/mcp', { method: 'POST', headers: MCP_POST_HEADERS, body: BATCH });
    expect(answer.status).toBe(400);
    expect(answer.error.code).toBe(-32000);
    expect(answer.error.message).toContain('send one request per POST');
    expectData(answer, 'QUERY_INVALID');
  });

  it('answers POST /messages for an unknown SSE session with 404 NOT_FOUND, and without a sessionId with 400 QUERY_INVALID', async () => {
    const unknown = await mcpError(service.origin, '/messages?sessionId=no-such-session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: LIST_TOOLS_MESSAGE,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.error.code).toBe(-32001);
    expect(unknown.error.message).toBe('Session not found: no open SSE session "no-such-session"; open a new one with GET /sse');
    expectData(unknown, 'NOT_FOUND');

    const missing = await mcpError(service.origin, '/messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: LIST_TOOLS_MESSAGE });
    expect(missing.status).toBe(400);
    expect(missing.error.code).toBe(-32000);
    expect(missing.error.message).toContain('sessionId query parameter is required');
    expectData(missing, 'QUERY_INVALID');
  });

  it.each([
    ['PUT', '/mcp', 'DELETE, GET, POST'],
    ['POST', '/sse', 'GET'],
    ['GET', '/messages', 'POST'],
  ])('answers %s %s, a method the route does not take, with 405, Allow: %s and METHOD_NOT_ALLOWED', async (method, path, allowed) => {
    const answer = await mcpError(service.origin, path, { method, headers: MCP_POST_HEADERS, body: method === 'GET' ? undefined : LIST_TOOLS_MESSAGE });
    expect(answer.status).toBe(405);
    expect(answer.error.code).toBe(-32000);
    expect(answer.error.message).toBe(`method: ${method} is not served at ${path}; allowed: ${allowed}`);
    expect(answer.headers.get('allow')).toBe(allowed);
    expectData(answer, 'METHOD_NOT_ALLOWED');
  });

  it('the SDK client still sees the 404 of an ended session, with our code in the text it reports, and a new session works', async () => {
    const connected = await connect(service.origin, 'streamable');
    const sessionId = streamableSessionId(connected)!;
    const ended = await fetch(new URL('/mcp', service.origin), { method: 'DELETE', headers: { 'mcp-session-id': sessionId } });
    expect(ended.status).toBe(200);
    const refused = await connected.client.listTools().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StreamableHTTPError);
    expect((refused as StreamableHTTPError).code).toBe(404);
    expect((refused as StreamableHTTPError).message).toContain('"code":"NOT_FOUND"');
    await connected.close();

    const again = await connect(service.origin, 'streamable');
    expect(streamableSessionId(again)).not.toBe(sessionId);
    expect((await again.client.listTools()).tools.map((tool) => tool.name)).toEqual(['research']);
    await again.leave();
  });

  it('answers a transport that failed before writing anything with 500 INTERNAL and the request id', async () => {
    const answer = await mcpError(service.origin, '/test/failing-handover', { method: 'POST', headers: MCP_POST_HEADERS, body: INITIALIZE_MESSAGE });
    expect(answer.status).toBe(500);
    expect(answer.error.code).toBe(-32603);
    expect(answer.error.message).toBe('internal error; see the server log for this request id');
    expectData(answer, 'INTERNAL');
  });
});

describe('errors the MCP routes answer themselves carry our code and the request id in data (MCP_STATELESS)', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'silent', MCP_STATELESS: 'true' });
  });
  afterAll(() => service.stop());

  it('answers GET and DELETE with 405, Allow: POST and METHOD_NOT_ALLOWED', async () => {
    for (const method of ['GET', 'DELETE']) {
      const answer = await mcpError(service.origin, '/mcp', { method, headers: { accept: 'text/event-stream' } });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.get('allow')).toBe('POST');
      expect(answer.error.code).toBe(-32000);
      expect(answer.error.message).toContain('this server is stateless');
      expectData(answer, 'METHOD_NOT_ALLOWED');
    }
  });

  it('answers a batch of requests with 400 and QUERY_INVALID', async () => {
    const answer = await mcpError(service.origin, '/mcp', { method: 'POST', headers: MCP_POST_HEADERS, body: BATCH });
    expect(answer.status).toBe(400);
    expectData(answer, 'QUERY_INVALID');
  });
});
