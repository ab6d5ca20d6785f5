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

  it("answers what the SDK's transport would refuse itself (a wrong Accept, an unknown protocol version, a second GET stream, no JSON-RPC message) in our shape", async () => {
    // An initialize that cannot read an event stream, as curl sends it by default.
    const initialize = await mcpError(service.origin, '/mcp', { method: 'POST', headers: { ...MCP_POST_HEADERS, accept: 'application/json' }, body: INITIALIZE_MESSAGE });
    expect(initialize.status).toBe(406);
    expect(initialize.error.code).toBe(-32000);
    expect(initialize.error.message).toBe(
      'Not Acceptable: the Accept header of a POST to the MCP endpoint must list application/json and text/event-stream; got "application/json"',
    );
    expectData(initialize, 'NOT_ACCEPTABLE');

    // A session of raw requests: the SDK client would open its own GET stream whenever it liked.
    const opened = await fetch(new URL('/mcp', service.origin), { method: 'POST', headers: MCP_POST_HEADERS, body: INITIALIZE_MESSAGE });
    expect(opened.status).toBe(200);
    await opened.text();
    const sessionId = opened.headers.get('mcp-session-id')!;
    const streamAbort = new AbortController();
    try {
      const stream = await mcpError(service.origin, '/mcp', { method: 'GET', headers: { 'mcp-session-id': sessionId, accept: 'application/json' } });
      expect(stream.status).toBe(406);
      expect(stream.error.message).toBe('Not Acceptable: the Accept header of a GET to the MCP endpoint must list text/event-stream; got "application/json"');
      expectData(stream, 'NOT_ACCEPTABLE');

      const version = await mcpError(service.origin, '/mcp', {
        method: 'POST',
        headers: { ...MCP_POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '1999-01-01' },
        body: LIST_TOOLS_MESSAGE,
      });
      expect(version.status).toBe(400);
      expect(version.error.code).toBe(-32000);
      expect(version.error.message).toMatch(/^Bad Request: MCP-Protocol-Version "1999-01-01" is not supported; supported: .*2025-06-18/);
      expectData(version, 'QUERY_INVALID');

      const streamHeaders = { 'mcp-session-id': sessionId, accept: 'text/event-stream' };
      const first = await fetch(new URL('/mcp', service.origin), { method: 'GET', headers: streamHeaders, signal: streamAbort.signal });
      expect(first.status).toBe(200);
      const second = await mcpError(service.origin, '/mcp', { method: 'GET', headers: streamHeaders });
      expect(second.status).toBe(409);
      expect(second.error.code).toBe(-32000);
      expect(second.error.message).toContain('already has its GET stream open');
      expectData(second, 'STREAM_ALREADY_OPEN');
      // JSON, but no JSON-RPC message.
      const notMessage = await mcpError(service.origin, '/mcp', { method: 'POST', headers: { ...MCP_POST_HEADERS, 'mcp-session-id': sessionId }, body: '{"hello":"world"}' });
      expect(notMessage.status).toBe(400);
      expect(notMessage.error.code).toBe(-32600);
      expect(notMessage.error.message).toMatch(/^Bad Request: the body is not a JSON-RPC 2\.0 message; allowed: /);
      expectData(notMessage, 'QUERY_INVALID');
      // None of them hurt the session.
      const listed = await fetch(new URL('/mcp', service.origin), { method: 'POST', headers: { ...MCP_POST_HEADERS, 'mcp-session-id': sessionId }, body: LIST_TOOLS_MESSAGE });
      expect(listed.status).toBe(200);
      expect(await listed.text()).toContain('"name":"research"');
    } finally {
      streamAbort.abort();
      await fetch(new URL('/mcp', service.origin), { method: 'DELETE', headers: { 'mcp-session-id': sessionId } });
    }
  });

  it('answers a message posted to an SSE session that is JSON but no JSON-RPC message in our shape, not "Invalid message: [object Object]"', async () => {
    const controller = new AbortController();
    const stream = await fetch(new URL('/sse', service.origin), { headers: { accept: 'text/event-stream' }, signal: controller.signal });
    try {
      // The first event names where to post: "event: endpoint\ndata: /messages?sessionId=…".
      const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
      let received = '';
      while (!/data: \S+\n/.test(received)) received += (await reader.read()).value ?? '';
      const endpoint = /data: (\/messages\?sessionId=\S+)\n/.exec(received)![1]!;
      const answer = await mcpError(service.origin, endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"hello":"world"}' });
      expect(answer.status).toBe(400);
      expect(answer.error.code).toBe(-32600);
      expect(answer.error.message).toMatch(/^Bad Request: the body is not a JSON-RPC 2\.0 message; allowed: one message, /);
      expectData(answer, 'QUERY_INVALID');
      // The SSE transport reads one message a POST: a batch, valid or not, got the same plain-text answer.
      const batch = await mcpError(service.origin, endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `[${LIST_TOOLS_MESSAGE}]` });
      expect(batch.status).toBe(400);
      expectData(batch, 'QUERY_INVALID');
    } finally {
      controller.abort();
    }
  });

  it('answers an initialize the transport would refuse itself (on an open session, or with other messages in its POST) in our shape', async () => {
    const connected = await connect(service.origin, 'streamable');
    try {
      const sessionId = streamableSessionId(connected)!;
      const again = await mcpError(service.origin, '/mcp', { method: 'POST', headers: { ...MCP_POST_HEADERS, 'mcp-session-id': sessionId }, body: INITIALIZE_MESSAGE });
      expect(again.status).toBe(400);
      expect(again.error.code).toBe(-32600);
      expect(again.error.message).toMatch(/^Invalid Request: this session \(Mcp-Session-Id\) is initialized already; /);
      expectData(again, 'QUERY_INVALID');
      // The session refused a second initialize, and is still open for its client.
      expect((await connected.client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await connected.leave();
    }
    const withNotification = `[${INITIALIZE_MESSAGE},{"jsonrpc":"2.0","method":"notifications/initialized"}]`;
    const together = await mcpError(service.origin, '/mcp', { method: 'POST', headers: MCP_POST_HEADERS, body: withNotification });
    expect(together.status).toBe(400);
    expect(together.error.code).toBe(-32600);
    expect(together.error.message).toMatch(/^Invalid Request: an initialize request comes alone in its POST; /);
    expectData(together, 'QUERY_INVALID');
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

  it("answers what the SDK's transport would refuse itself (a wrong Accept, an unknown protocol version) in our shape", async () => {
    const accept = await mcpError(service.origin, '/mcp', { method: 'POST', headers: { ...MCP_POST_HEADERS, accept: 'text/event-stream' }, body: LIST_TOOLS_MESSAGE });
    expect(accept.status).toBe(406);
    expect(accept.error.message).toContain('must list application/json and text/event-stream; got "text/event-stream"');
    expectData(accept, 'NOT_ACCEPTABLE');
    const version = await mcpError(service.origin, '/mcp', { method: 'POST', headers: { ...MCP_POST_HEADERS, 'mcp-protocol-version': 'next' }, body: LIST_TOOLS_MESSAGE });
    expect(version.status).toBe(400);
    expect(version.error.message).toMatch(/^Bad Request: MCP-Protocol-Version "next" is not supported; supported: /);
    expectData(version, 'QUERY_INVALID');
  });

  it('answers an initialize with other messages in its POST in our shape', async () => {
    const withNotification = `[${INITIALIZE_MESSAGE},{"jsonrpc":"2.0","method":"notifications/initialized"}]`;
    const together = await mcpError(service.origin, '/mcp', { method: 'POST', headers: MCP_POST_HEADERS, body: withNotification });
    expect(together.status).toBe(400);
    expect(together.error.code).toBe(-32600);
    expect(together.error.message).toMatch(/^Invalid Request: an initialize request comes alone in its POST; /);
    expectData(together, 'QUERY_INVALID');
  });
});
